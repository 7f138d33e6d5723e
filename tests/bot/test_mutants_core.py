"""Exact tests written from the surviving mutants of the `core` area (bot/core.py,
bot/router.py, bot/store/; see docs/testing.md, "Mutation testing"). Each test
names the behaviour a survivor showed untested; they stay fast (a real Core on
SQLite, no subprocess), because mutmut runs them for every mutant they reach."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import sqlite3
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, func, select
from sqlalchemy.orm.exc import StaleDataError

from bot import router, systems
from bot.config import Settings
from bot.context import Context
from bot.core import ACK_DELAY, MAX_INPUT, MAX_REPLY, Core
from bot.errors import CommandError
from bot.gamelog import book
from bot.messages import Incoming, Outgoing, PlatformDie
from bot.store import db
from bot.store.models import Character, OutboxMessage, PendingPrivate
from rules.dice.source import ScriptedSource
from rules.errors import RuleError
from rules.kits.game_system import GameSystem, Stat
from tests.conftest import make_settings
from tests.support import Table, stored_replies

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
    raise StaleDataError("another process changed the row")


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
    systems.register(systems.SystemPlugin(game, MUTT, verbs={"check": "zshared"}))
    game_u = GameSystem("mutu", ("變種",))
    systems.register(systems.SystemPlugin(game_u, MUTU))
    yield
    systems.unregister("mutt")
    systems.unregister("mutu")


@pytest.fixture
async def mutt_core(mutt: None, settings: Settings) -> AsyncIterator[Core]:
    core = await Core.open(settings)
    yield core
    await core.close()


async def _noop(ctx: Context) -> list[Outgoing]:
    return []


async def _other(ctx: Context) -> list[Outgoing]:
    return []


def _check(args: str) -> None:
    pass


# ------------------------------------------------------------------ router
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
    assert router.near_miss("sett") == "set"
    assert router.near_miss("helpp 1") == "help"
    assert router.near_miss("hwlp") == "help"
    assert router.near_miss("zzzzzz") is None


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


def test_find_strips_the_prefix_in_front_only() -> None:
    help_cmd = router.COMMON.find("help")
    assert help_cmd is not None
    assert router.COMMON.find(".help") is help_cmd
    assert router.COMMON.find("/HELP") is help_cmd
    assert router.COMMON.find("help.") is None
    assert router.COMMON.find(" help") is None


def test_a_system_table_is_created_once_routed_and_removed() -> None:
    try:
        table = router.system_table("mutz")
        assert table.owner == "mutz"
        assert router.system_table("mutz") is table
        table.command("zzmut")(_noop)
        cmd = table.find("zzmut")
        assert router.is_command("zzmut 1")
        assert router.resolve("zzmut 1", "mutz") == (cmd, "1")
        assert router.resolve("zzmut 1", "plurk") is None
        assert router.commands("mutz")[-1] is cmd
    finally:
        router.remove_table("mutz")
    assert not router.is_command("zzmut 1")
    assert router.resolve("zzmut 1", "mutz") is None
    router.remove_table("mutz")  # removing an unknown table is harmless
    assert router.commands("no-such-system") == router.COMMON.commands()
    assert router.find("help", "no-such-system") is router.COMMON.find("help")


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

    roll = router.COMMON.find("r")
    assert roll is not None
    monkeypatch.setitem(router.COMMON._by_name, "r", dataclasses.replace(roll, precheck=boom))
    await table.say("u", ".lang en")
    with caplog.at_level(logging.ERROR, logger="bot.core"):
        assert await table.say("u", ".r 1d6") == [Outgoing("channel", "table", (
            "⚠ An internal error occurred; nothing was changed. Please try again later "
            "or tell the operator."))]
    assert [r.getMessage() for r in caplog.records if r.name == "bot.core"] == [
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
        with caplog.at_level(logging.INFO, logger="bot.core"):
            assert await table.say("u", ".zstale") == [Outgoing("channel", "t", (
                "⚠ Another command changed the same data at the same time; this one had "
                "no effect. Please try again."))]
        # the writer tries a conflicting command once more before giving up
        assert [r.getMessage() for r in caplog.records if r.name == "bot.core"] == (
            ["a zstale command met a concurrent change: tried again"] if group_commit else [])
        caplog.clear()
        with caplog.at_level(logging.ERROR, logger="bot.core"):
            assert await table.say("u", ".zcrash") == [Outgoing("channel", "t", (
                "⚠ An internal error occurred; nothing was changed. Please try again "
                "later or tell the operator."))]
        assert [r.getMessage() for r in caplog.records if r.name == "bot.core"] == [
            "a zcrash command failed"]
    finally:
        await core.close()


async def test_a_failed_batch_commit_answers_the_internal_error(core: Core) -> None:
    assert core.writer is not None
    table = Table(core, "t")
    await table.say("u", ".lang en")

    def fail(conn: Any) -> None:
        raise OSError("disk full")

    event.listen(core.writer.engine.sync_engine, "commit", fail)
    try:
        assert await table.say("u", ".st 觀察 5") == [Outgoing("channel", "t", (
            "⚠ An internal error occurred; nothing was changed. Please try again "
            "later or tell the operator."))]
    finally:
        event.remove(core.writer.engine.sync_engine, "commit", fail)
    async with core.sessions() as session:  # nothing of the batch was stored
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
    monkeypatch.setattr("bot.core.ANSWERED_MEMORY", 2)
    for n in (1, 2, 3):
        await core.handle(Incoming("console", "t", "u", ".r 1", "u", message_id=f"m{n}"))
    assert list(core._answered) == [("console", "m2"), ("console", "m3")]
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


def test_a_latin_name_must_end_the_word() -> None:
    assert router.is_command("ra觀察")
    assert router.is_command("rd20")
    assert not router.is_command("rab觀")  # `.ra` + a Latin letter: another word
    assert not router.is_command("rabbit")


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
        assert core.writer is None
        assert await Table(core).text("u", ".r 1d6", dice=[3]) == "🎲 u：1d6 = [3] = 3"
    finally:
        await core.close()
    core = await Core.open(make_settings(tmp_path))
    try:
        assert core.writer is not None
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


# ------------------------------------------------------------------ services for adapters
async def test_an_undeliverable_private_message_is_kept_at_the_campaigns_table(
        core: Core) -> None:
    home, thread = Table(core, "t1"), Table(core, "t2")
    await home.say("k", ".gm", display_name="Keeper")
    await home.say("k", ".campaign bind c", display_name="Keeper")
    await thread.say("k", ".campaign bind c", display_name="Keeper")
    await home.say("k", ".lang en", display_name="Keeper")
    notice = await core.private_delivery_failed(
        "console", Outgoing("private", "t2", "the secret", user="k", secret=True))
    assert notice == [Outgoing("channel", "t2", (
        "Could not send a private message to Keeper (not a friend of the bot, or DMs "
        "closed). It is kept: add the bot as a friend, then type .gm pending."))]
    notice = await core.private_delivery_failed(
        "console", Outgoing("private", "t2", "bob's secret", user="bob", secret=True))
    assert [o.text for o in notice] == [(
        "Could not send a private message to bob (not a friend of the bot, or DMs "
        "closed). It is kept: add the bot as a friend, then type .gm pending.")]
    outs = await home.say("k", ".gm pending")
    assert [(o.to, o.user, o.text) for o in outs] == [
        ("channel", None, "Re-sent 1 private message(s)."), ("private", "k", "the secret")]
    with pytest.raises(AssertionError):
        await core.private_delivery_failed("console", Outgoing("channel", "t2", "x", user="k"))


async def test_a_delivered_reply_leaves_the_outbox_without_waiting_for_close(
        core: Core) -> None:
    outs = await core.handle(Incoming("console", "t", "u", ".r 1d6", "u"))
    await core.delivered(outs[0])
    await asyncio.sleep(ACK_DELAY * 3)
    assert await _outbox_rows(core) == 0


def _engines(core: Core) -> list[Any]:
    """The core's engines (its own, and the group-commit writer's)."""
    return [core.engine, *([core.writer.engine] if core.writer is not None else [])]


async def _outbox_rows(core: Core) -> int:
    async with core.sessions() as session:
        return await session.scalar(select(func.count()).select_from(OutboxMessage))


async def test_acknowledgements_survive_a_failed_deletion(
        core: Core, caplog: pytest.LogCaptureFixture) -> None:
    outs = [(await core.handle(Incoming("console", "t", "u", f".r 1d{faces}", "u")))[0]
            for faces in (6, 8, 4)]
    await core.delivered(outs[0])
    await core.delivered(outs[1])
    loop = asyncio.get_running_loop()
    failed: list[str] = []
    late: list[asyncio.Task[None]] = []

    def fail_once(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.startswith("DELETE FROM outbox") and not failed:
            failed.append(statement)
            late.append(loop.create_task(core.delivered(outs[2])))  # acked meanwhile
            raise OSError("disk gone")

    for engine in _engines(core):
        event.listen(engine.sync_engine, "before_cursor_execute", fail_once)
    with caplog.at_level(logging.ERROR, logger="bot.core"):
        await core.flush_acks()
    assert len(failed) == 1
    assert [r.getMessage() for r in caplog.records if r.name == "bot.core"] == [
        "could not remove 2 delivered replies from the outbox"]
    assert await _outbox_rows(core) == 3
    await asyncio.sleep(ACK_DELAY * 3)  # the grouped deletion after the last ack
    await core.flush_acks()
    assert await _outbox_rows(core) == 0


async def test_a_message_id_is_claimed_once_per_platform(core: Core) -> None:
    assert await core.claim_message("plurk", "m1") is True
    assert await core.claim_message("plurk", "m1") is False
    assert await core.claim_message("qq", "m1") is True
    # a claimed message is not run as a command, and a handled one cannot be claimed
    assert await core.handle(Incoming("plurk", "p", "1", ".r 1d6", "a", message_id="m1")) == []
    assert len(await core.handle(Incoming("plurk", "p", "1", ".r 1d6", "a",
                                          message_id="m2"))) == 1
    assert await core.claim_message("plurk", "m2") is False


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


# ------------------------------------------------------------------ the game log
def _log_files(outs: list[Outgoing]) -> dict[str, str]:
    return {o.attachment.filename: o.attachment.data.decode("utf-8")
            for o in outs if o.attachment is not None}


async def test_the_log_shows_display_names_and_the_bots_replies(table: Table) -> None:
    await table.say("k", ".gm")
    await table.say("k", ".log on 夜")
    await table.say("u1", "你好", display_name="Alice")
    await table.say("u1", ".r 1d6", dice=[4], display_name="Alice")
    public = _log_files(await table.say("k", ".log export 夜"))["夜.html"]
    assert '<span class="who">Alice</span>' in public
    assert '<span class="who">u1</span>' not in public
    assert public.count('<div class="line reply"><span class="who">🎲 骰子機器人</span>') == 2


async def test_the_gms_copy_names_the_recipient_of_each_private_line(table: Table) -> None:
    await table.say("k", ".gm", display_name="Keeper")
    await table.say("k", ".log on 夜", display_name="Keeper")
    await table.say("bob", ".rh 1d20", dice=[12], display_name="Bob")
    files = _log_files(await table.say("k", ".log export 夜", display_name="Keeper"))
    gm_copy = files["夜-gm.html"]
    # a GM by their display name; bob's own copy of his result is in no GM's copy
    assert gm_copy.count('<span class="who">🔒 私訊 Keeper</span>') == 1
    assert "🔒 私訊 bob" not in gm_copy and "🔒 私訊 Bob" not in gm_copy
    assert "🔒 私訊 k<" not in gm_copy
    assert "私訊" not in files["夜.html"]


async def test_private_and_unreadable_chatter_is_not_logged(table: Table) -> None:
    await table.say("k", ".gm")
    await table.say("k", ".log on 夜")
    assert await table.say("u", "私下的話", is_private=True) == []
    assert await table.say("u", "壞字\ud800") == []
    assert await table.say("u", "公開的話") == []
    public = _log_files(await table.say("k", ".log export 夜"))["夜.html"]
    assert "公開的話" in public
    assert "私下的話" not in public and "壞字" not in public


async def test_chatter_is_logged_without_group_commit(settings: Settings) -> None:
    core = await Core.open(settings, group_commit=False)
    try:
        table = Table(core)
        await table.say("k", ".gm")
        await table.say("k", ".log on 夜")
        assert await table.say("u", "閒聊一句") == []
        assert "閒聊一句" in _log_files(await table.say("k", ".log export 夜"))["夜.html"]
    finally:
        await core.close()


async def test_chatter_logged_by_a_process_without_group_commit_reaches_the_others_log(
        any_settings: Settings) -> None:
    """Chatter written by a process that commits alone tells the other processes (on
    PostgreSQL through ``store_epoch``): the one with a working set holding the same log
    neither loses that line nor its own next one."""
    grouped = await Core.open(any_settings)
    alone = await Core.open(any_settings, group_commit=False)
    try:
        await Table(grouped).say("k", ".gm")
        await Table(grouped).say("k", ".log on 夜")
        for core, line in ((grouped, "第一句"), (alone, "第二句"), (grouped, "第三句")):
            assert await Table(core).say("u", line) == []
        html = _log_files(await Table(grouped).say("k", ".log export 夜"))["夜.html"]
        assert [line for line in ("第一句", "第二句", "第三句") if line in html] == [
            "第一句", "第二句", "第三句"]
        assert html.index("第一句") < html.index("第二句") < html.index("第三句")
    finally:
        await alone.close()
        await grouped.close()


async def test_after_a_restart_chatter_finds_its_own_table(tmp_path: Path) -> None:
    """The table of chatter is looked up by platform *and* channel: other tables
    created before it (same platform, or same channel id) do not stand in for it."""
    settings = make_settings(tmp_path)
    first = await Core.open(settings)
    try:
        await Table(first, "a").say("u", ".r 1d6")  # console/a: the first table
        await Table(first, "b", platform="qq").say("1", ".r 1d6")  # qq/b before console/b
        logging_table = Table(first, "b")
        await logging_table.say("k", ".gm")
        await logging_table.say("k", ".log on 夜")
    finally:
        await first.close()
    again = await Core.open(settings)
    try:
        table = Table(again, "b")
        assert await table.say("u", "重啟後") == []
        assert "重啟後" in _log_files(await table.say("k", ".log export 夜"))["夜.html"]
    finally:
        await again.close()


def _count_statements(core: Core) -> list[str]:
    seen: list[str] = []

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    for engine in _engines(core):
        event.listen(engine.sync_engine, "before_cursor_execute", count)
    return seen


async def test_chatter_in_a_table_known_to_log_nothing_reads_nothing(core: Core) -> None:
    seen = _count_statements(core)
    unknown = Table(core, "never-seen")
    assert await unknown.say("u", "閒聊") == []  # learns: no such table
    seen.clear()
    assert await unknown.say("u", "再閒聊") == []
    assert seen == []
    quiet = Table(core, "quiet")
    await quiet.say("u", ".r 1d6")
    assert await quiet.say("u", "閒聊") == []
    seen.clear()
    assert await quiet.say("u", "再閒聊") == []
    assert seen == []


async def test_a_full_log_says_so_in_the_channels_language(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(book, "MAX_LINES", 4)
    await table.say("k", ".gm")
    await table.say("k", ".lang en")
    await table.say("k", ".log on 短")  # 2 lines: the command and its reply
    assert await table.say("u", "one") == []
    full = ("📜 The log “短” reached its limit of 4 lines and stopped; .log export keeps "
            "it, .log on <new name> starts another.")
    # a command and its reply would pass the cap: it is answered, and the log stops
    outs = await table.say("u", ".r 1d6", dice=[2])
    assert [(o.to, o.channel, o.text) for o in outs] == [
        ("channel", "table", "🎲 u: 1d6 = [2] = 2"), ("channel", "table", full)]
    await table.say("k", ".log on 短2")  # 2 lines again
    monkeypatch.setattr(book, "MAX_LINES", 2)
    outs = await table.say("u", "two")
    assert [(o.to, o.channel, o.text) for o in outs] == [(
        "channel", "table",
        "📜 The log “短2” reached its limit of 2 lines and stopped; .log export keeps "
        "it, .log on <new name> starts another.")]


async def test_a_chatter_line_that_cannot_be_logged_is_reported(
        table: Table, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    await table.say("k", ".gm")
    await table.say("k", ".log on 夜")

    async def broken(*args: object) -> None:
        raise OSError("disk gone")

    monkeypatch.setattr(table.core.logbook, "active", broken)
    with caplog.at_level(logging.ERROR, logger="bot.core"):
        assert await table.say("u", "閒聊") == []
    assert [r.getMessage() for r in caplog.records if r.name == "bot.core"] == [
        "a message could not be added to the game log"]


# ------------------------------------------------------------------ store
async def test_kept_private_messages_belong_to_the_table(core: Core) -> None:
    await Table(core, "t1").say("k", ".gm")
    await core.private_delivery_failed("console", Outgoing("private", "t1", "s", user="k"))
    async with core.sessions() as session:
        rows = list(await session.scalars(select(PendingPrivate)))
    assert [(r.user, r.text) for r in rows] == [("k", "s")]



# ------------------------------------------------------------------ the inline connection
# bot/store/inline.py: statements run at once in the loop's thread; BEGIN that must wait
# for another process's write lock, COMMIT (the fsync) and opening run in the writer's
# one worker thread, so the loop stays free meanwhile.
async def _inline(path: Path) -> Any:
    from bot.store.inline import InlineConnection

    conn = await InlineConnection.connect(str(path), db.PRAGMAS, timeout=30)
    threads: list[tuple[str, str]] = []
    conn._conn.set_trace_callback(
        lambda sql: threads.append((threading.current_thread().name.split("_")[0], sql)))
    return conn, threads


async def test_inline_statements_run_in_the_loop_and_commits_in_the_worker(
        tmp_path: Path) -> None:
    conn, threads = await _inline(tmp_path / "a.db")
    try:
        assert conn.isolation_level is None  # autocommit: every BEGIN is the writer's
        cursor = await conn.execute("CREATE TABLE t (x INTEGER)")
        await cursor.execute("begin immediate")  # any case: the lock-aware BEGIN
        assert conn.in_transaction
        await cursor.execute("INSERT INTO t VALUES (?)", (1,))
        await cursor.executemany("INSERT INTO t VALUES (?)", [(2,), (3,)])
        await cursor.execute("  commit")
        assert not conn.in_transaction
        await cursor.execute("INSERT INTO t VALUES (4)")  # no BEGIN: committed at once
        assert not conn.in_transaction
        assert conn.run("DELETE FROM t WHERE x > ?", (2,)) == 2
        rows = await (await conn.execute("SELECT x FROM t ORDER BY x")).fetchall()
        assert rows == [(1,), (2,)]
        assert conn.statements == 8
    finally:
        await conn.close()
    main = threading.current_thread().name.split("_")[0]
    where = {sql.split()[0].upper(): thread for thread, sql in threads
             if not sql.upper().startswith("PRAGMA")}
    assert where == {"CREATE": main, "BEGIN": main, "INSERT": main, "COMMIT": "sqlite-writer",
                     "DELETE": main, "SELECT": main}


async def test_inline_begin_waits_for_another_processs_lock_without_blocking_the_loop(
        tmp_path: Path) -> None:
    path = tmp_path / "b.db"
    conn, threads = await _inline(path)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("CREATE TABLE t (x INTEGER)")
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.01)

    ticker = asyncio.create_task(tick())
    try:
        begin = asyncio.create_task(conn.cursor().execute("BEGIN IMMEDIATE"))
        await asyncio.sleep(0.3)
        assert not begin.done() and ticks >= 10  # waiting, and the loop runs on
        other.execute("COMMIT")
        await asyncio.wait_for(begin, 5)
        assert conn.in_transaction
        await conn.cursor().execute("ROLLBACK")
        # the wait ran in the worker thread; the lock was asked for once at once first
        begins = [t for t, sql in threads if sql.startswith("BEGIN")]
        assert begins[-1] == "sqlite-writer"
        busy = [sql for _t, sql in threads if "busy_timeout" in sql]
        assert busy == ["PRAGMA busy_timeout = 0", "PRAGMA busy_timeout = 30000",
                        "PRAGMA busy_timeout = 30000"]
    finally:
        ticker.cancel()
        other.close()
        await conn.close()


async def test_inline_begin_inside_a_transaction_is_refused_not_retried(
        tmp_path: Path) -> None:
    conn, _threads = await _inline(tmp_path / "c.db")
    try:
        cursor = conn.cursor()
        await cursor.execute("BEGIN IMMEDIATE")
        with pytest.raises(sqlite3.OperationalError, match="within a transaction"):
            await cursor.execute("BEGIN IMMEDIATE")
        assert conn.in_transaction
    finally:
        await conn.close()
