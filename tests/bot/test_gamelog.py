"""`.log`: the game log records chatter, commands and replies; secrets only in the
GM's copy; it survives a restart, caps its size, and exports escaped HTML/Markdown."""

from __future__ import annotations

import asyncio
import logging
import re
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, select

from adapters.config import Settings
from bot.core import Core
from bot.gamelog import book
from bot.messages import Outgoing
from bot.unit_of_work import UnitOfWork
from tests.conftest import make_settings
from tests.orm import GameLogLine, sessions
from tests.support import Table, engines
from tests.support import attached_files as _files


async def _session(table: Table) -> None:
    await table.say("gm", ".gm")
    assert await table.text("gm", ".log on 第一夜") == (
        "📜 開始記錄日誌「第一夜」（目前 0 行）。.log off 暫停。")
    assert await table.say("alice", "我推開門 <b>看看</b> [link](http://x.y)") == []
    await table.say("alice", ".r 1d20+2 開門", dice=[15])
    await table.say("bob", ".rh 1d100", dice=[42])


async def test_log_records_chatter_commands_and_replies_and_exports_two_copies(
        table: Table) -> None:
    await _session(table)
    assert await table.text("gm", ".log off") == (
        "📜 日誌「第一夜」已暫停，共 7 行。.log export 取得檔案。")  # the players' copy
    assert await table.say("alice", "這句不記錄") == []
    assert await table.text("alice", ".log export") == "⚠ 只有本頻道的 GM 可以這麼做。"
    outs = await table.say("gm", ".log export")
    files = _files(outs)
    assert sorted(files) == ["第一夜-gm.html", "第一夜.html"]
    public_out, public = files["第一夜.html"]
    gm_out, gm = files["第一夜-gm.html"]
    assert public_out.to == "channel" and public_out.text == (
        "📜 日誌「第一夜」（7 行）。暗骰結果只在 GM 版裡。")  # not the 2 private lines
    assert gm_out.to == "private" and gm_out.user == "gm" and gm_out.secret
    # the players' copy: chatter (escaped), the public roll, the notice of the hidden one
    assert "我推開門 &lt;b&gt;看看&lt;/b&gt; [link](http://x.y)" in public
    assert "<b>看看</b>" not in public
    assert ".r 1d20+2 開門" in public and "= 17" in public
    assert ".rh 1d100" in public and "[42]" not in public
    assert "這句不記錄" not in public and "<p>.log off</p>" not in public
    # the GM's copy adds the private result the GM was sent (bob's own copy of it is
    # bob's: a copy holds what its reader was sent)
    assert "1d100 = [42] = 42" in gm and "🔒 私訊 gm" in gm and "🔒 私訊 bob" not in gm
    assert public.count('class="line said"') == 4 and gm.count('class="line said"') == 4
    assert public.count('class="line private"') == 0
    assert gm.count('class="line private"') == 1
    assert "http" not in re.sub(r"\[link\]\(http://x\.y\)", "", public)  # no live link


async def test_markdown_export_escapes_markup(table: Table) -> None:
    await _session(table)
    await table.say("mallory", "# 標題 *粗* @everyone")
    files = _files(await table.say("gm", ".log export 第一夜 md"))
    text = files["第一夜.md"][1]
    assert text.startswith("# 遊戲日誌：第一夜\n")
    assert "\\# 標題 \\*粗\\* @everyone" in text
    assert "\n# 標題" not in text


