"""The core (bot/core.py) with small test systems: refusals and their language, opening
a core, who is who, what it offers adapters, a run. Most were written from the
surviving mutants of the `core` area (see docs/testing.md, "Mutation testing"); each
names the behaviour a survivor showed untested; they stay fast (a real Core on SQLite,
no subprocess), because mutmut runs them for every mutant they reach."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, func, select
from sqlalchemy.exc import IntegrityError

from adapters.config import Settings
from bot import router, routes, systems
from bot.context import Context
from bot.core import Core
from bot.dispatcher import MAX_INPUT, MAX_REPLY, Moved, Run
from bot.errors import CommandError
from bot.messages import Incoming, Outgoing, PlatformDie
from bot.records import Gm
from bot.routes import router as _router
from bot.store import db, outbox
from bot.unit_of_work import UnitOfWork
from rules.dice.source import ScriptedSource
from rules.errors import RuleError
from rules.kits.game_system import GameSystem, Stat
from tests.conftest import make_settings
from tests.orm import Character, sessions
from tests.support import Table, stored_replies

ROUTER = _router()

# ------------------------------------------------------------------ test systems
# Two small systems, registered only by the fixtures below: one command each that
# the other system shares (`.zshared`), a hidden one, one that refuses with a rule
# code no catalog knows, and a verb for the adapters.
MUTT = router.CommandTable("mutt")
MUTU = router.CommandTable("mutu")


@MUTT.command("zshared")
async def _mutt_shared(ctx: Context) -> list[Outgoing]:
    return [ctx.reply(f"mutt {ctx.args}")]


@MUTU.command("zshared")
async def _mutu_shared(ctx: Context) -> list[Outgoing]:
    return [ctx.reply(f"mutu {ctx.args}")]


@MUTT.command("zhide", hidden=True)
async def _mutt_hidden(ctx: Context) -> list[Outgoing]:
    return [ctx.private(ctx.user, f"hidden {ctx.args}")]


@MUTT.command("zboom")
async def _mutt_boom(ctx: Context) -> list[Outgoing]:
    raise RuleError("mutt.no_such_code", value=3)


@MUTT.command("zstale")
async def _mutt_stale(ctx: Context) -> list[Outgoing]:
    # what the store raises when another process created the same row first
    raise IntegrityError("INSERT INTO characters …", {}, Exception("UNIQUE constraint failed"))


@MUTT.command("zwrite")
async def _mutt_write(ctx: Context) -> list[Outgoing]:
    ctx.channel.locale = "zh-Hans"  # a change, then a refusal: the change is undone
    raise CommandError("core.error.conflict")


@MUTT.command("zcrash")
async def _mutt_crash(ctx: Context) -> list[Outgoing]:
    raise RuntimeError("a bug")


@MUTT.command("zlong")
async def _mutt_long(ctx: Context) -> list[Outgoing]:
    return [ctx.reply("x" * (MAX_REPLY + 5), data={"n": 1}),
            ctx.reply("y" * MAX_REPLY), ctx.reply("z" * (MAX_REPLY + 1))]


@MUTT.command("set")  # shadows the common `.set` in a channel that plays mutt
async def _mutt_set(ctx: Context) -> list[Outgoing]:
    return [ctx.reply(f"mutt set {ctx.args}")]


@pytest.fixture
def mutt() -> Iterator[None]:
    game = GameSystem("mutt", ("突變",), stats=(Stat("膽量", "attribute"), Stat("運氣")))
    routes.register(systems.SystemPlugin(game, MUTT, verbs={"check": "zshared"}))
    game_u = GameSystem("mutu", ("變種",))
    routes.register(systems.SystemPlugin(game_u, MUTU))
    yield
    routes.unregister("mutt")
    routes.unregister("mutu")


@pytest.fixture
async def mutt_core(mutt: None, settings: Settings) -> AsyncIterator[Core]:
    core = await Core.open(settings)
    yield core
    await core.close()


# A third, on its own: a rule code only an operator's English message names.
MUTQ = router.CommandTable("mutq")


@MUTQ.command("zqen")
async def _refuse_in_english_only(ctx: Context) -> list[Outgoing]:
    raise RuleError("mutq.only_english", n=2)


@pytest.fixture
def mutq() -> Iterator[None]:
    routes.register(systems.SystemPlugin(GameSystem("mutq", ("突q",)), MUTQ))
    yield
    routes.unregister("mutq")


# ------------------------------------------------------------------ refusals
async def test_an_error_is_addressed_to_the_channel_in_its_language(table: Table) -> None:
    assert await table.say("u", ".sett") == [
        Outgoing("channel", "table", "⚠ 沒有 .sett 這個指令；是要 .set 嗎？")]
    await table.say("u", ".lang en")
    assert await table.say("u", ".sett") == [
        Outgoing("channel", "table", "⚠ There is no .sett command; did you mean .set?")]
    assert await table.say("u", "." + "x" * (MAX_INPUT + 1)) == [Outgoing(
        "channel", "table",
        f"⚠ Command too long ({MAX_INPUT + 1} characters, limit {MAX_INPUT}); not run.")]


async def test_early_refusals_are_in_the_channels_language(table: Table) -> None:
    await table.say("u", ".lang en")
    assert await table.say("u", ".r 1d6\ud800") == [Outgoing("channel", "table", (
        "⚠ The message holds characters that cannot be processed (unpaired surrogates); "
        "nothing was done. Please type it again."))]
    # refused by the command's precheck, before any work
    assert await table.text("u", ".r 1d0") == "⚠ A die needs at least 1 face (got 0)."
    assert await table.say("u", ".rh 1d0") == [Outgoing(
        "private", "table", "⚠ A die needs at least 1 face (got 0).", user="u", secret=True)]


async def test_a_command_of_exactly_the_input_limit_is_run(table: Table) -> None:
    await table.say("u", ".lang en")
    line = ".r 1d6 " + "x" * (MAX_INPUT - len("r 1d6 "))
    assert len(line) == MAX_INPUT + 1  # the body, without the prefix, is at the limit
    assert await table.text("u", line, dice=[4]) == f"🎲 u ({'x' * 994}): 1d6 = [4] = 4"


async def test_a_precheck_that_crashes_answers_the_internal_error(
        table: Table, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    def boom(args: str) -> None:
        raise RuntimeError("a bug in a precheck")

    roll = ROUTER.common.find("r")
    assert roll is not None
    monkeypatch.setitem(ROUTER.common._by_name, "r", dataclasses.replace(roll, precheck=boom))
    await table.say("u", ".lang en")
    with caplog.at_level(logging.ERROR, logger="bot.dispatcher"):
        assert await table.say("u", ".r 1d6") == [Outgoing("channel", "table", (
            "⚠ An internal error occurred; nothing was changed. Please try again later "
            "or tell the operator."))]
    assert [r.getMessage() for r in caplog.records if r.name == "bot.dispatcher"] == [
        "precheck of a r command failed"]


def test_each_platform_has_its_adapters_language(core: Core) -> None:
    assert core.platform_locale("qq") == "zh-Hans"  # the OneBot adapter's setting
    assert core.platform_locale("discord") == "zh-Hant"
    assert core.platform_locale("console") == "zh-Hant"
    assert core.platform_locale("no-such-platform") == "zh-Hant"


@pytest.mark.parametrize("group_commit", [True, False])
async def test_a_refused_command_keeps_the_channels_language(
        settings: Settings, group_commit: bool) -> None:
    core = await Core.open(settings, group_commit=group_commit)
    try:
        table = Table(core)
        await table.say("u", ".lang en")
        assert await table.text("u", ".pc switch nobody") == "⚠ No character named “nobody”."
        # the refusal must not reset the language the core remembers for the channel
        assert await table.text("u", "." + "x" * (MAX_INPUT + 1)) == (
            f"⚠ Command too long ({MAX_INPUT + 1} characters, limit {MAX_INPUT}); not run.")
    finally:
        await core.close()


@pytest.mark.parametrize("group_commit", [True, False])
async def test_a_conflict_and_a_crash_get_their_own_replies(
        mutt: None, settings: Settings, group_commit: bool,
        caplog: pytest.LogCaptureFixture) -> None:
    core = await Core.open(settings, group_commit=group_commit)
    try:
        table = Table(core, "t")
        await table.say("gm", ".system mutt")
        await table.say("gm", ".lang en")
        with caplog.at_level(logging.INFO, logger="bot.dispatcher"):
            assert await table.say("u", ".zstale") == [Outgoing("channel", "t", (
                "⚠ Another command changed the same data at the same time; this one had "
                "no effect. Please try again."))]
        # the writer tries a conflicting command once more before giving up
        assert [r.getMessage() for r in caplog.records if r.name == "bot.dispatcher"] == [
            "a zstale command met a concurrent change: tried again"]
        caplog.clear()
        with caplog.at_level(logging.ERROR, logger="bot.dispatcher"):
            assert await table.say("u", ".zcrash") == [Outgoing("channel", "t", (
                "⚠ An internal error occurred; nothing was changed. Please try again "
                "later or tell the operator."))]
        assert [r.getMessage() for r in caplog.records if r.name == "bot.dispatcher"] == [
            "a zcrash command failed"]
    finally:
        await core.close()


async def test_a_failed_batch_commit_answers_the_internal_error(core: Core) -> None:
    assert core.writer is not None
    table = Table(core, "t")
    await table.say("u", ".lang en")

    def fail(conn: Any) -> None:
        raise OSError("disk full")

    event.listen(core.writer.sync_engine, "commit", fail)
    try:
        assert await table.say("u", ".st 觀察 5") == [Outgoing("channel", "t", (
            "⚠ An internal error occurred; nothing was changed. Please try again "
            "later or tell the operator."))]
    finally:
        event.remove(core.writer.sync_engine, "commit", fail)
    async with sessions(core) as session:  # nothing of the batch was stored
        assert await session.scalar(select(func.count()).select_from(Character)) == 0


async def test_a_replayed_refusal_is_not_answered_again_without_group_commit(
        settings: Settings) -> None:
    core = await Core.open(settings, group_commit=False)
    try:
        said = Incoming("console", "t", "u", ".pc switch 無名", "u", message_id="m1")
        refusal = "⚠ 找不到名為「無名」的角色。"
        assert await core.handle(said) == [Outgoing("channel", "t", refusal, outbox_id=1)]
        assert await core.handle(said) == []
        assert [o.text for o in await stored_replies(core)] == [refusal]
        # without a message id there is nothing to remember: answered every time
        anonymous = Incoming("console", "t", "u", ".pc switch 無名", "u")
        assert await core.handle(anonymous) == [Outgoing("channel", "t", refusal)]
        assert await core.handle(anonymous) == [Outgoing("channel", "t", refusal)]
    finally:
        await core.close()


async def test_a_command_without_group_commit_is_stored_with_its_id_and_reply(
        settings: Settings) -> None:
    """Without the writer a command commits alone: its message id and its reply ride in
    its own transaction, so after a restart (the in-memory ids forgotten) the replay is
    still not answered, and the reply waits in the outbox until delivered."""
    said = Incoming("console", "t", "u", ".st 觀察 5", "u", message_id="m1")
    core = await Core.open(settings, group_commit=False)
    try:
        first = await core.handle(said)
        assert first == [Outgoing("channel", "t", "u 的數值已更新：觀察:5", outbox_id=1, data={
            "kind": "sheet", "character": "u", "stats": {"觀察": 5}})]
    finally:
        await core.close()
    core = await Core.open(settings, group_commit=False)
    try:
        assert await core.handle(said) == []
        assert await core.undelivered("console") == first
    finally:
        await core.close()


@pytest.mark.parametrize("group_commit", [True, False])
async def test_a_refusal_after_a_change_undoes_it_and_keeps_the_language(
        mutt: None, settings: Settings, group_commit: bool) -> None:
    """The change is undone, the refusal keeps the channel's language (also for the next
    refusal the core answers from memory), and without a message id it is not stored."""
    core = await Core.open(settings, group_commit=group_commit)
    try:
        table = Table(core, "t")
        await table.say("gm", ".system mutt")
        await table.say("gm", ".lang en")
        waiting = await stored_replies(core)
        assert await core.handle(Incoming("console", "t", "u", ".zwrite", "u")) == [
            Outgoing("channel", "t", "⚠ Another command changed the same data at the same "
                     "time; this one had no effect. Please try again.")]
        assert await stored_replies(core) == waiting
        assert await table.text("u", "." + "x" * (MAX_INPUT + 1)) == (
            f"⚠ Command too long ({MAX_INPUT + 1} characters, limit {MAX_INPUT}); not run.")
        # the channel's own language was restored by the undo
        assert await table.text("u", ".pc switch nobody") == "⚠ No character named “nobody”."
    finally:
        await core.close()


async def test_the_answered_ids_kept_in_memory_are_bounded_oldest_first(
        core: Core, monkeypatch: pytest.MonkeyPatch) -> None:
    """At most ANSWERED_MEMORY ids stay in memory, the oldest leaving first; an id that
    left is still refused by the store's unique key (the replay answered by no one)."""
    monkeypatch.setattr("bot.dispatcher.ANSWERED_MEMORY", 2)
    for n in (1, 2, 3):
        await core.handle(Incoming("console", "t", "u", ".r 1", "u", message_id=f"m{n}"))
    assert list(core.dispatcher._answered) == [("console", "m2"), ("console", "m3")]
    assert await core.handle(Incoming("console", "t", "u", ".r 1", "u", message_id="m1")) == []


