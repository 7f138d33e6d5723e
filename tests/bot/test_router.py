"""The command router (bot/router.py): how a name is matched, resolved in a channel of
one or several systems, and found before the channel is read. Many of these tests were
written from the surviving mutants of the `core` area (see docs/testing.md, "Mutation
testing")."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot import router, systems
from bot.context import Context
from bot.messages import Outgoing


async def _noop(ctx: Context) -> list[Outgoing]:
    return []


def test_a_name_ending_in_one_latin_letter_after_cjk_must_end_the_word() -> None:
    """Only the *last* character of a name decides whether it is a Latin name that
    must end the word: `擲骰k` ends in a Latin letter, so `擲骰kick` is another word
    (not `擲骰k` + `ick`), while a space, a die or CJK text may follow it."""
    table = router.CommandTable("mutr")
    table.command("擲骰k")(_noop)
    cmd = table.find("擲骰k")
    assert cmd is not None
    assert table.match("擲骰kick") is None
    assert table.match("擲骰kAB") is None
    assert table.match("擲骰k 3") == (cmd, "3", 3)
    assert table.match("擲骰kd6") == (cmd, "d6", 3)
    assert table.match("擲骰k觀察") == (cmd, "觀察", 3)


# ------------------------------------------------------------------ resolving in a channel
MUTRA = router.CommandTable("mutra")
MUTRB = router.CommandTable("mutrb")
MUTRA.command("擲", "骰", "zqa")(_noop)
MUTRB.command("擲")(_noop)


@pytest.fixture
def layered() -> Iterator[None]:
    """Two small systems routed for one test (`mutra+mutrb` plays both, the last
    layer first); every real system is loaded too."""
    systems.plugins()
    router.add_table(MUTRA)
    router.add_table(MUTRB)
    yield
    router.remove_table("mutra")
    router.remove_table("mutrb")


def test_a_systems_own_name_wins_over_a_common_one_of_the_same_length(
        layered: None) -> None:
    own = MUTRA.find("骰")
    common = router.COMMON.find("骰")
    assert own is not None and common is not None and own is not common
    assert router.resolve("骰 2d6", "mutra") == (own, "2d6")
    assert router.resolve("骰 2d6", "mutrb") == (common, "2d6")


def test_a_longer_common_name_wins_over_a_shorter_own_one(layered: None) -> None:
    """`擲骰 3` is the common `擲骰`, not the system's `擲` with the argument `骰 3`."""
    assert router.resolve("擲骰 3", "mutra") == (router.COMMON.find("擲骰"), "3")
    assert router.resolve("擲 3", "mutra") == (MUTRA.find("擲"), "3")


def test_in_a_layered_channel_the_last_layer_wins_a_tie(layered: None) -> None:
    top, base = MUTRB.find("擲"), MUTRA.find("擲")
    assert router.resolve("擲 3", "mutra+mutrb") == (top, "3")
    assert router.resolve("擲 3", "mutrb+mutra") == (base, "3")
    # a name only the base layer has is still found
    assert router.resolve("zqa 1", "mutra+mutrb") == (MUTRA.find("zqa"), "1")
    assert router.resolve("zqa 1", "mutrb") is None
    assert router.resolve("no command here", "mutra+mutrb") is None


def test_a_command_is_unambiguous_only_when_every_system_runs_the_same(
        layered: None) -> None:
    """Its precheck may run before the channel is read only if every system (and a
    channel of no system) runs that very command."""
    assert router.unambiguous("r 1d6") == (router.COMMON.find("r"), "1d6")
    assert router.unambiguous("擲骰 3") == (router.COMMON.find("擲骰"), "3")
    assert router.unambiguous("骰 2d6") is None  # mutra has its own `骰`
    assert router.unambiguous("zqa 1") is None  # only mutra has it
    assert router.unambiguous("no command here") is None
