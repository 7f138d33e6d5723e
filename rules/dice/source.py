"""Where die faces come from.

The dice source is injected everywhere a die is rolled. Production rolls come from
the operating system's CSPRNG (:class:`SystemSource`): every public roll shows the
generator's output, so a generator whose state can be rebuilt from its output (the
Mersenne Twister behind ``random.Random``) would let a player predict every secret
roll and every shuffle. A seedable source (:class:`SeededSource`) exists only for
tests and the console's ``--seed``; tests and the console's ``--dice`` script exact
values with :class:`ScriptedSource`.

A source may also shuffle (:func:`shuffle`): the production source draws every swap
from the CSPRNG, a script names a whole shuffle with one value.
"""

from __future__ import annotations

import os
import random
import weakref
from collections.abc import Iterable, MutableSequence
from typing import Protocol, TypeVar, runtime_checkable

from rules.errors import RuleError

T = TypeVar("T")

#: A script names a shuffle with one value in ``1..SHUFFLE_FACES`` (a seed).
SHUFFLE_FACES = 2**64


@runtime_checkable
class DiceSource(Protocol):
    """Returns one face of a die with ``faces`` sides, in ``1..faces``."""

    def roll(self, faces: int) -> int: ...


@runtime_checkable
class Shuffler(Protocol):
    """A source that shuffles in its own way (see :func:`shuffle`)."""

    def shuffle(self, items: MutableSequence[T]) -> None: ...


def shuffle(items: MutableSequence[T], source: DiceSource) -> None:
    """Shuffle ``items`` in place with ``source``: its own way when it has one, else a
    Fisher–Yates shuffle with one of its dice per position (every order equally likely
    when the dice are fair)."""
    if isinstance(source, Shuffler):
        source.shuffle(items)
    else:
        fisher_yates(items, source)


def fisher_yates(items: MutableSequence[T], source: DiceSource) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = source.roll(i + 1) - 1
        items[i], items[j] = items[j], items[i]


_POOLS: weakref.WeakSet[SystemSource] = weakref.WeakSet()


def _forget_pools() -> None:
    """A forked child must not hand out its parent's buffered bytes again."""
    for pool in list(_POOLS):
        pool._forget()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pools)


class SystemSource:
    """The production source: the operating system's CSPRNG (``os.urandom``).

    The CSPRNG is read in batches of :attr:`WORDS` 32-bit words (one system call
    serves hundreds of dice). A die takes just enough bits of one word — of several
    for a die of more than 2**32 faces — and draws again when they fall outside the
    die (rejection sampling: every face equally likely, no modulo bias). A forked
    process starts with an empty batch, so parent and child never share a roll.
    """

    WORDS = 1024

    def __init__(self) -> None:
        self._words = memoryview(b"").cast("I")
        self._at = 0
        _POOLS.add(self)

    def _forget(self) -> None:
        self._words, self._at = memoryview(b"").cast("I"), 0

    def _refill(self) -> None:
        self._words, self._at = memoryview(os.urandom(4 * self.WORDS)).cast("I"), 0

    def _word(self) -> int:
        if self._at >= len(self._words):
            self._refill()
        self._at += 1
        return self._words[self._at - 1]

    def roll(self, faces: int) -> int:
        if faces < 1:
            raise ValueError(f"a die needs at least one face, not {faces}")
        mask = (1 << (faces - 1).bit_length()) - 1
        if mask > 0xFFFFFFFF:
            return self._roll_wide(faces, mask)
        while True:  # the common die, one word a draw: the loop inlined for speed
            if self._at >= len(self._words):
                self._refill()
            value = self._words[self._at] & mask
            self._at += 1
            if value < faces:
                return value + 1

    def _roll_wide(self, faces: int, mask: int) -> int:
        words = (mask.bit_length() + 31) // 32
        while True:
            value = 0
            for _ in range(words):
                value = value << 32 | self._word()
            value &= mask
            if value < faces:
                return value + 1

    def shuffle(self, items: MutableSequence[T]) -> None:
        fisher_yates(items, self)


class SeededSource:
    """A reproducible source for tests and the console's ``--seed`` only: a
    ``random.Random`` whose output rebuilds its state, so never for real games
    (``Core`` and ``trpgbot run`` use :class:`SystemSource`)."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def roll(self, faces: int) -> int:
        return self._rng.randint(1, faces)

    def shuffle(self, items: MutableSequence[T]) -> None:
        self._rng.shuffle(items)


class ScriptedSource:
    """Hands out scripted values in order, then falls back to another source.

    A scripted value larger than the die being rolled (or below 1) is refused
    with ``RuleError("dice.script_out_of_range")`` rather than silently clamped,
    so a wrong script is noticed instead of producing a plausible result. A
    shuffle takes one scripted value as the seed of a reproducible shuffle, so a
    test or the console's ``--dice`` names a whole deck order with one number.
    """

    def __init__(self, values: Iterable[int], fallback: DiceSource | None = None) -> None:
        self._values = list(values)
        self._next = 0
        self._fallback = fallback if fallback is not None else SystemSource()

    @property
    def remaining(self) -> int:
        return len(self._values) - self._next

    def push(self, values: Iterable[int]) -> None:
        """Append more scripted values (used by the console for later lines)."""
        self._values.extend(values)

    def roll(self, faces: int) -> int:
        if self._next < len(self._values):
            value = self._values[self._next]
            if not 1 <= value <= faces:
                raise RuleError("dice.script_out_of_range", value=value, faces=faces)
            self._next += 1
            return value
        return self._fallback.roll(faces)

    def shuffle(self, items: MutableSequence[T]) -> None:
        if self.remaining:
            random.Random(self.roll(SHUFFLE_FACES)).shuffle(items)
        else:
            shuffle(items, self._fallback)
