"""Issue 22, the game log: player-private messages (a jianshou hand, a draw, a redraw)
are in no copy of any log, the GM's included, which records only that they happened
(item 2); a private line is in the copy of the one it was sent to, so a GM seated later
gets no earlier secret (item 3); `.log export` is a GM's (or the starter's at a table
without one), once a minute per table, bounded on Plurk, written whole on the server by
`trpgbot log export` (item 7); a file past the attachment cap is split, never an
internal error (item 8); the Markdown shows every line as typed (item 9)."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from adapters.cli import main
from bot import messages
from bot.core import Core
from bot.gamelog import export
from bot.handlers import log as log_handler
from bot.messages import Outgoing
from tests.conftest import make_settings
from tests.orm import GameLogLine
from tests.support import Clock, Table
from tests.support import attached_files as _files

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = json.loads((ROOT / "rules/systems/jianshou/decks/sample.json").read_text("utf-8"))
CARD_NAMES = [card["name"] for card in SAMPLE["cards"]] + [
    card["en"] for card in SAMPLE["cards"] if "en" in card]


@pytest.fixture
def clock(core: Core) -> Clock:
    """The log book's clock, moved by the test."""
    ticking = Clock(datetime(2026, 12, 1, 20, 0, 0))
    core.logbook.clock = ticking
    return ticking


# --------------------------------------------------------------------------- item 2


async def _jianshou_game_logged(table: Table) -> list[Outgoing]:
    """GM gm, seated too, with alice and bob; a log runs from before the deal; alice
    redraws, everyone keeps (alice's first turn draws), alice asks for her hand again.
    Every private message the game sent."""
    sent: list[Outgoing] = []
    await table.text("gm", ".gm")
    await table.text("gm", ".log on 劍局")
    await table.text("gm", ".system jianshou")
    for user in ("gm", "alice", "bob"):
        await table.text(user, ".js join")
    sent += await table.say("gm", ".js start", dice=[11, 22, 33])
    sent += await table.say("alice", ".mull", dice=[44])
    sent += await table.say("alice", ".keep")
    sent += await table.say("bob", ".keep")
    sent += await table.say("gm", ".keep", dice=[2])  # seats gm, alice, bob: alice first
    sent += await table.say("alice", ".hand")
    return [o for o in sent if o.to == "private"]


async def test_no_copy_of_the_log_holds_a_hand_the_summary_is_there(
        table: Table, clock: Clock) -> None:
    private = await _jianshou_game_logged(table)
    # the game did send hands, draws and a redraw — each marked player-private
    shown = [name for name in CARD_NAMES if any(name in o.text for o in private)]
    assert shown and all(o.player_private and o.secret for o in private)
    assert sorted({o.user for o in private}) == ["alice", "bob", "gm"]
    copies = {}
    for fmt in ("md", "html", "txt"):
        outs = await table.say("gm", f".log export 劍局 {fmt}")
        copies.update({name: text for name, (_, text) in _files(outs).items()})
        clock.now += timedelta(minutes=1)
    assert sorted(copies) == ["劍局-gm.html", "劍局-gm.md", "劍局-gm.txt", "劍局.html",
                              "劍局.md", "劍局.txt"]
    for name, text in copies.items():
        assert [card for card in CARD_NAMES if card in text] == [], name
        assert "你的手牌" not in text and "你抽到" not in text, name
        # what happened, in every copy: the deal, alice's redraw, her first turn's
        # draw (she redrew once: 1 card), her `.hand`
        assert text.count("alice 的手牌（6 張）已私訊送出。") == 2, name
        assert text.count("alice 抽了 1 張牌。") == 1, name
        assert text.count("alice 的手牌（7 張）已私訊送出。") == 1, name
        assert text.count("gm 的手牌（6 張）已私訊送出。") == 1, name
        assert text.count("bob 的手牌（6 張）已私訊送出。") == 1, name
    assert copies["劍局-gm.md"].count("🔒 私訊 alice") == 4
    assert copies["劍局-gm.txt"].count("🔒 私訊 alice\n") == 4
    assert copies["劍局.txt"].count("🔒 私訊 alice\n") == 4  # sealed: every copy
    # the GM's one private line: the notice of the first export (md), sent to gm
    assert copies["劍局-gm.html"].count('class="line private"') == 1
    assert copies["劍局-gm.html"].count('class="line sealed"') == 6