async def test_a_rule_code_without_a_message_is_named_in_the_generic_refusal(
        mutt_core: Core) -> None:
    table = Table(mutt_core)
    await table.say("gm", ".system mutt")
    assert await table.say("u", ".zboom") == [
        Outgoing("channel", "table", "⚠ 無法處理（mutt.no_such_code）。")]
    await table.say("u", ".lang en")
    assert await table.text("u", ".zboom") == "⚠ Cannot do that (mutt.no_such_code)."


async def test_a_rule_refusal_is_in_the_channels_language(table: Table) -> None:
    await table.say("u", ".lang en")
    assert await table.text("u", ".r 1d0") == "⚠ A die needs at least 1 face (got 0)."


async def test_a_command_of_two_other_systems_names_both(mutt_core: Core) -> None:
    assert await Table(mutt_core).text("u", ".zshared 1") == (
        "⚠ .zshared 是 mutt、mutu 規則系統的指令；本頻道玩的是 plurk（可用 .system 切換）。")


async def test_a_hidden_command_of_one_system_refuses_public_emoticon_dice(
        mutt_core: Core) -> None:
    table = Table(mutt_core)
    await table.say("gm", ".system mutt")
    outs = await table.say("u", ".zhide (dice20)", dice=[],
                           platform_dice=(PlatformDie(20, 7, "(dice20)"),))
    assert [o.text for o in outs] == [
        "⚠ 噗浪骰的結果大家都看得到；暗骰或暗中檢定請讓機器人擲骰（不要附骰子表情）。"]
    outs = await table.say("u", ".zhide 1")
    assert [(o.to, o.user, o.text) for o in outs] == [("private", "u", "hidden 1")]


