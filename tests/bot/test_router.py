"""The command router (bot/router.py): how a name is matched, resolved in a channel of
one or several systems, and found before the channel is read. Many of these tests were
written from the surviving mutants of the `core` area (see docs/testing.md, "Mutation
testing")."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from bot import router, systems
from bot.context import Context
from bot.messages import Outgoing
from bot.routes import router as _router

ROUTER = _router()


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
    ROUTER.add_table(MUTRA)
    ROUTER.add_table(MUTRB)
    yield
    ROUTER.remove_table("mutra")
    ROUTER.remove_table("mutrb")


def test_a_systems_own_name_wins_over_a_common_one_of_the_same_length(
        layered: None) -> None:
    own = MUTRA.find("骰")
    common = ROUTER.common.find("骰")
    assert own is not None and common is not None and own is not common
    assert ROUTER.resolve("骰 2d6", "mutra") == (own, "2d6")
    assert ROUTER.resolve("骰 2d6", "mutrb") == (common, "2d6")


def test_a_longer_common_name_wins_over_a_shorter_own_one(layered: None) -> None:
    """`擲骰 3` is the common `擲骰`, not the system's `擲` with the argument `骰 3`."""
    assert ROUTER.resolve("擲骰 3", "mutra") == (ROUTER.common.find("擲骰"), "3")
    assert ROUTER.resolve("擲 3", "mutra") == (MUTRA.find("擲"), "3")


def test_in_a_layered_channel_the_last_layer_wins_a_tie(layered: None) -> None:
    top, base = MUTRB.find("擲"), MUTRA.find("擲")
    assert ROUTER.resolve("擲 3", "mutra+mutrb") == (top, "3")
    assert ROUTER.resolve("擲 3", "mutrb+mutra") == (base, "3")
    # a name only the base layer has is still found
    assert ROUTER.resolve("zqa 1", "mutra+mutrb") == (MUTRA.find("zqa"), "1")
    assert ROUTER.resolve("zqa 1", "mutrb") is None
    assert ROUTER.resolve("no command here", "mutra+mutrb") is None


def test_a_command_is_unambiguous_only_when_every_system_runs_the_same(
        layered: None) -> None:
    """Its precheck may run before the channel is read only if every system (and a
    channel of no system) runs that very command."""
    assert ROUTER.unambiguous("r 1d6") == (ROUTER.common.find("r"), "1d6")
    assert ROUTER.unambiguous("擲骰 3") == (ROUTER.common.find("擲骰"), "3")
    assert ROUTER.unambiguous("骰 2d6") is None  # mutra has its own `骰`
    assert ROUTER.unambiguous("zqa 1") is None  # only mutra has it
    assert ROUTER.unambiguous("no command here") is None


async def _other(ctx: Context) -> list[Outgoing]:
    return []


def _check(args: str) -> None:
    pass


# ---------- names, near misses and system tables
@pytest.mark.parametrize(("typed", "name", "close"), [
    ("hwlp", "help", True),     # one letter replaced
    ("hlep", "help", True),     # two neighbours swapped
    ("helpp", "help", True),    # one letter too many: the typo is the longer word
    ("hep", "help", True),      # one letter missing
    ("help", "help", False),    # the name itself is no typo
    ("hxlx", "help", False),    # two letters replaced
    ("lehp", "help", False),    # a swap of letters that are not neighbours
    ("hepl", "help", True),     # a swap at the end
    ("he", "help", False),      # two letters missing
    ("helpxx", "help", False),  # two letters too many
])
def test_one_edit_is_exactly_one_insertion_deletion_substitution_or_swap(
        typed: str, name: str, close: bool) -> None:
    assert router._one_edit(typed, name) is close
    assert router._one_edit(name, typed) is close


def test_near_miss_reaches_three_letter_names_and_longer_typos() -> None:
    assert ROUTER.near_miss("sett") == "set"
    assert ROUTER.near_miss("helpp 1") == "help"
    assert ROUTER.near_miss("hwlp") == "help"
    assert ROUTER.near_miss("zzzzzz") is None


