"""Issue 26, items 11 and 12: a log that story viewers read.

Item 11: `.log export … txt` writes what SealDice's `.log export` writes — a speaker's
line ``name(ID) YYYY-MM-DD HH:MM:SS``, the message, an empty line — which SealDice's
story painter (染色器) imports; the players' copy holds no secret and no account, and
no message can pass for a second speaker's line. The painter is stood in for by a
port of its importers' patterns (below), first match wins, as in its logManager.

Item 12: every line is named by the character its speaker played when it was said
(the account beside it in the GM's copy only), and the page has a story view without
commands and out-of-character lines — checked in a real headless browser.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot import unit_of_work
from bot.gamelog import export, storyline, text_form
from bot.records import LogLine
from tests.support import Clock, Table
from tests.support import attached_files as _files

# --------------------------------------------------------------------------- the painter

_JS_SPACE = ("[\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f"
             "\\u3000\\ufeff]")


def _js(pattern: str, multiline: bool = True) -> re.Pattern[str]:
    """A JavaScript pattern of the painter's, read the way JavaScript reads it: ``\\d``
    is ASCII, ``\\s`` JavaScript's white space (the test text holds no ``\\r``, U+2028
    or U+2029 — checked — so ``^``/``$`` end lines alike in both languages)."""
    pattern = pattern.replace("\\d", "[0-9]").replace("[^\\s]", "\\S").replace(
        "\\s", _JS_SPACE).replace("\\S", "[^" + _JS_SPACE[1:])
    return re.compile(pattern, re.MULTILINE if multiline else 0)


# SealDice's story painter (sealdice/story-painter and its forks), src/logManager:
# the importers tried before the one our text is written for, in the painter's order
# (twoLineChannel is a fork's, tested line by line there) …
EARLIER = {
    "twoLineChannel": _js(r"^\s*-?\s*([^\(]+)\(([^)]+)\)\s*(?:#([^\s\[]+))?\s+"
                          r"(\d{4}\/\d{2}\/\d{2}\s+\d{2}:\d{2}:\d{2})(?:\s+\[([^\]]+)\])?\s*$"),
    "editLog": _js(r"^([^(<\n]+)(\(([^(\n]+)\)|\<[^(\n]+\>)?(\s+)(\d{4}\/\d{1,2}\/\d{1,2} )?"
                   r"(\d{1,2}:\d{1,2}:\d{2})( #\d+)?$"),
    "editLog (later)": _js(r"^((?:<[^<>(\n]+>)|[^(<\n]+)(\(([^(\n]+)\)|\<[^(\n]+\>)?(\s+)"
                           r"(\d{4}\/\d{1,2}\/\d{1,2} )?(\d{1,2}:\d{1,2}:\d{2})( #\d+)?$"),
    "qqExport": _js(r"^(\d{4}-\d{2}-\d{2} \d{1,2}:\d{1,2}:\d{1,2})\s+(.+?)(\([^)]+\)|\<[^>]+\>)$"),
    "sinaNya": _js(r"^<(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d)>\s+\[?([^\]]+)\]?:\s+([^\n]+)$"),
}
# … and the one it is written for: “Dice!编辑器默认格式” (DiceKokonaLogImporter), which
# reads SealDice's `.log export` text.
DICE_BANG = _js(r"^([^(<\n]+)(\(([^(\n]+)\)|\<[^(\n]+\>)?(\s*)(?:#([^\s]+))?(\s+)"
                r"(\d{4}-\d{1,2}-\d{1,2} )?(\d{1,2}:\d{1,2}:\d{2})( #\d+)? ?$")


@dataclass(frozen=True)
class Item:
    nickname: str
    user_id: str
    time: str
    message: str


def painter(text: str) -> list[Item]:
    """The items the painter makes of ``text``: no earlier importer claims it, and the
    Dice! importer splits it at every speaker's line (its parse loop)."""
    assert not re.search("[\r\u2028\u2029]", text)
    for name, pattern in EARLIER.items():
        if name == "twoLineChannel":
            assert not any(pattern.search(line) for line in text.split("\n")), name
        else:
            assert not pattern.search(text), name
    found = list(DICE_BANG.finditer(text))
    assert found, "not recognised at all"
    items = []
    for n, m in enumerate(found):
        end = found[n + 1].start() if n + 1 < len(found) else len(text)
        items.append(Item(m[1], m[2][1:-1] if m[2] else "", (m[7] or "") + m[8],
                          text[m.end():end][1:]))
    return items