async def test_a_long_reply_is_cut_to_the_limit(mutt_core: Core) -> None:
    table = Table(mutt_core, "t")
    await table.say("gm", ".system mutt")
    outs = await table.say("u", ".zlong")
    assert [(o.to, o.channel, o.text, o.data) for o in outs] == [
        ("channel", "t", "x" * (MAX_REPLY - 1) + "…", {"n": 1}),
        ("channel", "t", "y" * MAX_REPLY, None),  # exactly at the limit: kept whole
        ("channel", "t", "z" * (MAX_REPLY - 1) + "…", None)]


async def test_a_systems_own_command_wins_over_a_common_one_of_the_same_name(
        mutt_core: Core) -> None:
    mutt, plurk = Table(mutt_core, "m"), Table(mutt_core, "p")
    await mutt.say("gm", ".system mutt")
    assert await mutt.text("u", ".set 20") == "mutt set 20"
    assert await plurk.text("u", ".set 20") == "本頻道 .r 的預設骰子改為 d20。"


async def test_a_resource_usage_refusal_names_the_command_typed(table: Table) -> None:
    await table.say("u", ".st 體力 10 理智 50")
    assert await table.text("u", ".hp -1 -2") == "⚠ 用法：.hp [-N|+N|=N] [角色|@玩家]"
    assert await table.text("u", ".san =abc") == (
        "⚠ 看不懂數量「=abc」。用法：.san [-N|+N|=N] [角色|@玩家]")