async def test_a_resent_pending_hand_stays_out_of_the_log(table: Table) -> None:
    """`.gm pending` sends again what a platform refused — a hand as well: its text
    enters no log either (a secret in it was recorded when it was first sent)."""
    await table.text("gm", ".gm")
    await table.text("gm", ".log on 夜")
    await table.say("bob", ".rh 1d100", dice=[42])
    [to_gm] = [o for o in await table.say("bob", ".rh 1d100", dice=[17]) if o.user == "gm"]
    await table.core.private_delivery_failed("console", to_gm)
    outs = await table.say("gm", ".gm pending")
    assert [o.text for o in outs if o.to == "private"] == [
        "（bob 的暗骰）🎲 bob：1d100 = [17] = 17"]
    assert all(o.player_private for o in outs if o.to == "private")
    gm_copy = _files(await table.say("gm", ".log export 夜 md"))["夜-gm.md"][1]
    assert gm_copy.count("\\[17\\]") == 1  # recorded once, when the roll was made


# --------------------------------------------------------------------------- item 3


async def test_a_gm_seated_later_gets_no_earlier_secret(table: Table, clock: Clock) -> None:
    """No GM: bob rolls in secret; alice takes the seat and exports — without bob's
    result, which nobody but bob was sent."""
    await table.text("carol", ".log on 夜")
    await table.say("bob", ".rh 1d100", dice=[97])
    assert await table.text("alice", ".gm") == "alice 成為本頻道的 GM。"
    await table.say("bob", ".rh 1d100", dice=[17])  # now alice is sent a copy
    outs = await table.say("alice", ".log export 夜 md")
    mine = _files(outs)["夜-gm.md"][1]
    assert "\\[97\\]" not in mine and "97" not in mine  # no time field reaches 97
    assert mine.count("（bob 的暗骰）🎲 bob：1d100 = \\[17\\] = 17") == 1
    assert "\\[97\\]" not in _files(outs)["夜.md"][1]


async def test_only_the_gm_of_the_time_sees_a_secret(table: Table, clock: Clock) -> None:
    await table.text("carol", ".gm")
    await table.text("carol", ".log on 夜")
    await table.say("bob", ".rh 1d100", dice=[42])
    await table.text("carol", ".gm add alice")
    outs = await table.say("alice", ".log export 夜 md")
    copies = {o.user: o.attachment.data.decode() for o in outs
              if o.to == "private" and o.attachment is not None}
    assert sorted(copies) == ["alice", "carol"]
    assert "\\[42\\]" in copies["carol"] and "\\[42\\]" not in copies["alice"]
    clock.now += timedelta(minutes=1)
    outs = await table.say("alice", ".log export 夜 txt")  # the text form alike
    copies = {o.user or "channel": o.attachment.data.decode() for o in outs
              if o.attachment is not None}
    assert sorted(copies) == ["alice", "carol", "channel"]
    assert "[42]" in copies["carol"] and "[42]" not in copies["alice"]
    assert "[42]" not in copies["channel"] and "🔒" not in copies["channel"]


# --------------------------------------------------------------------------- item 7


async def test_only_a_gm_exports_or_the_starter_where_there_is_none(
        core: Core, clock: Clock) -> None:
    table = Table(core, platform="qq")
    await table.text("bob", ".log on 夜")
    await table.say("alice", "你好")
    refused = "⚠ 只有 GM 能导出日志（没有 GM 的桌子：开始这份日志的人）。"  # QQ: zh-Hans
    assert await table.text("alice", ".log export") == refused
    outs = await table.say("bob", ".log export")
    assert [o.to for o in outs] == ["channel"] and "夜.html" in _files(outs)
    clock.now += timedelta(minutes=1)
    await table.text("carol", ".gm")
    assert await table.text("bob", ".log export") == "⚠ 只有本频道的 GM 可以这么做。"
    assert sorted(_files(await table.say("carol", ".log export"))) == ["夜-gm.html", "夜.html"]


async def test_a_table_exports_once_a_minute(core: Core, clock: Clock) -> None:
    """Not on the console, where one person writes local files: see the next test."""
    table = Table(core, platform="qq")
    await table.text("gm", ".gm")
    await table.text("gm", ".log on 夜")
    await table.text("gm", ".log on 晨")  # another log of the same table
    assert len(_files(await table.say("gm", ".log export 夜"))) == 2
    clock.now += timedelta(seconds=17, microseconds=500_000)
    wait = "⚠ 每张桌子 60 秒内只能导出一次：43 秒后再试。"  # QQ: zh-Hans
    assert await table.text("gm", ".log export 晨") == wait
    clock.now += timedelta(seconds=42)
    assert await table.text("gm", ".log export 夜 md") == (
        "⚠ 每张桌子 60 秒内只能导出一次：1 秒后再试。")  # refused: the clock not reset
    clock.now += timedelta(seconds=1)
    assert len(_files(await table.say("gm", ".log export 晨"))) == 2
    other = Table(core, channel="other", platform="qq")
    await other.text("gm", ".log on 別桌")
    assert len(_files(await other.say("gm", ".log export"))) == 1  # per table
    console = Table(core)
    await console.text("gm", ".log on 本機")
    for _ in range(2):
        assert len(_files(await console.say("gm", ".log export"))) == 1