# --------------------------------------------------------------------------- a session


@pytest.fixture
def seconds(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """What the store takes for now (UTC) while a line is recorded: set by the test."""
    clock = Clock(datetime(2026, 12, 1, 20, 15, 0))
    monkeypatch.setattr(unit_of_work, "utc_now", clock)
    return clock


def _at(clock: Clock, second: int) -> None:
    clock.now = datetime(2026, 12, 1, 20, 15, second)


async def _session(table: Table, clock: Clock) -> None:
    """A keeper and two players, one line a second from 20:15:01 (UTC)."""
    await table.say("gm", ".gm")
    for second, (user, text, dice) in enumerate([
            ("gm", ".log on 第一夜", None),
            ("alice", ".pc new 艾莉絲", None),  # said before she had one
            ("alice", "我推開門 <b>看看</b>", None),
            ("alice", ".r 1d20+2 開門", [15]),
            ("bob", ".pc new 鮑伯", None),
            ("bob", "（我去買飲料）", None),
            ("bob", ".rh 1d100", [42]),
            ("alice", "// brb", None),
            ("alice", "...等等", None)], start=1):
        _at(clock, second)
        await table.say(user, text, dice)


BOT = "🎲 骰子機器人"


async def test_text_export_is_sealdices_form_and_the_painter_reads_it(
        table: Table, seconds: Clock) -> None:
    await _session(table, seconds)
    outs = await table.say("gm", ".log export 第一夜 txt")
    files = _files(outs)
    assert sorted(files) == ["第一夜-gm.txt", "第一夜.txt"]
    public_out, public = files["第一夜.txt"]
    assert public_out.to == "channel" and public_out.text == (
        "📜 日誌「第一夜」（14 行）。暗骰結果只在 GM 版裡。")
    assert public == (
        "gm(P1) 2026-12-01 20:15:01\n.log on 第一夜\n\n"
        f"{BOT}(bot) 2026-12-01 20:15:01\n"
        "📜 開始記錄日誌「第一夜」（目前 0 行）。.log off 暫停。\n\n"
        "alice(P2) 2026-12-01 20:15:02\n.pc new 艾莉絲\n\n"
        f"{BOT}(bot) 2026-12-01 20:15:02\n已建立角色「艾莉絲」並設為使用中。\n\n"
        "艾莉絲(P2) 2026-12-01 20:15:03\n我推開門 <b>看看</b>\n\n"
        "艾莉絲(P2) 2026-12-01 20:15:04\n.r 1d20+2 開門\n\n"
        f"{BOT}(bot) 2026-12-01 20:15:04\n🎲 艾莉絲「開門」：1d20+2 = [15]+2 = 17\n\n"
        "bob(P3) 2026-12-01 20:15:05\n.pc new 鮑伯\n\n"
        f"{BOT}(bot) 2026-12-01 20:15:05\n已建立角色「鮑伯」並設為使用中。\n\n"
        "鮑伯(P3) 2026-12-01 20:15:06\n（我去買飲料）\n\n"
        "鮑伯(P3) 2026-12-01 20:15:07\n.rh 1d100\n\n"
        f"{BOT}(bot) 2026-12-01 20:15:07\n🎲 鮑伯 進行了一次暗骰。\n\n"
        "艾莉絲(P2) 2026-12-01 20:15:08\n// brb\n\n"
        "艾莉絲(P2) 2026-12-01 20:15:09\n...等等\n\n")
    items = painter(public)
    assert [(i.nickname, i.user_id, i.time) for i in items][2:5] == [
        ("alice", "P2", "2026-12-01 20:15:02"), (BOT, "bot", "2026-12-01 20:15:02"),
        ("艾莉絲", "P2", "2026-12-01 20:15:03")]
    assert [i.message for i in items][4:7] == [
        "我推開門 <b>看看</b>\n\n", ".r 1d20+2 開門\n\n",
        "🎲 艾莉絲「開門」：1d20+2 = [15]+2 = 17\n\n"]
    assert len(items) == 14
    # the GM's copy: accounts as IDs, and the secret the GM was sent, on its own line
    gm_out, gm = files["第一夜-gm.txt"]
    assert gm_out.to == "private" and gm_out.user == "gm" and gm_out.secret
    assert "艾莉絲(alice) 2026-12-01 20:15:03\n我推開門" in gm
    assert (f"{BOT}(bot) 2026-12-01 20:15:07\n🔒 私訊 gm\n（鮑伯 的暗骰）🎲 鮑伯：1d100 = [42] = 42"
            "\n\n") in gm
    assert [i.user_id for i in painter(gm)][:4] == ["gm", "bot", "alice", "bot"]
    assert len(painter(gm)) == 15
    # the players' copy: no secret, no account
    assert "42" not in public and "私訊" not in public
    assert not re.search(r"\((gm|alice|bob)\)", public)


FORGED = ("好。\n鮑伯(P3) 2026-12-01 20:15:02\n我投降，都是我的錯\r\n"
          "鮑伯(bob) 20:15:02\r艾莉絲 2026/12/01 20:15:02\u2028"
          "2026-12-01 20:15:02 鮑伯(P3)\u2029<2026-12-01 20:15:02.0>\t[鮑伯]:\t我投降")


async def test_a_message_cannot_pass_for_another_speakers_line(
        table: Table, seconds: Clock) -> None:
    """A message with a line end and a speaker's line in any form the painter knows
    stays alice's one message: its clock times are written with full-width colons, its
    line ends as the painter's ``\\n``."""
    await table.say("gm", ".gm")
    await table.say("gm", ".log on 夜")
    _at(seconds, 2)
    await table.say("alice", FORGED)
    await table.say("bob", "我在這裡")
    for name, text in _files(await table.say("gm", ".log export 夜 txt")).items():
        items = painter(text[1])
        assert [(i.nickname, i.user_id) for i in items][2:] == (
            [("alice", "P2"), ("bob", "P3")] if name == "夜.txt"
            else [("alice", "alice"), ("bob", "bob")])
        assert items[2].message == (
            "好。\n鮑伯(P3) 2026-12-01 20：15：02\n我投降，都是我的錯\n"
            "鮑伯(bob) 20：15：02\n艾莉絲 2026/12/01 20：15：02\n"
            "2026-12-01 20：15：02 鮑伯(P3)\n<2026-12-01 20：15：02.0>\t[鮑伯]:\t我投降\n\n")


_PIECES = st.sampled_from([
    "\n", "\r\n", "\r", "\u2028", "\u2029", " ", "\t", "\u3000", "(", ")", "<", ">", "[",
    "]", "#1", ":", "：", "20:15:02", "1:2:34", "9:59:59.0", "2026-12-01 ", "2026/12/01 ",
    "鮑伯", "P3", "bot", "(P3)", "<P3>", "0", "7", "-", "/", ".r", "（", "）"])
_TEXTS = st.lists(_PIECES, max_size=14).map("".join)


@settings(max_examples=300, deadline=None)
@example(said=[("", " "), ("#1", "")], gm=False)  # found: a name's "#" ended the line above
@given(said=st.lists(st.tuples(_TEXTS, _TEXTS), min_size=1, max_size=5), gm=st.booleans())
def test_any_message_and_any_name_make_exactly_one_item(
        said: list[tuple[str, str]], gm: bool) -> None:
    """Over generated names and messages built from the pieces of every form's
    speaker's line: the painter finds exactly one item per line, named as the line's
    speaker — no forged item, no importer but the one the text is written for."""
    at = datetime(2026, 12, 1, 20, 15, 2)
    lines = [LogLine(at, "said", f"u{n}", f"u{n}", text, who or None)
             for n, (who, text) in enumerate(said)]
    labels = export.Labels(title="夜", summary="", bot="bot", private="{name}", gm=gm,
                           speakers=export.speakers(lines))
    items = painter(export.render(lines, labels, "txt"))
    assert [(i.nickname, i.user_id, i.time) for i in items] == [
        (text_form.name(line.character or line.name), line.user if gm else f"P{n + 1}",
         "2026-12-01 20:15:02") for n, line in enumerate(lines)]


# --------------------------------------------------------------------------- item 12


async def test_lines_are_named_by_the_character_of_the_time(
        table: Table, seconds: Clock) -> None:
    """The character active when a line was said names it, in every form; a switch
    names what follows, not what came before; the account stands beside the
    character's name in the GM's copy only."""
    await _session(table, seconds)
    _at(seconds, 10)
    await table.say("alice", ".pc new 莉絲")  # said as 艾莉絲; 莉絲 is active after it
    _at(seconds, 11)
    await table.say("alice", "換我了")
    outs = await table.say("gm", ".log export 第一夜")
    page = _files(outs)["第一夜.html"][1]
    gm_page = _files(outs)["第一夜-gm.html"][1]
    names = re.findall(r'<span class="who">([^<]*)</span>', page)
    assert names == [
        "gm", BOT, "alice", BOT, "艾莉絲", "艾莉絲", BOT, "bob", BOT, "鮑伯", "鮑伯", BOT,
        "艾莉絲", "艾莉絲", "艾莉絲", BOT, "莉絲"]
    assert 'class="account"' not in page
    assert ('<span class="who">艾莉絲</span><span class="account">alice</span>'
            '<time>20:15:03</time><p>我推開門 &lt;b&gt;看看&lt;/b&gt;</p>') in gm_page
    assert ('<span class="who">莉絲</span><span class="account">alice</span>'
            '<time>20:15:11</time><p>換我了</p>') in gm_page
    # a line said without a character has no account beside it: it is its name
    assert '<span class="who">alice</span><time>20:15:02</time>' in gm_page
    md = _files(await table.say("gm", ".log export 第一夜 md"))
    assert "**艾莉絲** 20:15:03  \n我推開門 &lt;b&gt;看看&lt;/b&gt;" not in md["第一夜.md"][1]
    assert "**艾莉絲** 20:15:03  \n我推開門 \\<b\\>看看\\</b\\>" in md["第一夜.md"][1]
    assert "**莉絲** \\(alice\\) 20:15:11  \n換我了" in md["第一夜-gm.md"][1]
    assert "\\(alice\\)" not in md["第一夜.md"][1]


async def test_a_keeper_without_a_sheet_is_named_by_nickname(
        table: Table, seconds: Clock) -> None:
    """Play-test finding: after `.nn 守密人` the bot called the keeper 守密人, but the
    log still named every line of theirs by the account (``keeper(P1)``); the story
    names them as the table does (the account beside it in the GM's copy)."""
    await _session(table, seconds)
    _at(seconds, 20)
    await table.say("gm", ".nn 守密人")
    _at(seconds, 21)
    await table.say("gm", "門後傳來低語。")
    outs = await table.say("gm", ".log export 第一夜 txt")
    files = _files(outs)
    assert "守密人(P1) 2026-12-01 20:15:21\n門後傳來低語。\n" in files["第一夜.txt"][1]
    assert "gm(P1) 2026-12-01 20:15:01\n.log on 第一夜\n" in files["第一夜.txt"][1]
    assert "守密人(gm) 2026-12-01 20:15:21\n門後傳來低語。\n" in files["第一夜-gm.txt"][1]


def test_a_line_recorded_before_characters_were_kept_shows_its_speaker() -> None:
    """Lines stored before migration 0011 have no character: named as before."""
    line = LogLine(datetime(2026, 12, 1, 20, 0, 5), "said", "alice", "Alice", "嗨")
    labels = export.Labels(title="夜", summary="s", bot="bot", private="{name}", gm=True)
    assert '<span class="who">Alice</span><time>20:00:05</time>' in export.page([line], labels)
    assert export.render([line], labels, "txt") == "Alice(alice) 2026-12-01 20:00:05\n嗨\n\n"


async def test_the_page_marks_what_its_story_view_leaves_out(
        table: Table, seconds: Clock) -> None:
    await _session(table, seconds)
    page = _files(await table.say("gm", ".log export 第一夜"))["第一夜.html"][1]
    marked = re.findall(r'<div class="line said" data-aside="(\w+)"><span class="who">'
                        r"[^<]*</span><time>[^<]*</time><p>([^<]*)</p>", page)
    assert marked == [("command", ".log on 第一夜"), ("command", ".pc new 艾莉絲"),
                      ("command", ".r 1d20+2 開門"), ("command", ".pc new 鮑伯"),
                      ("ooc", "（我去買飲料）"), ("command", ".rh 1d100"), ("ooc", "// brb")]
    # the bot's answers to the table's business (`.log on`, `.pc new`) leave the story
    # with their command (play-test finding: “character created” between the lines);
    # a roll's answer, "...等等" and the chatter stay: the story
    tables = re.findall(r'<div class="line reply" data-aside="table"><span class="who">'
                        r"[^<]*</span><time>[^<]*</time><p>([^<]*)</p>", page)
    assert tables == ["📜 開始記錄日誌「第一夜」（目前 0 行）。.log off 暫停。",
                      "已建立角色「艾莉絲」並設為使用中。", "已建立角色「鮑伯」並設為使用中。"]
    assert page.count('data-aside="') == 10
    assert "<script" not in page and "http" not in page and "href" not in page


@pytest.mark.parametrize(("text", "aside"), [
    (".r 1d20", "command"), ("。日誌 off", "command"), ("/roll 2d6", "command"),
    ("  ．ｒ 1d6", "command"), ("(去倒水)", "ooc"), ("（我去買飲料", "ooc"),
    ("　（場外）", "ooc"), ("//brb", "ooc"), ("／／ 等等", "ooc"),
    ("...等等", ""), ("。。。", ""), (". 我", ""), ("/ 2", ""), ("我（小聲）說", ""),
    ("", "")])
def test_what_the_story_view_leaves_out(text: str, aside: str) -> None:
    """A command is a prefix and a letter; table talk starts with a bracket or ``//``;
    a pause (``...``) and a bracket inside a line are the story."""
    assert storyline.aside(LogLine(datetime(2026, 12, 1), "said", "a", "a", text)) == aside
    assert storyline.aside(LogLine(datetime(2026, 12, 1), "reply", "", "", text)) == ""


def test_the_answer_to_the_tables_business_leaves_the_story_with_its_command() -> None:
    """`.st` / `.help` / `.pc` answers go with their command; a roll's stays; a said
    line (chatter) ends the run; without a way to tell commands, every answer stays."""
    at = datetime(2026, 12, 1)
    lines = [LogLine(at, "said", "a", "a", ".st力量60"), LogLine(at, "reply", "", "", "ok"),
             LogLine(at, "said", "a", "a", ".r 1d20"), LogLine(at, "reply", "", "", "17"),
             LogLine(at, "said", "a", "a", "。幫助"), LogLine(at, "reply", "", "", "help"),
             LogLine(at, "private", "k", "k", "help too"),
             LogLine(at, "said", "a", "a", "我開門"), LogLine(at, "said", "a", "a", ".stx")]
    names = {".st力量60": "st", ".r 1d20": "r", "。幫助": "help", ".stx": "st"}
    assert storyline.asides(lines, names.get) == [
        "command", "table", "command", "", "command", "table", "table", "", "command"]
    assert storyline.asides(lines) == [
        "command", "", "command", "", "command", "", "", "", "command"]


# --------------------------------------------------------------------------- in a browser

BROWSER = next((found for name in ("chromium", "chromium-browser", "google-chrome")
                if (found := shutil.which(name))), None)
needs_browser = pytest.mark.skipif(
    BROWSER is None and not os.environ.get("TRPGBOT_REQUIRE_BROWSER"),
    reason="no headless browser here (apt-get install chromium); "
           "TRPGBOT_REQUIRE_BROWSER=1 fails instead")

PROBE = """<script>
/* the test's reader: what is on screen (computed style), as the page is opened, after
   a click on the story switch, and after a click on it again */
function seen() {
  const shown = e => getComputedStyle(e).display !== "none";
  return {
    lines: [...document.querySelectorAll(".line")].filter(shown).map(
      e => e.querySelector(".who").textContent + ": " + e.querySelector("p").textContent),
    switch: [...document.querySelectorAll(".views span")].filter(shown).map(
      e => e.textContent),
  };
}
window.addEventListener("load", () => {
  const views = {opened: seen()};
  document.querySelector(".to-story").click();
  views.story = seen();
  document.querySelector(".to-whole").click();
  views.whole = seen();
  const out = document.createElement("pre");
  out.id = "probe";
  out.textContent = JSON.stringify(views);
  document.body.appendChild(out);
});
</script>"""


def _read_in_browser(page: str, where: Path, fragment: str = "") -> dict[str, object]:
    """Open ``page`` (with the probe added before ``</body>``) in headless Chromium and
    read what the probe saw from the DOM Chromium dumps."""
    assert BROWSER is not None, "TRPGBOT_REQUIRE_BROWSER=1 and no browser here"
    path = where / "page.html"
    path.write_text(page.replace("</body>", PROBE + "</body>"), "utf-8")
    done = subprocess.run(
        [BROWSER, "--headless", "--no-sandbox", "--disable-gpu",
         f"--user-data-dir={where / 'profile'}", "--virtual-time-budget=5000",
         "--dump-dom", path.as_uri() + fragment],
        capture_output=True, text=True, timeout=120, check=True)
    found = re.search(r'<pre id="probe">(.*?)</pre>', done.stdout, re.S)
    assert found, done.stdout[-2000:] + done.stderr[-2000:]
    return dict(json.loads(found[1].replace("&lt;", "<").replace("&gt;", ">")
                           .replace("&quot;", '"').replace("&amp;", "&")))


@needs_browser
async def test_the_story_view_in_a_real_browser(
        table: Table, seconds: Clock, tmp_path: Path) -> None:
    await _session(table, seconds)
    page = _files(await table.say("gm", ".log export 第一夜"))["第一夜.html"][1]
    views = _read_in_browser(page, tmp_path)
    whole = [
        "gm: .log on 第一夜", f"{BOT}: 📜 開始記錄日誌「第一夜」（目前 0 行）。.log off 暫停。",
        "alice: .pc new 艾莉絲", f"{BOT}: 已建立角色「艾莉絲」並設為使用中。",
        "艾莉絲: 我推開門 <b>看看</b>", "艾莉絲: .r 1d20+2 開門",
        f"{BOT}: 🎲 艾莉絲「開門」：1d20+2 = [15]+2 = 17",
        "bob: .pc new 鮑伯", f"{BOT}: 已建立角色「鮑伯」並設為使用中。",
        "鮑伯: （我去買飲料）", "鮑伯: .rh 1d100", f"{BOT}: 🎲 鮑伯 進行了一次暗骰。",
        "艾莉絲: // brb", "艾莉絲: ...等等"]
    story = [  # no command, no table talk, no answer to the table's business
        "艾莉絲: 我推開門 <b>看看</b>", f"{BOT}: 🎲 艾莉絲「開門」：1d20+2 = [15]+2 = 17",
        f"{BOT}: 🎲 鮑伯 進行了一次暗骰。", "艾莉絲: ...等等"]
    assert views["opened"] == {"lines": whole, "switch": ["📖 故事檢視：不含指令與場外發言"]}
    assert views["story"] == {"lines": story, "switch": ["📜 完整日誌"]}
    assert views["whole"] == views["opened"]
    # the story view has an address of its own: opened at …#story, it shows the story,
    # and the switch brings the whole log back
    direct = _read_in_browser(page, tmp_path, "#story")
    assert direct["opened"] == views["story"] and direct["story"] == views["opened"]