def test_a_table_registers_every_name_of_a_command_case_insensitively() -> None:
    table = router.CommandTable("mutx")
    table.command("擲", "Zq", precheck=_check, hidden=True)(_noop)
    table.command("擲骰", help_key="mutx.help.other")(_other)
    short, long = table.find("擲"), table.find("擲骰")
    assert short == router.Command(("擲", "Zq"), _noop, "mutx.help.擲", _check, True, "mutx")
    assert long == router.Command(("擲骰",), _other, "mutx.help.other", None, False, "mutx")
    assert table.owner == "mutx"
    assert table.find("zQ") is short and table.find("./zq") is short
    assert table.names() == ["擲", "zq", "擲骰"]
    assert table.commands() == [short, long]
    # the longest name that starts the message wins, whatever the order of registration
    assert table.match("擲骰 3d6") == (long, "3d6", 2)
    assert table.match("擲 3d6") == (short, "3d6", 1)
    assert table.match("ZQ 1") == (short, "1", 2)
    with pytest.raises(ValueError, match=r"^command name 'ZQ' registered twice in mutx$"):
        table.command("ZQ")(_other)
    assert table.find("zq") is short


def test_a_command_registered_as_rebinding_says_so() -> None:
    table = router.CommandTable("mutx")
    table.command("zrebind", rebinds=True)(_noop)
    table.command("zstay")(_other)
    assert [(c.names, c.rebinds) for c in table.commands()] == [
        (("zrebind",), True), (("zstay",), False)]


def test_find_strips_the_prefix_in_front_only() -> None:
    help_cmd = ROUTER.common.find("help")
    assert help_cmd is not None
    assert ROUTER.common.find(".help") is help_cmd
    assert ROUTER.common.find("/HELP") is help_cmd
    assert ROUTER.common.find("help.") is None
    assert ROUTER.common.find(" help") is None


def test_a_system_table_is_routed_once_added_and_no_longer_once_removed() -> None:
    try:
        table = router.CommandTable("mutz")
        table.command("zzmut")(_noop)
        ROUTER.add_table(table)
        cmd = table.find("zzmut")
        assert ROUTER.is_command("zzmut 1")
        assert ROUTER.resolve("zzmut 1", "mutz") == (cmd, "1")
        assert ROUTER.resolve("zzmut 1", "plurk") is None
        assert ROUTER.commands("mutz")[-1] is cmd
    finally:
        ROUTER.remove_table("mutz")
    assert not ROUTER.is_command("zzmut 1")
    assert ROUTER.resolve("zzmut 1", "mutz") is None
    ROUTER.remove_table("mutz")  # removing an unknown table is harmless
    assert ROUTER.commands("no-such-system") == ROUTER.common.commands()
    assert ROUTER.find("help", "no-such-system") is ROUTER.common.find("help")


def test_a_latin_name_must_end_the_word() -> None:
    assert ROUTER.is_command("ra觀察")
    assert ROUTER.is_command("rd20")
    assert not ROUTER.is_command("rab觀")  # `.ra` + a Latin letter: another word
    assert not ROUTER.is_command("rabbit")


PACKAGE = {
    "__init__.py": "from bot.router import command\n\n"
                   "@command('root', help_key='mutp.help.top', hidden=True)\n"
                   "async def root(ctx): return []\n",
    "b.py": "from bot.router import command\nfrom mutpkg.a import first\n\n"
            "@command('bee', 'B2', rebinds=True)\nasync def bee(ctx): return []\n\n"
            "def unmarked(ctx): return []\n",
    "a.py": "from bot.router import command\n\n"
            "@command('first')\nasync def first(ctx): return []\n\n"
            "@command('second', precheck=len)\nasync def second(ctx): return []\n",
    "sub/__init__.py": "",
    "sub/c.py": "from bot.router import command\n\n"
                "@command('deep')\nasync def deep(ctx): return []\n",
}