async def test_the_log_survives_a_restart(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    first = await Core.open(settings)
    await _session(Table(first))
    await first.close()
    again = Table(await Core.open(settings))
    try:
        await again.say("carol", "重啟後的發言")
        assert await again.text("gm", ".log list") == "這張桌子的日誌：\n• 第一夜：8 行 （記錄中）"
        files = _files(await again.say("gm", ".log export"))
        assert "重啟後的發言" in files["第一夜.html"][1]
    finally:
        await again.core.close()


async def test_only_gms_turn_the_log_on_and_off_once_there_is_one(table: Table) -> None:
    await table.say("gm", ".gm")
    assert await table.text("alice", ".log on") == "⚠ 只有本頻道的 GM 可以這麼做。"
    assert await table.text("gm", ".log list") == "這張桌子還沒有日誌；.log on 開始記錄。"
    assert await table.text("gm", ".log off") == "⚠ 目前沒有在記錄日誌；.log on 開始記錄。"
    assert await table.text("gm", ".log export") == "⚠ 這張桌子還沒有日誌；.log on 開始記錄。"
    assert await table.text("gm", ".log export 無此名") == (
        "⚠ 沒有名為「無此名」的日誌；.log list 列出全部。")


async def test_a_log_that_reaches_its_cap_stops_and_says_so(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(book, "MAX_LINES", 4)
    await table.text("gm", ".log on 短")  # 2 lines: the command and its reply
    assert await table.say("alice", "一") == []
    assert await table.say("alice", "二") == []  # 4 lines: full
    outs = await table.say("alice", "三")
    assert [o.text for o in outs] == [
        "📜 日誌「短」已達上限 4 行並停止記錄；.log export 可匯出，.log on <新名稱> 開始另一份。"]
    assert await table.say("alice", "四") == []  # stopped: nothing more, no more notices
    assert await table.text("gm", ".log list") == "這張桌子的日誌：\n• 短：4 行 （已滿）"
    assert await table.text("gm", ".log on 短") == (
        "⚠ 日誌「短」已滿；用 .log on <新名稱> 開始另一份。")


async def test_chatter_costs_nothing_while_no_log_runs(table: Table) -> None:
    await table.say("gm", ".r 1d6", dice=[3])
    await table.say("alice", "閒聊")  # learns the table logs nothing
    writer, table.core.writer = table.core.writer, None
    try:
        assert await table.say("alice", "再閒聊") == []
    finally:
        table.core.writer = writer


async def test_a_replayed_chat_message_is_logged_once(table: Table) -> None:
    await table.text("gm", ".log on")
    await table.say("alice", "只說一次", message_id="m1")
    await table.say("alice", "只說一次", message_id="m1")
    files = _files(await table.say("gm", ".log export"))
    (name,) = [n for n in files if not n.endswith("-gm.html")]
    assert files[name][1].count("只說一次") == 1


async def test_the_html_page_is_self_contained(table: Table) -> None:
    await table.text("gm", ".log on")
    await table.say("alice", "<script src=x></script><img src=http://evil/x.png>")
    files = _files(await table.say("gm", ".log export"))
    (page,) = [text for name, (_, text) in files.items() if not name.endswith("-gm.html")]
    typed = "&lt;script src=x&gt;&lt;/script&gt;&lt;img src=http://evil/x.png&gt;"
    assert page.startswith("<!DOCTYPE html>") and "<style>" in page and typed in page
    rest = page.replace(typed, "")
    for outside in ("<script", "<link", "<img", "src=", "href=", "@import", "url(", "http"):
        assert outside not in rest


# ---------- who said what, chatter, a full log
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
    # both replies (the one to `.log on` is marked for the story view to leave out)
    assert public.count('<div class="line reply"><span class="who">🎲 骰子機器人</span>') == 1
    assert public.count('<div class="line reply" data-aside="table"><span class="who">'
                        '🎲 骰子機器人</span>') == 1


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


async def test_chatter_that_reads_like_a_command_is_logged_and_never_run(
        table: Table) -> None:
    """An adapter marks what is no command for it (`.r 1d20` in a Plurk thread without
    the bot's mention) ``kind="chatter"``: the core logs it as typed and runs nothing,
    not even a near miss's hint; the same text as a command rolls."""
    await table.say("k", ".gm")
    await table.say("k", ".log on 夜")
    for text in (".r 1d20 不是給機器人的", "。st 體力-99", ".hlep", ".log off"):
        assert await table.say("u", text, dice=[], kind="chatter") == []
    assert [o.text for o in await table.say("u", ".r 1d20", dice=[7])] == [
        "🎲 u：1d20 = [7] = 7"]
    public = _log_files(await table.say("k", ".log export 夜"))["夜.html"]
    said = re.findall(r'class="line said".*?<p>(.*?)</p>', public, re.S)
    assert said[-5:] == [".r 1d20 不是給機器人的", "。st 體力-99", ".hlep", ".log off",
                         ".r 1d20"]


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

    for engine in engines(core):
        event.listen(engine, "before_cursor_execute", count)
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

    monkeypatch.setattr(UnitOfWork, "active_log", broken)
    with caplog.at_level(logging.ERROR, logger="bot.dispatcher"):
        assert await table.say("u", "閒聊") == []
    assert [r.getMessage() for r in caplog.records if r.name == "bot.dispatcher"] == [
        "a message could not be added to the game log"]


# ------------------------------------------------------------------ the game log
async def test_the_log_stores_who_said_and_who_received_each_line(table: Table) -> None:
    """Each stored line keeps its kind, the user it came from or went to, and the
    name shown: a player's line their display name, the bot's replies no user and no
    name, a private line its recipient (the speaker or a GM by display name, anyone
    else by id)."""
    await table.say("k", ".gm", display_name="Keeper")
    await table.say("k", ".log on 夜", display_name="Keeper")
    await table.say("bob", ".rh 1d20", dice=[12], display_name="Bob")
    async with sessions(table.core) as session:
        rows = list(await session.scalars(select(GameLogLine).order_by(GameLogLine.id)))
    assert [(r.kind, r.user, r.name, r.text) for r in rows] == [
        ("said", "k", "Keeper", ".log on 夜"),
        ("reply", "", "", "📜 開始記錄日誌「夜」（目前 0 行）。.log off 暫停。"),
        ("said", "bob", "Bob", ".rh 1d20"),
        ("reply", "", "", "🎲 Bob 進行了一次暗骰。"),
        ("private", "bob", "Bob", "（暗骰）🎲 Bob：1d20 = [12] = 12"),
        ("private", "k", "Keeper", "（Bob 的暗骰）🎲 Bob：1d20 = [12] = 12"),
    ]


# ------------------------------------------------------------------ chatter and its table
async def test_chatter_in_a_never_used_channel_creates_no_table(core: Core) -> None:
    async def system(uow: UnitOfWork) -> str:
        return uow.channel.system
    assert await Table(core, "never-used").say("u", "閒聊") == []
    assert await core.read_table("console", "never-used", system) is None


async def test_chatter_at_a_table_that_logs_nothing_learns_it_once(
        settings: Settings) -> None:
    """After a restart the core knows nothing of a table: its first chatter reads the
    table, and remembers it logs nothing, so the next reads nothing."""
    first = await Core.open(settings)
    try:
        await Table(first).say("u", ".r 1d6")
    finally:
        await first.close()
    core = await Core.open(settings)
    try:
        table = Table(core)
        seen = _count_statements(core)
        assert await table.say("u", "閒聊") == []
        assert seen != []
        seen.clear()
        assert await table.say("u", "再閒聊") == []
        assert seen == []
    finally:
        await core.close()


async def test_chatter_waits_for_the_command_running_at_its_table(table: Table) -> None:
    await table.say("k", ".gm")
    await table.say("k", ".log on 夜")
    async with table.core.dispatcher.lock("console", "table"):  # a command runs
        chatter = asyncio.create_task(table.say("u", "等一下"))
        await asyncio.sleep(0.2)
        assert not chatter.done()
    assert await chatter == []
    assert "等一下" in _log_files(await table.say("k", ".log export 夜"))["夜-gm.html"]


async def test_chatter_follows_its_channel_to_the_campaign_bound_meanwhile(
        core: Core) -> None:
    """Chatter that waited for a `.campaign bind` of its channel is logged at the
    campaign's table, whose log runs."""
    home, thread = Table(core, "home"), Table(core, "thread")
    await home.say("k", ".gm")
    await home.say("k", ".campaign bind 龍穴")
    await home.say("k", ".log on 夜")
    async with core.dispatcher.lock("console", "thread"):
        bind = asyncio.create_task(thread.say("k", ".campaign bind 龍穴"))
        await asyncio.sleep(0.2)
        chatter = asyncio.create_task(thread.say("u", "綁定之後"))  # routed to "thread"
        await asyncio.sleep(0.2)
    await bind
    assert await chatter == []
    assert "綁定之後" in _log_files(await home.say("k", ".log export 夜"))["夜-gm.html"]


async def test_a_full_log_says_so_in_the_platforms_language(
        core: Core, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table that never picked a language speaks its platform's (qq: zh-Hans)."""
    table = Table(core, "900", platform="qq")
    monkeypatch.setattr(book, "MAX_LINES", 2)
    await table.say("1", ".gm")
    await table.say("1", ".log on 短")  # 2 lines: the command and its reply
    assert [o.text for o in await table.say("2", "閒聊")] == [
        "📜 日志「短」已达上限 2 行并停止记录；.log export 可导出，.log on <新名称> 开始另一份。"]


async def test_each_line_keeps_the_character_its_speaker_played_then(table: Table) -> None:
    """Issue 26 item 12 at the store: a line keeps who its speaker played when it was
    said — their own active sheet, never another player's; else their nickname; else
    nothing — and the export reads it back (the txt names the line by it)."""
    await table.say("k", ".gm", display_name="Keeper")
    await table.say("k", ".nn 守密人", display_name="Keeper")
    await table.say("bob", ".pc new 鮑伯", display_name="Bob")
    await table.say("carol", ".pc new 卡蘿", display_name="Carol")
    await table.say("k", ".log on 夜", display_name="Keeper")
    await table.say("carol", "我也去", display_name="Carol")
    await table.say("bob", ".r 1d20 開門", dice=[12], display_name="Bob")
    await table.say("dave", "路過", display_name="Dave")
    async with sessions(table.core) as session:
        rows = list(await session.scalars(select(GameLogLine).order_by(GameLogLine.id)))
    assert [(r.user, r.character) for r in rows if r.kind == "said"] == [
        ("k", "守密人"), ("carol", "卡蘿"), ("bob", "鮑伯"), ("dave", None)]
    txt = _files(await table.say("k", ".log export 夜 txt"))["夜.txt"][1]
    assert "\n我也去\n" in txt and "卡蘿(P2)" in txt and "鮑伯(P3)" in txt
    assert "守密人(P1)" in txt and "Dave(P4)" in txt
