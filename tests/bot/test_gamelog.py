"""`.log`: the game log records chatter, commands and replies; secrets only in the
GM's copy; it survives a restart, caps its size, and exports escaped HTML/Markdown."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.core import Core
from bot.gamelog import book
from bot.messages import Outgoing
from tests.conftest import make_settings
from tests.support import Table


def _files(outs: list[Outgoing]) -> dict[str, tuple[Outgoing, str]]:
    return {o.attachment.filename: (o, o.attachment.data.decode("utf-8"))
            for o in outs if o.attachment is not None}


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
    calls = []
    table.core.sessions = lambda: calls.append(1)  # any database use would fail
    writer, table.core.writer = table.core.writer, None
    try:
        assert await table.say("alice", "再閒聊") == []
    finally:
        table.core.writer = writer
    assert calls == []


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