@pytest.fixture
def mutpkg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """A package written for the test and imported fresh, so that every step of
    reading its marks runs inside the test (the real tables are built at import)."""
    for name, text in PACKAGE.items():
        path = tmp_path / "mutpkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield importlib.import_module("mutpkg")
    for name in [m for m in sys.modules if m == "mutpkg" or m.startswith("mutpkg.")]:
        del sys.modules[name]


def test_a_mark_records_every_option_and_registers_nothing() -> None:
    async def handler(ctx: Context) -> list[Outgoing]:
        return []

    assert router.command("x", "y", help_key="k", precheck=_check, hidden=True,
                          rebinds=True)(handler) is handler
    assert getattr(handler, router.SPEC) == router.Spec(("x", "y"), "k", _check, True, True)
    router.command("z")(handler)
    assert getattr(handler, router.SPEC) == router.Spec(("z",), None, None, False, False)


def test_collect_reads_a_package_module_by_module_in_name_order(mutpkg: ModuleType) -> None:
    """Its own package first, then its modules by name (a, b, sub, sub.c), each in
    source order; a handler imported from another module is that module's."""
    table = router.CommandTable.collect("mutp", mutpkg)
    a, b = sys.modules["mutpkg.a"], sys.modules["mutpkg.b"]
    deep = sys.modules["mutpkg.sub.c"].deep
    assert table.owner == "mutp"
    assert table.commands() == [
        router.Command(("root",), mutpkg.root, "mutp.help.top", None, True, "mutp"),
        router.Command(("first",), a.first, "mutp.help.first", None, False, "mutp"),
        router.Command(("second",), a.second, "mutp.help.second", len, False, "mutp"),
        router.Command(("bee", "B2"), b.bee, "mutp.help.bee", None, False, "mutp", True),
        router.Command(("deep",), deep, "mutp.help.deep", None, False, "mutp"),
    ]
    assert table.names() == ["root", "first", "second", "bee", "b2", "deep"]
    assert table.match("b2 x") == (table.find("bee"), "x", 2)
    # a module alone: only its own marks
    assert [c.names for c in router.CommandTable.collect("mutp", b).commands()] == [("bee", "B2")]


def test_a_router_built_from_tables_routes_each_systems_own(mutpkg: ModuleType) -> None:
    common = router.CommandTable("core")
    common.command("bee")(_noop)
    own = router.CommandTable.collect("mutp", mutpkg)
    built = router.Router(common, [own])
    assert built.common is common
    assert built.is_command("deep 1") and built.is_command("b2") and not built.is_command("nope")
    assert built.resolve("deep 1", "mutp") == (own.find("deep"), "1")
    assert built.resolve("deep 1", "other") is None
    assert built.resolve("bee 1", "mutp") == (own.find("bee"), "1")
    assert built.resolve("bee 1", "other") == (common.find("bee"), "1")


# ---------- sixth run: what a router remembers, and the edges of a lookup
def test_a_name_added_to_a_routed_table_is_routed_at_once() -> None:
    """A router remembers its resolutions, but a name added to one of its tables
    afterwards (a table built in code, as an operator's own system is) is found by the
    very next message: every table's addition makes the router forget."""
    common = router.CommandTable("core")
    own = router.CommandTable("mutn")
    own.command("zfirst")(_noop)
    built = router.Router(common, [own])
    assert built.resolve("zlater 1", "mutn") is None  # remembered: no such command
    own.command("zlater")(_other)
    assert built.resolve("zlater 1", "mutn") == (own.find("zlater"), "1")
    common.command("zcommon")(_noop)
    assert built.resolve("zcommon 2", "mutn") == (common.find("zcommon"), "2")
    assert built.unambiguous("zcommon 2") == (common.find("zcommon"), "2")


def test_a_message_that_is_only_the_name_matches_it() -> None:
    """`.zq` alone (no argument) is the command, in the table's own match too."""
    table = router.CommandTable("mutx")
    table.command("zq")(_noop)
    assert table.match("ZQ") == (table.find("zq"), "", 2)
    assert table.match("z") is None