async def test_the_same_channel_id_on_two_platforms_is_two_tables(core: Core) -> None:
    qq, console = Table(core, "x", platform="qq"), Table(core, "x")
    await qq.say("1", ".st 觀察 5")
    # QQ answers in the OneBot adapter's language (zh-Hans by default)
    assert await qq.text("1", ".sett") == "⚠ 没有 .sett 这个指令；是要 .set 吗？"
    assert await qq.text("1", ".pc") == "目前使用的角色：1"
    assert await console.text("1", ".pc") == "你在本頻道還沒有角色。用 .pc new <名字> 建立。"


async def test_the_platform_dice_note_lists_each_die_in_the_channels_language(
        table: Table) -> None:
    await table.say("u", ".lang en")
    dice = (PlatformDie(20, 7, "(dice20)"), PlatformDie(6, 2, ""))
    outs = await table.say("u", ".r (dice20)+(dice6)", dice=[], platform_dice=dice)
    assert [o.text for o in outs] == [
        "🎲 u: 1d20+1d6 = [7]+[2] = 9\n"
        "(the player's own Plurk dice were used: (dice20) 7, (dice6) 2)"]


# ------------------------------------------------------------------ opening a core
async def test_the_dice_given_to_the_core_roll_every_command(settings: Settings) -> None:
    core = await Core.open(settings, dice=ScriptedSource([5, 2]))
    try:
        assert await Table(core).text("u", ".r 1d6") == "🎲 u：1d6 = [5] = 5"
        # emoticon dice come first; the core's own dice roll the rest
        outs = await core.handle(Incoming("console", "table", "u", ".r (dice20)+1d6", "u",
                                          platform_dice=(PlatformDie(20, 7, "(dice20)"),)))
        assert [o.text for o in outs] == [
            "🎲 u：1d20+1d6 = [7]+[2] = 9\n（使用了玩家自己的噗浪骰：(dice20) 7）"]
    finally:
        await core.close()