async def test_a_long_log_on_plurk_is_cut_with_a_note(core: Core, clock: Clock) -> None:
    table = Table(core, channel="123456", platform="plurk")
    await table.text("9", ".gm")
    await table.text("9", ".log on 長夜")
    for n in range(60):
        await table.say("7", f"第 {n} 句：" + "很長的話" * 20)
    outs = await table.say("9", ".log export")
    [gm_out] = [o for o in outs if o.to == "private"]
    assert gm_out.attachment is not None
    body = gm_out.attachment.data.decode()
    command = "trpgbot log export --platform plurk --channel 123456 '長夜'"
    note = f"✂ 噗浪只貼出前 {{shown}} 行（共 62 行）。完整的日誌：在機器人的主機上執行 {command}"
    shown = next(n for n in range(62) if note.format(shown=n) in gm_out.text)
    assert gm_out.text == ("📜 「長夜」你的 GM 版：桌上看到的一切，加上私訊給你的秘密。\n"
                           + note.format(shown=shown))
    assert 20 < shown < 30
    assert len(body) <= log_handler.PLURK_EXPORT_CHARS
    assert body.endswith(f"\n\n{note.format(shown=shown)}\n")  # copied as it reads
    assert f"第 {shown - 3} 句" in body and f"第 {shown - 2} 句" not in body
    # a short log on Plurk arrives whole
    short = Table(core, channel="654321", platform="plurk")
    await short.text("9", ".gm")
    await short.text("9", ".log on 短")
    clock.now += timedelta(minutes=1)
    [gm_short] = [o for o in await short.say("9", ".log export") if o.to == "private"]
    assert "✂" not in gm_short.text


def test_trpgbot_log_export_writes_the_whole_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRPGBOT_DATA_DIR", str(tmp_path))

    async def play() -> None:
        core = await Core.open(make_settings(tmp_path))
        try:
            table = Table(core, channel="123456", platform="plurk")
            await table.text("9", ".gm")
            await table.text("9", ".log on 長 夜")
            for n in range(60):
                await table.say("7", f"第 {n} 句")
            await table.say("7", ".rh 1d100", dice=[42])
        finally:
            await core.close()

    asyncio.run(play())
    db = f"sqlite+aiosqlite:///{(tmp_path / 'trpgbot.db').as_posix()}"
    out = tmp_path / "whole.md"
    assert main(["log", "export", "--db", db, "--platform", "plurk", "--channel", "123456",
                 "長 夜", "--out", str(out), "--format", "md"]) == 0
    whole = out.read_text("utf-8")
    assert "第 0 句" in whole and "第 59 句" in whole and "\\[42\\]" not in whole
    assert capsys.readouterr().out == f"{out.absolute()}\n"
    # the GM's copy, by name; the default place is <data dir>/exports
    gm_file = tmp_path / "exports" / "長_夜-gm.html"
    assert main(["log", "export", "--db", db, "--platform", "plurk", "--channel", "123456",
                 "長 夜", "--for", "9"]) == 0
    assert "[42]" in gm_file.read_text("utf-8")
    # the text form story viewers import, the GM's copy: accounts as IDs, the secret
    txt = tmp_path / "gm.txt"
    assert main(["log", "export", "--db", db, "--platform", "plurk", "--channel", "123456",
                 "長 夜", "--for", "9", "--format", "txt", "--out", str(txt)]) == 0
    text = txt.read_text("utf-8")
    assert text.startswith("9(9) ") and "\n第 59 句\n\n" in text and "[42]" in text
    assert main(["log", "export", "--db", db, "--platform", "plurk", "--channel", "123456",
                 "長 夜", "--out", str(out)]) == 1  # never over an existing file
    assert main(["log", "export", "--db", db, "--platform", "plurk", "--channel", "999",
                 "長 夜"]) == 1
    err = capsys.readouterr().err
    assert f"{out} exists" in err and "no log named '長 夜' at plurk channel 999" in err


# --------------------------------------------------------------------------- item 8


