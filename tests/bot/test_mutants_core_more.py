"""More exact tests of bot/core.py written from the surviving mutants of the `core`
area (see docs/testing.md, "Mutation testing"); the first ones are in
tests/bot/test_mutants_core.py. A real Core on SQLite, no mocks of our code."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from bot import router, systems
from bot.context import Context
from bot.core import Core, Run
from bot.messages import Incoming, Outgoing
from bot.store.models import GameLogLine
from rules.dice.source import ScriptedSource
from rules.errors import RuleError
from rules.kits.game_system import GameSystem
from tests.conftest import make_settings
from tests.support import Table

MUTQ = router.CommandTable("mutq")


@MUTQ.command("zqen")
async def _refuse_in_english_only(ctx: Context) -> list[Outgoing]:
    raise RuleError("mutq.only_english", n=2)


@pytest.fixture
def mutq() -> Iterator[None]:
    systems.register(systems.SystemPlugin(GameSystem("mutq", ("突q",)), MUTQ))
    yield
    systems.unregister("mutq")


# ------------------------------------------------------------------ a run
def test_a_run_resolved_early_knows_its_command_from_the_start() -> None:
    """A command found before the channel is read (the same in every system) is the
    run's command at once: its name is what a log of a failure names, and its hidden
    flag decides whether a refusal goes private."""
    roll = router.COMMON.find("r")
    assert roll is not None
    said = Incoming("console", "t", "u", ".r 1d6", "u")
    run = Run("r 1d6", (roll, "1d6"), said, ScriptedSource([]), "t")
    assert run.command is roll
    assert run.name == "r"
    later = Run("zq 1d6 and more words", None, said, ScriptedSource([]), "t")
    assert later.command is None
    assert later.name == "zq 1d6 and more word"  # the first 20 characters


# ------------------------------------------------------------------ locale
def test_a_channel_without_a_language_of_its_own_falls_back_to_its_platforms(
        core: Core) -> None:
    core.remember_locale("qq", "g", None)
    core.remember_locale("console", "c", None)
    assert core.cached_locale("qq", "g") == "zh-Hans"
    assert core.cached_locale("console", "c") == "zh-Hant"
    core.remember_locale("qq", "g", "en")
    assert core.cached_locale("qq", "g") == "en"


# ------------------------------------------------------------------ refusals
@pytest.fixture
async def english_only_core(mutq: None, tmp_path: Path) -> AsyncIterator[Core]:
    override = tmp_path / "messages.toml"
    override.write_text('[en]\n"mutq.error.only_english" = "Only in English: {n}"\n'
                        '"core.error.prefix" = "Error: {text}"\n', "utf-8")
    core = await Core.open(make_settings(tmp_path, messages_file=override))
    yield core
    await core.close()


async def test_a_rule_message_that_exists_in_one_language_only_is_used_there(
        english_only_core: Core) -> None:
    """An operator's message for a rule code in one language is the refusal in that
    language; in the others the code is named in the generic refusal."""
    table = Table(english_only_core)
    await table.say("gm", ".system mutq")
    assert await table.text("u", ".zqen") == "⚠ 無法處理（mutq.only_english）。"
    await table.say("u", ".lang en")
    assert await table.text("u", ".zqen") == "Error: Only in English: 2"


async def test_an_operators_error_prefix_applies_in_its_language_only(
        english_only_core: Core) -> None:
    """The prefix of every refusal is the channel's language's (an operator may change
    it for one language)."""
    table = Table(english_only_core)
    assert await table.text("u", ".sett") == "⚠ 沒有 .sett 這個指令；是要 .set 嗎？"
    await table.say("u", ".lang en")
    assert await table.text("u", ".sett") == (
        "Error: There is no .sett command; did you mean .set?")


# ------------------------------------------------------------------ the game log
async def test_the_log_stores_who_said_and_who_received_each_line(table: Table) -> None:
    """Each stored line keeps its kind, the user it came from or went to, and the
    name shown: a player's line their display name, the bot's replies no user and no
    name, a private line its recipient (the speaker or a GM by display name, anyone
    else by id)."""
    await table.say("k", ".gm", display_name="Keeper")
    await table.say("k", ".log on 夜", display_name="Keeper")
    await table.say("bob", ".rh 1d20", dice=[12], display_name="Bob")
    async with table.core.sessions() as session:
        rows = list(await session.scalars(select(GameLogLine).order_by(GameLogLine.id)))
    assert [(r.kind, r.user, r.name, r.text) for r in rows] == [
        ("said", "k", "Keeper", ".log on 夜"),
        ("reply", "", "", "📜 開始記錄日誌「夜」（目前 0 行）。.log off 暫停。"),
        ("said", "bob", "Bob", ".rh 1d20"),
        ("reply", "", "", "🎲 Bob 進行了一次暗骰。"),
        ("private", "bob", "Bob", "（暗骰）🎲 Bob：1d20 = [12] = 12"),
        ("private", "k", "Keeper", "（Bob 的暗骰）🎲 Bob：1d20 = [12] = 12"),
    ]