async def test_an_operators_message_file_changes_the_replies(tmp_path: Path) -> None:
    override = tmp_path / "messages.toml"
    override.write_text('[zh-Hant]\n"core.roll.result" = "骰：{detail}"\n', "utf-8")
    core = await Core.open(make_settings(tmp_path, messages_file=override))
    try:
        assert await Table(core).text("u", ".r 1d6", dice=[3]) == "骰：1d6 = [3] = 3"
    finally:
        await core.close()


class _SettingsWithoutGroupCommit(Settings):
    group_commit: bool = False


async def test_group_commit_follows_the_settings_attribute(tmp_path: Path) -> None:
    core = await Core.open(_SettingsWithoutGroupCommit(_env_file=None, data_dir=tmp_path))
    try:
        assert core.writer.cap == 1  # every command commits alone
        assert await Table(core).text("u", ".r 1d6", dice=[3]) == "🎲 u：1d6 = [3] = 3"
    finally:
        await core.close()
    core = await Core.open(make_settings(tmp_path))
    try:
        assert core.writer.cap == 200
    finally:
        await core.close()


async def test_the_writer_connects_with_the_databases_credentials(settings: Settings) -> None:
    engine = db.make_engine("postgresql+asyncpg://bot:s3cret@db.invalid:5432/trpg")
    core = Core(settings, engine)  # nothing connects until a command runs
    try:
        assert core.writer is not None
        url = core.writer.engine.url
        assert (url.username, url.password, url.host, url.database) == (
            "bot", "s3cret", "db.invalid", "trpg")
    finally:
        await core.writer.engine.dispose()
        await engine.dispose()


