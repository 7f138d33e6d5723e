"""`.draw` / `.drawh` through the core (issue 26 item 10): the bundled decks and the
operator's folder, exact draws under scripted dice, the secret draw's privacy, a broken
file told to the log and to whoever draws from it, the help in three languages, and
deck text echoed as one escaped line on every platform (docs/decks.md)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from adapters.discord.convert import message_pieces
from adapters.onebot.convert import to_message
from adapters.plurk.text import neutralise
from bot.core import Core
from tests.conftest import make_settings
from tests.support import Table

OPERATOR_DECK = {
    "_title": ["Pigeons"],
    "鴿子": ["::2::白鴿{%_色}", "灰鴿{%_色}"],
    "_色": ["紅", "綠"],
    "秘密": ["秘密鴿子信"],
    "危險": ["x\n🎲 alice：1d20 = 20 @everyone <@123> [CQ:at,qq=all]"],
}
BROKEN = '{\n "破": ["a",\n  "b" "c"]\n}\n'


@pytest.fixture
async def operator_core(tmp_path: Path):
    folder = tmp_path / "decks"
    (folder / "sub").mkdir(parents=True)
    (folder / "pigeons.json").write_text(json.dumps(OPERATOR_DECK, ensure_ascii=False),
                                         "utf-8")
    (folder / "sub" / "broken.json").write_text(BROKEN, "utf-8")
    core = await Core.open(make_settings(tmp_path))
    yield core
    await core.close()


@pytest.fixture
def operator_table(operator_core: Core) -> Table:
    return Table(operator_core)


async def test_a_draw_from_the_bundled_tarot_is_exact(table: Table) -> None:
    # 22 cards: face 3 is the third (女祭司); then 正逆 with putting back: face 2 is 逆位.
    outs = await table.say("alice", ".draw 塔羅牌", dice=[3, 2])
    assert [o.to for o in outs] == ["channel"]
    card = "女祭司・逆位（其意受阻、遲來或轉向內心）——答案藏在沒說出口的話裡"
    assert outs[0].text == f"🃏 alice 從〔塔羅牌〕抽到：{card}"
    assert outs[0].data == {"kind": "draw", "deck": "塔羅牌", "file": "bundled/tarot.json",
                            "results": [card], "rolls": [[22, 3], [2, 2]]}


async def test_several_draws_do_not_put_back_and_are_numbered(table: Table) -> None:
    # 神諭 weighs 3+3+2+2+1+1+1 = 13: face 1 is 是; then 否 is first of the 10 left.
    outs = await table.say("alice", ".draw 神諭 2", dice=[1, 1])
    assert outs[0].text == "🃏 alice 從〔神諭〕抽了 2 張：\n1. 是。\n2. 否。"
    assert outs[0].data["rolls"] == [[13, 1], [10, 1]]
    for same in (".draw 2# 神諭", ".draw 神諭 2#"):
        assert (await table.say("alice", same, dice=[1, 1]))[0].text == outs[0].text


async def test_the_drawer_is_named_by_the_active_character(table: Table) -> None:
    await table.text("alice", ".pc new 艾莉絲")
    outs = await table.say("alice", ".draw oracle", dice=[13])
    assert outs[0].text == "🃏 艾莉絲 從〔oracle〕抽到：Too early to tell; ask again."


async def test_a_secret_draw_reaches_the_drawer_and_the_gms_only(table: Table) -> None:
    await table.text("keeper", ".gm")
    outs = await table.say("alice", ".drawh 神諭", dice=[13])
    channel = [o for o in outs if o.to == "channel"]
    private = {o.user: o for o in outs if o.to == "private"}
    assert [o.text for o in channel] == ["🃏 alice 暗中抽了牌。"]
    assert channel[0].data == {"kind": "hidden_draw", "user": "alice"}
    assert set(private) == {"alice", "keeper"}
    assert private["alice"].text == "（暗抽）🃏 alice 從〔神諭〕抽到：現在還說不準，再問一次。"
    assert private["keeper"].text == \
        "（alice 的暗抽）🃏 alice 從〔神諭〕抽到：現在還說不準，再問一次。"
    for message in private.values():
        assert message.secret and message.data["results"] == ["現在還說不準，再問一次。"]


async def test_a_secret_draw_stays_out_of_the_players_log(operator_table: Table) -> None:
    table = operator_table
    await table.text("carol", ".gm")
    await table.text("carol", ".log on 夜")
    await table.say("bob", ".drawh 秘密")
    outs = await table.say("carol", ".log export 夜 md")
    files = {o.attachment.filename: o.attachment.data.decode("utf-8")
             for o in outs if o.attachment is not None}
    assert "秘密鴿子信" in files["夜-gm.md"]
    assert "秘密鴿子信" not in files["夜.md"] and "暗中抽了牌" in files["夜.md"]


async def test_a_refused_secret_draw_is_answered_privately(table: Table) -> None:
    outs = await table.say("alice", ".drawh 神諭 9")
    assert [(o.to, o.user) for o in outs] == [("private", "alice")]
    assert "1 到 5" in outs[0].text


async def test_the_operators_folder_is_read_and_drawn(operator_table: Table) -> None:
    # 白鴿 weighs 2 of 3: face 3 is 灰鴿; then 綠.
    outs = await operator_table.say("alice", ".draw 鴿子", dice=[3, 2])
    assert outs[0].text == "🃏 alice 從〔鴿子〕抽到：灰鴿綠"
    assert outs[0].data["file"] == "pigeons.json"
    listing = await operator_table.text("alice", ".draw list")
    assert listing.splitlines()[:2] == ["🃏 牌堆（4 個）：", "・Pigeons：鴿子 / 秘密 / 危險"]
    assert "⚠ 牌堆檔 sub/broken.json 不是有效的 JSON：第 3 行第 7 字附近有錯。" in listing
    keys = await operator_table.text("alice", ".draw keys pigeons")
    assert keys == "🃏 能抽的牌組（3 個）：\n鴿子 / 秘密 / 危險"
    assert await operator_table.text("alice", ".draw") == listing


async def test_a_broken_file_is_logged_and_told_to_whoever_draws_from_it(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "broken.json").write_text(BROKEN, "utf-8")
    with caplog.at_level(logging.WARNING, logger="bot.decks"):
        core = await Core.open(make_settings(tmp_path))
    try:
        assert any("broken.json" in r.getMessage() and "'line': 3" in r.getMessage()
                   for r in caplog.records)
        text = await Table(core).text("alice", ".draw 破")
        assert text == "⚠ 牌堆檔 broken.json 不是有效的 JSON：第 3 行第 7 字附近有錯。"
        assert await Table(core).text("alice", ".draw 塔羅牌三張", dice=[1, 1, 1, 1, 1, 1])
    finally:
        await core.close()


async def test_an_unknown_name_and_a_cycle_are_refused_without_a_die(
        tmp_path: Path) -> None:
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "loop.json").write_text('{"圈": ["{%圈}"]}', "utf-8")
    core = await Core.open(make_settings(tmp_path))
    try:
        table = Table(core)
        assert await table.text("alice", ".draw 圈", dice=[]) == \
            "⚠ 牌堆檔 loop.json 的牌組互相引用成一個圈（圈 → 圈），永遠抽不完，所以不抽。"
        assert await table.text("alice", ".draw 沒有這個", dice=[]) == \
            "⚠ 沒有叫「沒有這個」的牌組；.draw keys 列出能抽的牌組。"
        assert await table.text("alice", ".draw 塔羅", dice=[]) == \
            "⚠ 沒有叫「塔羅」的牌組；相近的有：塔羅牌 / 塔羅牌三張"
    finally:
        await core.close()


@pytest.mark.parametrize(("lang", "expected"), [
    ("zh-Hant", "抽牌：.draw <牌組> [次數]"),
    ("zh-Hans", "抽牌：.draw <牌组> [次数]"),
    ("en", "Draw: .draw <list> [n]"),
])
async def test_help_tells_draw_in_every_language(table: Table, lang: str,
                                                 expected: str) -> None:
    await table.text("alice", f".lang {lang}")
    assert (await table.text("alice", ".help draw")).startswith(".draw / .deck / .抽牌\n"
                                                               + expected)
    assert ".draw" in await table.text("alice", ".help")
    hidden = await table.text("alice", ".help drawh")
    assert hidden.startswith(".drawh / .暗抽\n")


async def test_an_english_table_draws_in_english(table: Table) -> None:
    await table.text("alice", ".lang en")
    outs = await table.say("alice", ".draw tarot", dice=[1, 1])
    assert outs[0].text == ("🃏 alice drew from [tarot]: The Fool, upright: take the first "
                            "step, even with the bags half packed")


async def test_deck_text_is_one_line_and_escaped_on_every_platform(
        operator_table: Table) -> None:
    outs = await operator_table.say("alice", ".draw 危險")
    text = outs[0].text
    # One line: the entry's line break cannot start a line of its own.
    assert text == ("🃏 alice 從〔危險〕抽到：x 🎲 alice：1d20 = 20 @everyone <@123> "
                    "[CQ:at,qq=all]")
    assert outs[0].data["results"] == ["x 🎲 alice：1d20 = 20 @everyone <@123> "
                                       "[CQ:at,qq=all]"]
    # Discord: no mention, no markup.
    discord = "".join(message_pieces(text))
    assert "@everyone" not in discord and "@\u200beveryone" in discord
    assert "\\<@123>" in discord  # shown literally, no ping
    # QQ: one text segment, the CQ code never parsed.
    message = to_message(text)
    assert [segment.type for segment in message] == ["text"]
    # Plurk: no @ mention.
    assert "@" not in neutralise(text)



@pytest.mark.parametrize(("lang", "expected"), [
    ("zh-Hant", ["🃏 牌堆（3 個）：", "・人名：隨機人名", "・神諭：神諭",
                 "・塔羅：塔羅牌 / 塔羅牌三張"]),
    ("zh-Hans", ["🃏 牌堆（3 个）：", "・人名：随机人名", "・神谕：神谕",
                 "・塔罗：塔罗牌 / 塔罗牌三张"]),
    ("en", ["🃏 Decks (3):", "- Names: 隨機人名 / 随机人名", "- Oracle: oracle",
            "- Tarot: tarot / tarot3"]),
])
async def test_the_deck_list_is_in_the_readers_script(table: Table, lang: str,
                                                       expected: list[str]) -> None:
    """Play-test finding: `.draw list` listed every bundled name in 繁, 简 and English
    (“人名 / 人名 / Names：隨機人名 / 随机人名” to an English table, 繁 to a 简 one);
    each reader now gets the names in their script (a deck with none: all of them,
    they are what is typed), and every name still draws."""
    await table.text("alice", f".lang {lang}")
    assert (await table.text("alice", ".draw list")).splitlines()[:4] == expected
    assert "🃏" in await table.text("alice", ".draw 神諭", dice=[1])