def test_unambiguous_with_no_system_or_one_system_routed() -> None:
    """With no system routed, every common command runs whatever the channel plays; with
    one, its own commands do too (there is no other system to run anything else)."""
    common = router.CommandTable("core")
    common.command("zc")(_noop)
    alone = router.Router(common)
    assert alone.unambiguous("zc 1") == (common.find("zc"), "1")
    own = router.CommandTable("muto")
    own.command("zown")(_other)
    one = router.Router(common, [own])
    assert one.unambiguous("zown 3") == (own.find("zown"), "3")
    assert one.unambiguous("zc 1") == (common.find("zc"), "1")


# --- a system known by its manifest (bot/systems/<package>/manifest.toml) -------------
def _declared_router() -> tuple[router.Router, list[str], router.CommandTable]:
    """A router with a common table and one system known by its names: the list grows
    by the owner each time the system's real table is loaded."""
    common = router.CommandTable("core")
    common.command("zc", "骰")(_noop)
    real = router.CommandTable("mutd")
    real.command("zown", "自")(_other)
    real.command("骰")(_other)
    loads: list[str] = []

    def load() -> router.CommandTable:
        loads.append("mutd")
        return real

    table = router.DeclaredTable("mutd", [("zown", "自"), ("骰",)], load)
    return router.Router(common, [table, router.CommandTable("mute")]), loads, real


def test_a_declared_table_routes_by_its_names_without_loading() -> None:
    built, loads, _ = _declared_router()
    assert built.is_command("zown 1") and built.is_command("自 1")
    assert not built.is_command("zownx")
    assert built.near_miss("zonw") == "zown"
    assert built.owners_of("自 3") == {"mutd": ("zown", "自")}
    assert built.owners_of("自") == {"mutd": ("zown", "自")}  # the name alone
    assert built.owners_of("zownx") == {}  # another word
    assert built.owners_of("zc") == {}
    assert built.unambiguous("zc 1") == (built.common.find("zc"), "1")
    assert built.unambiguous("骰 1") is None  # mutd has its own 骰, mute runs the common
    assert built.resolve("zown 1", "mute") is None
    assert built.resolve("zc 2", "mutd") == (built.common.find("zc"), "2")
    assert loads == []


def test_a_declared_table_loads_once_a_command_of_it_must_run_or_be_listed() -> None:
    built, loads, real = _declared_router()
    assert built.resolve("自 1", "mutd") == (real.find("zown"), "1")
    assert built.resolve("骰 2", "mutd") == (real.find("骰"), "2")
    assert built.commands("mutd")[-2:] == real.commands()
    assert built.find("zown", "mutd") is real.find("zown")
    assert loads == ["mutd"]  # the first use loaded it; the rest reuse it
    assert built.owners_of("zown") == {"mutd": ("zown", "自")}


def test_a_declared_table_listed_first_loads_for_help() -> None:
    built, loads, real = _declared_router()
    # the common `zc`/`骰` is shadowed: mutd has a `骰` of its own
    assert built.commands("mutd") == real.commands()
    assert loads == ["mutd"]


def test_a_declared_table_once_loaded_answers_as_its_real_table() -> None:
    """After the load every question goes to the real table: a command added to it
    (an operator's, at run time) is found, a message is matched by the real commands,
    and two names are one command by the real table's word."""
    real = router.CommandTable("mutd")
    real.command("zown", "自")(_other)
    loads: list[str] = []

    def load() -> router.CommandTable:
        loads.append("mutd")
        return real
    declared = router.DeclaredTable("mutd", [("zown", "自")], load)
    built = router.Router(router.CommandTable("core"), [declared])
    declared.add(router.Command(("zlate",), _noop, "mutd.help.zlate", owner="mutd"))
    assert loads == ["mutd"] and real.find("zlate") is not None
    assert declared.match("自 2") == (real.find("zown"), "2", 1)
    assert declared.canonical("自") == "zown"
    assert built.resolve("zlate", "mutd") == (real.find("zlate"), "")