# ------------------------------------------------------------------ who is who
def test_user_ids_are_positive_numbers_on_numeric_platforms(core: Core) -> None:
    assert core.is_user_id("qq", "1")
    assert not core.is_user_id("qq", "0")
    assert not core.is_user_id("discord", "１２")  # full-width digits
    assert not core.is_user_id("plurk", "-5")
    assert core.is_user_id("console", "X")
    assert core.is_user_id("console", "a0")
    assert not core.is_user_id("console", "000")
    core.set_bot_id("qq", "42")
    assert not core.is_user_id("qq", "42")
    assert core.is_user_id("discord", "42")


# ------------------------------------------------------------------ what adapters ask
async def test_stat_names_put_the_active_sheet_first_then_the_system(
        mutt_core: Core) -> None:
    core = mutt_core
    plurk_stats = [s.name for s in systems.get("plurk").game.stats]
    table = Table(core, "t")
    await table.say("u", ".st 觀察 5 自訂 3")
    assert await core.stat_names("console", "t", "u") == [
        "觀察", "自訂", *(n for n in plurk_stats if n != "觀察")]
    assert await core.stat_names("console", "t", "v") == plurk_stats  # no sheet
    assert await core.stat_names("console", "unknown", "u") == plurk_stats  # no table
    await table.say("u", ".pc new 其他")  # the new sheet is active, and empty
    assert await core.stat_names("console", "t", "u") == plurk_stats
    # another platform's channel of the same id is another table
    other = Table(core, "t", platform="qq")
    await other.say("1", ".gm")
    await other.say("1", ".system mutt")
    await other.say("1", ".st 運氣 4 手氣 1")
    assert await core.stat_names("qq", "t", "1") == ["運氣", "手氣", "膽量"]
    assert await core.stat_names("console", "t", "1") == plurk_stats
    # a bound thread reads its campaign's table
    await other.say("1", ".campaign bind c")
    await Table(core, "t9", platform="qq").say("1", ".campaign bind c")
    assert await core.stat_names("qq", "t9", "1") == ["運氣", "手氣", "膽量"]


async def test_an_adapter_verb_follows_the_table_of_the_channel(mutt_core: Core) -> None:
    core = mutt_core
    qq = Table(core, "x", platform="qq")
    await qq.say("1", ".system mutt")  # the first row with key "x" plays mutt
    await Table(core, "x").say("u", ".gm")  # console's "x" plays the default
    assert await core.verb_command("qq", "x", "check") == "zshared"
    assert await core.verb_command("console", "x", "check") == "ra"
    # a thread bound to a campaign plays the campaign's system
    bound = Table(core, "y")
    await bound.say("u", ".gm")
    await bound.say("u", ".campaign bind c")
    await bound.say("u", ".system mutt")
    assert await core.verb_command("console", "y", "check") == "zshared"
    # a verb no system has is passed on as it is
    assert await core.verb_command("console", "y", "no-such-verb") == "no-such-verb"


# ------------------------------------------------------------------ a run
def test_a_run_resolved_early_knows_its_command_from_the_start() -> None:
    """A command found before the channel is read (the same in every system) is the
    run's command at once: its name is what a log of a failure names, and its hidden
    flag decides whether a refusal goes private."""
    roll = ROUTER.common.find("r")
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


# ------------------------------------------------------------------ refusals in one language only
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


# ------------------------------------------------------------------ services for adapters
async def test_a_table_read_outside_any_command_has_its_gms_by_id_and_name(
        table: Table) -> None:
    await table.say("k", ".gm", display_name="Keeper")

    async def gms(uow: UnitOfWork) -> list[Gm]:
        return uow.channel.gms
    assert await table.core.read_table("console", "table", gms) == [Gm("k", "Keeper")]
    assert await table.core.read_table("console", "never-used", gms) is None


async def test_an_undeliverable_private_message_is_told_in_the_platforms_language(
        core: Core) -> None:
    """A table that never picked a language speaks its platform's (qq: zh-Hans)."""
    await Table(core, "900", platform="qq").say("1", ".gm", display_name="Keeper")
    notice = await core.private_delivery_failed(
        "qq", Outgoing("private", "900", "the secret", user="1", secret=True))
    assert [o.text for o in notice] == [
        "无法私讯 Keeper（可能尚未加机器人好友或关闭了私讯）。"
        "内容已保留，加好友后请输入 .gm pending 取回。"]