async def test_a_file_past_the_attachment_cap_is_split_at_the_boundary(
        table: Table, clock: Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    await table.text("gm", ".gm")
    await table.text("gm", ".log on 夜")
    for n in range(30):
        await table.say("alice", f"<'&\"> {n} " * 40)
    await table.text("gm", ".log off")  # the exports are not recorded: the same files
    whole = _files(await table.say("gm", ".log export"))["夜.html"][1]
    size = len(whole.encode("utf-8"))
    assert size > 30 * 40 * 20  # escaped: every < ' & " " > is an entity
    monkeypatch.setattr(messages, "MAX_ATTACHMENT_BYTES", size)
    clock.now += timedelta(minutes=1)
    again = _files(await table.say("gm", ".log export"))["夜.html"][1]
    assert len(again.encode("utf-8")) == size  # exactly at the cap: one file
    monkeypatch.setattr(messages, "MAX_ATTACHMENT_BYTES", size - 1)
    clock.now += timedelta(minutes=1)
    outs = await table.say("gm", ".log export")
    channel = [o for o in outs if o.to == "channel"]
    assert [o.attachment.filename for o in channel if o.attachment] == ["夜-1.html", "夜-2.html"]
    assert channel[0].text == "📜 日誌「夜」（32 行）。暗骰結果只在 GM 版裡。"
    assert channel[1].text == "📜 第 2/2 部分（檔案太大，分成幾份）。"
    parts = [o.attachment.data.decode() for o in channel if o.attachment]
    assert all(len(p.encode("utf-8")) <= size - 1 for p in parts)
    assert "<title>遊戲日誌：夜 (1/2)</title>" in parts[0]
    assert "<title>遊戲日誌：夜 (2/2)</title>" in parts[1]
    said = [p.count('class="line said"') for p in parts]
    assert sum(said) == whole.count('class="line said"')


def test_a_log_at_its_cap_never_makes_a_file_past_the_attachment_cap() -> None:
    """1,000,000 characters that escape to six bytes each (``'`` → ``&#x27;``) in
    20,000 lines, said by a player whose 32-character name does too: about 11.5 MB of
    HTML, over the 8 MiB cap — numbered parts, each under it."""
    at = datetime(2026, 12, 1)
    lines = [GameLogLine(kind="said", user="u", name='"' * 32, text="'" * 50, at=at)
             for _ in range(20_000)]
    labels = export.Labels(title="夜", summary="", bot="bot", private="{name}")
    whole = len(export.render(lines, labels, "html").encode())
    assert whole > messages.MAX_ATTACHMENT_BYTES
    parts = export.parts(lines, labels, "html", messages.MAX_ATTACHMENT_BYTES)
    assert len(parts) == 2
    sizes = [len(export.render(chunk, part, "html").encode()) for part, chunk in parts]
    assert all(size <= messages.MAX_ATTACHMENT_BYTES for size in sizes)
    assert sum(len(chunk) for _, chunk in parts) == 20_000


# --------------------------------------------------------------------------- item 9

NASTY = [
    # typed, and what the Markdown holds (every mark escaped: CommonMark shows each
    # backslash-escaped ASCII mark as itself, so the rendered line is what was typed)
    ("標題\r===", "標題  \n\\=\\=\\="),  # a lone \r is a line end: no setext h1
    ("標題\n---", "標題  \n\\-\\-\\-"),  # no setext h2
    ("  ===  ", "  \\=\\=\\="),  # indented underline (trailing spaces: nothing)
    ("&lt;b&gt;粗&lt;/b&gt;", "\\&lt;b\\&gt;粗\\&lt;/b\\&gt;"),  # no entity
    ("&#35; &amp;", "\\&\\#35; \\&amp;"),
    ("# 標題", "\\# 標題"),
    ("> 引用", "\\> 引用"),
    ("- 項\n+ 項\n* 項", "\\- 項  \n\\+ 項  \n\\* 項"),
    ("1. 一\n2) 二", "1\\. 一  \n2\\) 二"),
    ("```py\n~~~", "\\`\\`\\`py  \n\\~\\~\\~"),
    ("| a | b |\n|---|---|", "\\| a \\| b \\|  \n\\|\\-\\-\\-\\|\\-\\-\\-\\|"),
    ("***\n___", "\\*\\*\\*  \n\\_\\_\\_"),
    ("<div>x</div>", "\\<div\\>x\\</div\\>"),
    ("[a]: http://x.y", "\\[a\\]: http://x\\.y"),
    ("甲\n\n    code", "甲  \n\\\n    code"),  # no blank line: no code block after it
    ("尾\\", "尾\\\\"),  # a trailing backslash is no hard break
    ("1d20 = 17 $x$", "1d20 = 17 \\$x\\$"),
]


@pytest.mark.parametrize(("typed", "escaped"), NASTY)
def test_markdown_shows_every_line_as_typed(typed: str, escaped: str) -> None:
    at = datetime(2026, 12, 1, 21, 0, 5)
    line = GameLogLine(kind="said", user="m", name="m", text=typed, at=at)
    labels = export.Labels(title="夜", summary="s", bot="bot", private="{name}")
    assert export.markdown([line], labels) == f"# 夜\n\ns\n\n**m** 21:00:05  \n{escaped}\n\n"
