"""Issue 22 item 1: production dice nobody can predict.

The attack the issue reproduced: every public roll shows the generator's output, and a
Mersenne Twister (``random.Random``) is rebuilt from 624 of its 32-bit outputs. The
test plays the attacker against the source a production ``Core`` rolls with.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import sys
from collections.abc import Iterator

import pytest

from rules.dice.source import (
    SHUFFLE_FACES,
    ScriptedSource,
    SeededSource,
    SystemSource,
    fisher_yates,
    shuffle,
)

WORD = 2**32 - 1  # a die of 2**32 - 1 faces shows one whole generator word (face - 1)


def _untemper(y: int) -> int:
    """MT19937's output tempering undone: the state word behind one output."""
    y ^= y >> 18
    y ^= (y << 15) & 0xEFC60000
    result = y
    for _ in range(5):
        result = y ^ ((result << 7) & 0x9D2C5680)
    y = result & 0xFFFFFFFF
    result = y
    for _ in range(3):
        result = y ^ (result >> 11)
    return result & 0xFFFFFFFF


def predicts(source: object) -> bool:
    """The attacker: 624 observed words rebuild a Mersenne Twister; does it foresee
    the next 32 rolls?"""
    roll = source.roll  # type: ignore[attr-defined]
    seen = [roll(WORD) - 1 for _ in range(624)]
    clone = random.Random()
    clone.setstate((3, (*(_untemper(word) for word in seen), 624), None))
    return all(roll(WORD) == clone.randint(1, WORD) for _ in range(32))


def test_the_attack_works_on_a_mersenne_twister() -> None:
    """The attacker is real: it foresees a seeded source (what production used)."""
    assert predicts(SeededSource(2026))
    assert predicts(SeededSource(7))


async def test_a_production_core_rolls_dice_the_attack_cannot_foresee(tmp_path) -> None:
    from bot.core import Core
    from tests.conftest import make_settings

    core = await Core.open(make_settings(tmp_path))
    try:
        assert isinstance(core.dice, SystemSource)
        assert not predicts(core.dice)
    finally:
        await core.close()


async def test_no_setting_seeds_the_production_dice(tmp_path, monkeypatch) -> None:
    """`TRPGBOT_SEED` once seeded every roll of `trpgbot run`: two processes with the
    same setting rolled the same dice. Now no setting reaches the dice."""
    from bot.core import Core
    from tests.conftest import make_settings

    monkeypatch.setenv("TRPGBOT_SEED", "5")
    rolls = []
    for name in ("a", "b"):
        core = await Core.open(make_settings(tmp_path / name))
        try:
            rolls.append([core.dice.roll(65535) for _ in range(20)])
        finally:
            await core.close()
    assert rolls[0] != rolls[1]


def _urandom_of(data: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CSPRNG's answer fixed: the words of ``data`` then zeros."""
    def fake(size: int) -> bytes:
        return (data + bytes(size))[:size]
    monkeypatch.setattr(os, "urandom", fake)


def words(*values: int) -> bytes:
    return b"".join(value.to_bytes(4, "little" if sys.byteorder == "little" else "big")
                    for value in values)


def test_a_die_takes_just_enough_bits_and_rejects_the_rest(monkeypatch) -> None:
    # d6 takes 3 bits: 7 and 6 are outside the die and drawn again; 0xFFFFFFF2 → 2 → 3
    _urandom_of(words(7, 6, 0xFFFFFFF2, 5), monkeypatch)
    source = SystemSource()
    assert source.roll(6) == 3
    assert source.roll(6) == 6  # 5 → face 6
    assert source.roll(1) == 1


def test_a_die_of_more_than_two_to_the_32_faces_joins_words(monkeypatch) -> None:
    _urandom_of(words(1, 2), monkeypatch)
    assert SystemSource().roll(SHUFFLE_FACES) == (1 << 32 | 2) + 1


def test_the_batch_is_read_once_for_many_dice(monkeypatch) -> None:
    calls: list[int] = []
    real = os.urandom

    def counting(size: int) -> bytes:
        calls.append(size)
        return real(size)
    monkeypatch.setattr(os, "urandom", counting)
    source = SystemSource()
    for _ in range(SystemSource.WORDS):
        source.roll(2)
    assert calls == [4 * SystemSource.WORDS]
    source.roll(2)
    assert calls == [4 * SystemSource.WORDS] * 2


def test_the_production_shuffle_swaps_with_csprng_dice(monkeypatch) -> None:
    # Fisher–Yates over 4 cards: d4, d3, d2 from the words 3, 0, 0 → faces 4, 1, 1
    _urandom_of(words(3, 0, 0), monkeypatch)
    cards = ["a", "b", "c", "d"]
    shuffle(cards, SystemSource())
    # i=3: j=3 (stay); i=2: j=0 → c a? : [c, b, a, d]; i=1: j=0 → [b, c, a, d]
    assert cards == ["b", "c", "a", "d"]


def test_every_order_of_a_production_shuffle_comes_up() -> None:
    source = SystemSource()
    orders = set()
    for _ in range(600):
        cards = [1, 2, 3]
        shuffle(cards, source)
        orders.add(tuple(cards))
    assert len(orders) == 6


def test_a_script_names_a_shuffle_with_one_value() -> None:
    """Tests and the console's --dice keep naming a deck order with one number."""
    cards, expected = list(range(10)), list(range(10))
    random.Random(11).shuffle(expected)
    source = ScriptedSource([11, 4])
    shuffle(cards, source)
    assert cards == expected
    assert source.roll(6) == 4  # one value used by the shuffle, the next is a die's


def test_a_source_that_only_rolls_shuffles_with_its_dice() -> None:
    cards = ["a", "b", "c"]
    fisher_yates(cards, ScriptedSource([1, 2]))  # i=2: j=0; i=1: j=1
    assert cards == ["c", "b", "a"]


def _child_rolls(source: SystemSource, queue: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    queue.put([source.roll(2**32 - 1) for _ in range(8)])


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork only")
def test_a_forked_process_does_not_repeat_its_parents_batch() -> None:
    source = SystemSource()
    source.roll(6)  # the parent's batch is read
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_child_rolls, args=(source, queue))
    child.start()
    theirs = queue.get(timeout=30)
    child.join(30)
    ours = [source.roll(2**32 - 1) for _ in range(8)]
    assert theirs != ours


def _rolls(source: SystemSource, count: int) -> Iterator[int]:
    return (source.roll(6) for _ in range(count))


def test_the_faces_of_a_d6_are_even() -> None:
    """6,000 rolls: each face within ±30 % of 1,000 (a failure chance below 10^-20)."""
    counts = [0] * 7
    for face in _rolls(SystemSource(), 6000):
        counts[face] += 1
    assert counts[0] == 0
    assert all(700 <= count <= 1300 for count in counts[1:]), counts


def test_a_command_run_again_deals_the_same_shuffle() -> None:
    """The group-commit writer may run a command twice (bot.dice_replay): the second
    run deals the first run's deck without drawing again."""
    from bot.dice_replay import DiceReplay

    replay = DiceReplay(ScriptedSource([11, 3]))
    first = list("abcdefgh")
    shuffle(first, replay)
    assert replay.roll(6) == 3
    replay.again()
    second = list("abcdefgh")
    shuffle(second, replay)
    assert second == first
    assert replay.roll(6) == 3  # the remembered die, not a new draw (the script is spent)
