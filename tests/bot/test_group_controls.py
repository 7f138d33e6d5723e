"""Group controls through the real core (issue 25, item 5): `.bot on|off`, `.dismiss`,
`.ban` / `.unban`, and the per-user rate limit before any work."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from bot.core import Core
from bot.messages import Outgoing
from bot.rate_limit import GO, NOTICE, SILENT, RateLimiter
from tests.conftest import make_settings
from tests.support import Table, engines, visible

OFF = "我在本頻道關閉了：只回應 .bot on，期間遊戲日誌也不記錄。"
ON = "我在本頻道重新回應指令了。"
ONLY = "⚠ 只有本頻道的 GM 或群管理員可以這麼做。"


def said(outs: list[Outgoing]) -> list[str]:
    return [out.text for out in outs]


async def test_bot_off_silences_everything_but_bot_on(table: Table) -> None:
    await table.say("gina", ".gm")
    assert said(await table.say("gina", ".bot")) == [
        "我在本頻道回應指令。GM 或群管理員可以用 .bot off 關閉我。"]
    assert said(await table.say("bob", ".bot off")) == [ONLY]
    assert said(await table.say("gina", ".bot off")) == [OFF]
    # a command, a refusal of the text alone, a typo, a private one: not a word
    for text in (".r 1d20", ".r 99999d6", ".hlep", ".st 觀察 5", ".gm list", "。ｒ"):
        assert await table.say("bob", text) == [], text
    assert await table.say("bob", ".rh 1d20", is_private=True) == []
    assert said(await table.say("bob", ".bot")) == [
        "我在本頻道已關閉，只回應 GM 或群管理員的 .bot on。"]
    assert said(await table.say("bob", ".bot on")) == [ONLY]
    assert said(await table.say("gina", ".bot off")) == ["我在本頻道本來就是關閉的。"]
    assert said(await table.say("gina", ".bot on")) == [ON]
    assert said(await table.say("bob", ".r 1d20", dice=[7])) == ["🎲 bob：1d20 = [7] = 7"]
    # on already: silent, a `.bot on` in a group of several bots wakes another one
    assert await table.say("gina", ".bot on") == []
    assert await table.say("bob", ".bot on") == []
    assert said(await table.say("gina", ".bot up")) == [
        "⚠ 用法：.bot（查看我在這裡是否回應）、.bot on、.bot off"]


async def test_a_refusal_in_a_channel_turned_off_by_another_process_is_silence(
        tmp_path: Path) -> None:
    """A process that never saw the channel (its working set cold: another process
    turned it off) reads the controls from the store before it answers a refusal of
    the text alone — and stays silent."""
    settings = make_settings(tmp_path)
    first = await Core.open(settings)
    try:
        await Table(first).say("gina", ".gm")
        assert said(await Table(first).say("gina", ".bot off")) == [OFF]
    finally:
        await first.close()
    second = await Core.open(settings)
    try:
        for text in (".hlep", ".r 99999d6"):
            assert await Table(second).say("bob", text) == [], text
        await Table(second).say("gina", ".bot on")
        assert said(await Table(second).say("bob", ".hlep")) != []
    finally:
        await second.close()


async def test_off_is_per_channel(core: Core) -> None:
    one, two = Table(core, "one"), Table(core, "two")
    await one.say("gina", ".gm")
    await one.say("gina", ".bot off")
    assert await one.say("bob", ".r 1d20") == []
    assert said(await two.say("bob", ".r 1d20", dice=[3])) == ["🎲 bob：1d20 = [3] = 3"]


async def test_a_group_admin_has_a_gms_say_without_the_seat(table: Table) -> None:
    await table.say("gina", ".gm")
    assert said(await table.say("olga", ".bot off", channel_admin=True)) == [OFF]
    assert said(await table.say("olga", ".bot on", channel_admin=True)) == [ON]
    assert said(await table.say("olga", ".ban @bob", channel_admin=True)) == [
        "bob 已在本頻道被封禁：之後的指令一律忽略。"]
    # a channel without any GM: only the platform's admins
    fresh = Table(table.core, "fresh")
    assert said(await fresh.say("bob", ".bot off")) == [ONLY]
    assert said(await fresh.say("olga", ".bot off", channel_admin=True)) == [OFF]


async def test_the_game_log_pauses_while_off(table: Table) -> None:
    await table.say("gina", ".gm")
    await table.say("gina", ".log on 第一夜")
    await table.say("bob", "hello", kind="chatter")
    await table.say("gina", ".bot off")
    await table.say("bob", "said while off", kind="chatter")
    await table.say("bob", ".r 1d20")
    await table.say("gina", ".bot on")
    await table.say("bob", "back", kind="chatter")
    # .log on + reply, hello, .bot off + reply, .bot on + reply, back: nothing of what
    # was said or typed while off (.log off ends the log before it would be recorded)
    assert said(await table.say("gina", ".log off")) == [
        "📜 日誌「第一夜」已暫停，共 8 行。.log export 取得檔案。"]


async def test_ban_ignores_a_users_commands_silently(table: Table) -> None:
    await table.say("gina", ".gm")
    assert said(await table.say("gina", ".ban list")) == ["本頻道沒有人被封禁。"]
    assert said(await table.say("bob", ".ban @carl")) == [ONLY]
    assert said(await table.say("gina", ".ban @bob")) == [
        "bob 已在本頻道被封禁：之後的指令一律忽略。"]
    assert said(await table.say("gina", ".ban bob")) == ["bob 已經在本頻道被封禁了。"]
    for text in (".r 1d20", ".r 99999d6", ".hlep", ".bot", ".unban @bob"):
        assert await table.say("bob", text) == [], text
    assert said(await table.say("carl", ".ban list")) == [
        "本頻道封禁中（指令一律忽略）：bob"]
    assert said(await table.say("gina", ".ban @gina")) == [
        "⚠ gina 是本頻道的 GM，不能被封禁。"]
    assert said(await table.say("olga", ".ban olga", channel_admin=True)) == [
        "⚠ 不能封禁自己。"]
    assert said(await table.say("gina", ".ban two words")) == [
        "⚠ 用法：.ban @使用者、.unban @使用者、.ban list"]
    assert said(await table.say("gina", ".unban @carl")) == ["⚠ carl 在這裡沒有被封禁。"]
    assert said(await table.say("gina", ".unban @bob")) == ["bob 在本頻道解除封禁了。"]
    assert said(await table.say("bob", ".r 1d20", dice=[5])) == ["🎲 bob：1d20 = [5] = 5"]


async def test_a_gm_is_never_banned(table: Table) -> None:
    await table.say("gina", ".gm")
    await table.say("gina", ".ban @bob")
    await table.say("gina", ".gm add bob")  # made GM while on the list: the seat wins
    assert said(await table.say("bob", ".r 1d20", dice=[2])) == ["🎲 bob：1d20 = [2] = 2"]


async def test_dismiss_asks_then_says_goodbye_and_leaves(table: Table) -> None:
    await table.say("gina", ".gm")
    assert said(await table.say("bob", ".dismiss confirm")) == [ONLY]
    assert said(await table.say("gina", ".dismiss")) == [
        "要我退出這個群組嗎？請 GM 或群管理員輸入 .dismiss confirm 確認。"]
    goodbye = await table.say("gina", ".dismiss confirm")
    assert [(out.to, out.text, out.leave) for out in goodbye] == [
        ("channel", "再見！我退出了。（再次邀請時，我會保持關閉，直到有人輸入 .bot on。）", True)]
    assert goodbye[0].outbox_id is not None  # kept until the platform took it, leave too
    assert await table.say("bob", ".r 1d20") == []  # invited back: off until .bot on
    assert said(await table.say("gina", ".bot on")) == [ON]
    assert said(await table.say("gina", ".dismiss confirm", is_private=True)) == [
        "⚠ 私訊裡沒有可以退出的群組。"]


@pytest.mark.parametrize(("locale", "only", "off"), [
    ("en", "⚠ Only a GM of this channel or a group admin can do that.",
     "I am off in this channel now: I answer nothing but .bot on, and no game log "
     "records meanwhile."),
    ("zh-Hans", "⚠ 只有本频道的 GM 或群管理员可以这么做。",
     "我在本频道关闭了：只回应 .bot on，期间游戏日志也不记录。"),
])
async def test_controls_speak_the_tables_language(table: Table, locale: str, only: str,
                                                  off: str) -> None:
    await table.say("gina", ".gm")
    await table.say("gina", f".lang {locale}")
    assert said(await table.say("bob", ".ban @carl")) == [only]
    assert said(await table.say("gina", ".bot off")) == [off]


# --- the rate limit ---------------------------------------------------------------------

class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def limited(tmp_path: Path) -> Any:
    """A core whose users may send 3 commands at once, one more every 2 s, on a clock
    the test turns."""
    core = await Core.open(make_settings(tmp_path, rate={"burst": 3, "refill_seconds": 2}))
    clock = Clock()
    assert core.dispatcher.limiter is not None
    core.dispatcher.limiter.clock = clock
    yield core, clock
    await core.close()


async def test_a_flood_gets_one_notice_then_silence_until_the_bucket_refills(
        limited: Any) -> None:
    core, clock = limited
    qq = Table(core, "20000", platform="qq")
    for value in (1, 2, 3):
        assert said(await qq.say("bob", ".r 1d20", dice=[value])) == [
            f"🎲 bob：1d20 = [{value}] = {value}"]
    notice = ["bob，请慢一点：2 秒后我才会再回应你的指令。"]  # QQ speaks 简体
    assert said(await qq.say("bob", ".r 1d20")) == notice
    assert await qq.say("bob", ".r 1d20") == []
    assert await qq.say("bob", ".hlep") == []  # a refusal of the text costs a token too
    assert said(await qq.say("alice", ".r 1d20", dice=[9])) == ["🎲 alice：1d20 = [9] = 9"]
    assert await qq.say("bob", "just chatting") == []  # chatter is no command: free
    clock.now += 2  # one token back: one command, and the notice is not repeated
    assert said(await qq.say("bob", ".r 1d20", dice=[4])) == ["🎲 bob：1d20 = [4] = 4"]
    assert await qq.say("bob", ".r 1d20") == []
    clock.now += 6  # full again: a new flood earns a new notice
    for value in (5, 6, 7):
        await qq.say("bob", ".r 1d20", dice=[value])
    assert said(await qq.say("bob", ".r 1d20")) == notice


async def test_a_dropped_command_does_no_work(limited: Any) -> None:
    core, _clock = limited
    qq = Table(core, "20000", platform="qq")
    for value in (1, 2, 3):
        await qq.say("bob", ".st 觀察 5", dice=[value])
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)
    for engine in engines(core):
        event.listen(engine, "before_cursor_execute", count)
    try:
        assert len(await qq.say("bob", ".st 觀察 6", message_id="m1")) == 1  # the notice
        # it looked at the table's controls, known to the working set: no read, no write
        assert statements == ["BEGIN IMMEDIATE", "PRAGMA data_version"]
        statements.clear()
        assert await qq.say("bob", ".st 觀察 7", message_id="m2") == []
        assert statements == []  # the silent drop did nothing at all
    finally:
        for engine in engines(core):
            event.remove(engine, "before_cursor_execute", count)


async def test_the_console_is_never_limited(limited: Any) -> None:
    core, _clock = limited
    console = Table(core)
    for value in range(1, 8):
        assert visible(await console.say("bob", ".r 1d20", dice=[value])) == [
            ("channel", None, f"🎲 bob：1d20 = [{value}] = {value}", False)]


async def test_a_notice_in_a_channel_that_is_off_is_silence(limited: Any) -> None:
    core, _clock = limited
    qq = Table(core, "20000", platform="qq")
    await qq.say("gina", ".gm")
    await qq.say("gina", ".bot off")
    for _ in range(3):
        assert await qq.say("bob", ".r 1d20") == []
    assert await qq.say("bob", ".r 1d20") == []  # the notice, silenced


def test_the_limiters_memory_is_bounded_and_forgets_full_buckets() -> None:
    clock = Clock()
    limiter = RateLimiter(burst=2, refill_seconds=1, clock=clock, memory=3)
    for user in "abcde":
        assert limiter.take("qq", user) == GO
    assert len(limiter) == 3  # the least recently seen left first
    assert [limiter.take("qq", "e") for _ in range(3)] == [GO, NOTICE, SILENT]
    clock.now += 1
    assert limiter.take("qq", "x") == GO
    assert len(limiter) == 2  # c and d had filled up again: as good as none
    assert limiter.wait("qq", "e") == 1


def test_the_rate_is_a_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRPGBOT_RATE__BURST", "4")
    monkeypatch.setenv("TRPGBOT_RATE__REFILL_SECONDS", "0.5")
    settings = make_settings(tmp_path)
    assert (settings.rate.burst, settings.rate.refill_seconds) == (4, 0.5)
    monkeypatch.delenv("TRPGBOT_RATE__BURST")
    monkeypatch.delenv("TRPGBOT_RATE__REFILL_SECONDS")
    default = make_settings(tmp_path)
    assert (default.rate.burst, default.rate.refill_seconds) == (10, 2.0)


async def test_a_burst_of_0_turns_the_limit_off(tmp_path: Path) -> None:
    """`TRPGBOT_RATE__BURST=0`: no limit at all (docs/configuration.md), not a limit
    that drops everything."""
    core = await Core.open(make_settings(tmp_path, rate={"burst": 0, "refill_seconds": 2}))
    try:
        assert core.dispatcher.limiter is None
        qq = Table(core, "20000", platform="qq")
        for value in range(1, 13):
            assert said(await qq.say("bob", ".r 1d20", dice=[value])) == [
                f"🎲 bob：1d20 = [{value}] = {value}"]
    finally:
        await core.close()


async def test_an_answer_before_work_is_given_when_the_controls_cannot_be_read(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Reading a table's controls for a refusal of the text alone fails (the disk, the
    database): the refusal is given — a store that cannot say "off" does not silence
    the bot — and the failure is logged."""
    settings = make_settings(tmp_path)
    first = await Core.open(settings)
    try:
        await Table(first).say("gina", ".gm")
    finally:
        await first.close()
    core = await Core.open(settings)  # a new process: the controls are read from disk

    def failing(*_args: Any) -> None:
        raise sqlite3.OperationalError("disk I/O error")
    event.listen(core.writer.sync_engine, "before_cursor_execute", failing)
    try:
        with caplog.at_level(logging.ERROR, logger="bot.dispatcher"):
            assert said(await Table(core).say("bob", ".hlep")) == [
                "⚠ 沒有 .hlep 這個指令；是要 .help 嗎？"]
        assert "the group controls of a table could not be read" in caplog.text
    finally:
        event.remove(core.writer.sync_engine, "before_cursor_execute", failing)
        await core.close()