async def test_a_command_that_fails_before_reading_its_table_answers_in_its_language(
        core: Core) -> None:
    """The language the channel last answered in (here its own, not its platform's)."""
    table = Table(core, "900", platform="qq")
    await table.say("1", ".lang en")
    core.writer.cache.clear()  # the table is read again…

    def fail(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if "FROM channels" in statement:
            raise OSError("disk gone")  # …and that read fails
    event.listen(core.writer.sync_engine, "before_cursor_execute", fail)
    try:
        assert await table.text("1", ".r 1d6") == (
            "⚠ An internal error occurred; nothing was changed. Please try again "
            "later or tell the operator.")
    finally:
        event.remove(core.writer.sync_engine, "before_cursor_execute", fail)


# ------------------------------------------------------------------ sixth run
async def test_a_stored_replys_trust_window_counts_from_before_its_command_ran(
        core: Core, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reply's lease began inside the command, so this core trusts its claim for
    LEASE - MARGIN from *before* the command ran — a slow command must not stretch the
    window past the lease. Past the window, the claim is confirmed in the store."""
    handle = core.dispatcher.handle

    async def slow(incoming: Incoming, dice: Any = None) -> list[Outgoing]:
        outs = await handle(incoming, dice)
        await asyncio.sleep(0.5)
        return outs
    monkeypatch.setattr(core.dispatcher, "handle", slow)
    before = time.monotonic()
    [out] = await core.handle(Incoming("console", "t", "u", ".r 1d6", "u"))
    assert out.outbox_id is not None
    trusted = outbox.LEASE - outbox.MARGIN
    assert before + trusted <= core.claims.valid_until < before + 0.5 + trusted
    core.claims.valid_until = 0.0  # the window is past: the store says whose it is
    assert await core.holds(out) is True


def test_a_channel_of_no_known_system_plays_the_default_one(core: Core) -> None:
    default = systems.plugins()[core.default_system].game
    assert core.system_of_id(None) is default
    assert core.system_of_id("no-such-system") is default


async def test_a_new_channel_speaks_its_platforms_language(core: Core) -> None:
    """Before a channel picks a language, both the refusals that cost nothing and a
    command's own replies are in its platform's (qq: zh-Hans)."""
    assert core.cached_locale("qq", "901") == "zh-Hans"
    table = Table(core, "901", platform="qq")
    assert await table.text("1", ".pc switch 无名") == "⚠ 找不到名为「无名」的角色。"


MUTL = router.CommandTable("mutl")


@MUTL.command("zlay", "zl2")
async def _mutl_lay(ctx: Context) -> list[Outgoing]:
    return [ctx.reply("laid")]


@pytest.fixture
def mutl() -> Iterator[None]:
    """A layer of ap20 (as v6 is), registered for one test."""
    routes.register(systems.SystemPlugin(GameSystem("mutl", ("突l",)), MUTL,
                                         layer_of=("ap20",)))
    yield
    routes.unregister("mutl")


async def test_a_layers_command_at_its_base_says_how_to_add_the_layer(
        mutl: None, core: Core) -> None:
    """`.zl2` in a channel that plays ap20 with another layer: the command is a layer of
    the channel's base, so the refusal names the `.system` that adds it (by the
    command's first name)."""
    table = Table(core, "t")
    await table.say("gm", ".system ap20+v6")
    assert await table.text("u", ".zl2 x") == (
        "⚠ .zlay 是 mutl 規則系統的指令；本頻道玩的是 ap20+v6。"
        "要用 mutl 的 .zlay：.system ap20+mutl")
    await table.say("gm", ".system ap20+mutl")
    assert await table.text("u", ".zl2 x") == "laid"


async def test_a_layer_is_played_once(mutl: None, core: Core) -> None:
    """Play-test finding: `.system ap20+v6+v6` was taken (“ap20 + v6 positioning + v6
    positioning”); a layer named twice is no system, whatever the other layers."""
    table = Table(core, "t")
    await table.say("gm", ".gm")
    for twice in ("ap20+v6+v6", "ap20+mutl+v6+mutl"):
        assert (await table.text("gm", f".system {twice}")).startswith(
            f"⚠ 沒有「{twice}」這個規則系統。"), twice
        assert systems.get(twice) is None and systems.declared_of(twice) is None
    assert (await table.text("gm", ".system ap20+v6+mutl")).startswith(
        "本頻道的規則系統改為 ap20+v6+mutl")


async def test_a_channel_moved_three_times_while_its_command_waits_is_a_conflict(
        core: Core, monkeypatch: pytest.MonkeyPatch) -> None:
    """A command follows its channel to the table it now plays, three times; then it
    gives up with the conflict reply (in the channel's language) instead of chasing it
    for ever."""
    tried: list[str] = []

    async def moving(run: Run) -> list[Outgoing]:
        tried.append(run.table)
        raise Moved(f"campaign-{len(tried)}")
    monkeypatch.setattr(core.dispatcher, "_run", moving)
    assert await Table(core, "902", platform="qq").say("1", ".r 1d6") == [Outgoing(
        "channel", "902", "⚠ 同时有其他指令修改了相同数据，这次的指令没有生效，请再试一次。")]
    assert tried == ["902", "campaign-1", "campaign-2"]


async def test_a_command_at_a_table_known_to_log_nothing_reads_no_log(core: Core) -> None:
    """Once a table is known to run no log, its next commands (their table read again
    from the store) do not read its logs."""
    table = Table(core, "t")
    await table.say("u", ".r 1d6")
    core.writer.cache.clear()
    seen: list[str] = []

    def record(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)
    event.listen(core.writer.sync_engine, "before_cursor_execute", record)
    try:
        await table.say("u", ".r 1d6")
    finally:
        event.remove(core.writer.sync_engine, "before_cursor_execute", record)
    assert any("FROM channels" in s for s in seen)  # the table was read again…
    assert not any("FROM game_logs" in s for s in seen)  # …its logs were not


async def test_chatter_follows_its_channel_three_times_then_is_dropped(
        core: Core, monkeypatch: pytest.MonkeyPatch) -> None:
    """Chatter follows its channel's moves as a command does (three tables), then is
    dropped rather than chased."""
    tried: list[str] = []

    async def moving(work: Any) -> Any:
        tried.append(work.keywords["table"])
        raise Moved(f"campaign-{len(tried)}")
    monkeypatch.setattr(core.writer, "run", moving)
    assert await Table(core, "t").say("u", "just talking") == []
    assert tried == ["t", "campaign-1", "campaign-2"]


async def test_the_table_locks_are_bounded_and_a_held_one_is_never_dropped(
        core: Core, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 23: the table locks grew without bound. Beyond LOCKS the least recently
    used lock nobody holds leaves; a held one (a command runs at its table) stays, and
    so does the one just made even when every other is held."""
    monkeypatch.setattr("bot.dispatcher.LOCKS", 2)
    locks = core.dispatcher
    a = locks.lock("console", "a")
    b = locks.lock("console", "b")
    assert locks.lock("console", "a") is a and locks.lock("console", "b") is b  # 2: kept
    async with a:
        c = locks.lock("console", "c")  # a is held, b the oldest idle one: b leaves
        assert locks.lock("console", "a") is a and locks.lock("console", "c") is c
        assert locks.lock("console", "b") is not b  # made anew; c, idle, left for it
        async with locks.lock("console", "b"):
            d = locks.lock("console", "d")  # every other lock held: d is kept
            assert locks.lock("console", "d") is d


async def test_a_gms_display_name_is_read_back_after_a_restart(settings: Settings) -> None:
    """A table read from the store (a new process) names its GMs as they were seated."""
    first = await Core.open(settings)
    try:
        await Table(first).say("k", ".gm", display_name="Keeper")
    finally:
        await first.close()
    again = await Core.open(settings)
    try:
        assert await Table(again).text("alice", ".gm list") == "本頻道的 GM：Keeper"
    finally:
        await again.close()
