"""Habits players bring from other dice bots (issue 12: items 9, 10 and 12): replies
name characters, `.nn` nicknames, Chinese command names, sheets for the GM."""

from __future__ import annotations

import pytest

from tests.support import Table


async def test_replies_name_the_active_character(table: Table) -> None:
    await table.text("alice", ".pc new 艾莉絲")
    assert await table.text("alice", ".r 1d20 開門", dice=[7]) == (
        "🎲 艾莉絲「開門」：1d20 = [7] = 7")
    await table.text("gm", ".gm")
    outs = await table.say("alice", ".rh 1d20", dice=[12])
    assert [(o.to, o.user, o.text) for o in outs] == [
        ("channel", None, "🎲 艾莉絲 進行了一次暗骰。"),
        ("private", "alice", "（暗骰）🎲 艾莉絲：1d20 = [12] = 12"),
        ("private", "gm", "（艾莉絲 的暗骰）🎲 艾莉絲：1d20 = [12] = 12")]


async def test_nn_names_a_player_without_a_sheet(table: Table) -> None:
    assert await table.text("keeper", ".r d6", dice=[4]) == "🎲 keeper：1d6 = [4] = 4"
    assert await table.text("keeper", ".nn") == (
        "keeper 還沒有設定暱稱；用 .nn 名字 設定（沒有角色卡時，回覆就用這個名字稱呼你）。")
    assert await table.text("keeper", ".nn 守密人") == "好的，之後沒有角色卡時稱呼你為 守密人。"
    assert await table.text("keeper", ".r d6", dice=[4]) == "🎲 守密人：1d6 = [4] = 4"
    assert await table.text("keeper", ".暱稱") == "你的暱稱：守密人"
    assert await table.text("bob", ".r d6", dice=[2]) == "🎲 bob：1d6 = [2] = 2"  # per player
    await table.text("keeper", ".pc new 老湯姆")  # a sheet wins over the nickname
    assert await table.text("keeper", ".r d6", dice=[4]) == "🎲 老湯姆：1d6 = [4] = 4"
    assert await table.text("keeper", ".nn del") == "已清除 keeper 的暱稱。"
    assert await table.text("keeper", ".nn del") == "⚠ 你沒有設定暱稱。"
    assert await table.text("keeper", ".nn " + "x" * 51) == "⚠ 角色名稱最多 50 字。"


async def test_common_commands_answer_to_chinese_names(table: Table) -> None:
    assert await table.text("u", ".骰 d6", dice=[3]) == "🎲 u：1d6 = [3] = 3"
    assert await table.text("u", "。擲骰 d6", dice=[5]) == "🎲 u：1d6 = [5] = 5"
    assert await table.text("u", ".角色") == "你在本頻道還沒有角色。用 .pc new <名字> 建立。"
    for name in (".幫助", ".說明", ".帮助", ".说明"):
        assert (await table.text("u", name)) == await table.text("u", ".help"), name
    assert await table.text("u", ".系統") == await table.text("u", ".system")
    assert await table.text("u", ".語言 en") == "This channel now replies in English."
    assert await table.say("u", ".骰子好可愛", dice=[]) != []  # a command, refused or not
    assert await table.say("u", "骰 d6") == []  # no prefix: chatter


async def test_st_show_of_another_player_for_the_gm_or_the_owner(table: Table) -> None:
    await table.text("gm", ".gm")
    await table.text("alice", ".pc new 艾莉絲")
    await table.text("alice", ".st 觀察 5 體力 10")
    expected = "艾莉絲：技能 觀察:5｜資源 體力:10"
    assert await table.text("gm", ".st show @alice") == expected
    assert await table.text("alice", ".st show @alice") == expected
    assert await table.text("gm", ".st show @alice 觀察") == "艾莉絲：觀察:5"
    assert await table.text("bob", ".st show @alice") == "⚠ 只有該角色的玩家或 GM 可以這麼做。"
    assert await table.text("gm", ".st show @carol") == "⚠ 找不到「@carol」的角色。"


async def test_st_show_is_grouped_by_attributes_skills_resources(table: Table) -> None:
    # 名聲 is no system's stat (幸運 was, until coc7 declared it LUCK)
    await table.text("u", ".st 理智 40 觀察 5 靈巧 3 名聲 7 力量 2")
    assert await table.text("u", ".st show") == (
        "u：屬性 靈巧:3 力量:2｜技能 觀察:5｜資源 理智:40｜其他 名聲:7")
    await table.text("u", ".lang en")
    assert await table.text("u", ".st show") == (
        "u: attributes DEX:3 STR:2 | skills Observe:5 | resources SAN:40 | other 名聲:7")
    await table.text("v", ".st 觀察 1")
    assert await table.text("v", ".st show") == "v: Observe:1"  # one kind: no labels


async def test_party_shows_everyone_at_a_glance(table: Table) -> None:
    await table.text("gm", ".gm")
    await table.text("gm", ".ap set 4")
    await table.text("alice", ".pc new 艾莉絲")
    await table.text("alice", ".st 體力 10 理智 50 因果點數 3")
    await table.text("bob", ".st 體力 8")
    outs = await table.say("gm", ".party")
    assert [o.text for o in outs] == [
        "👥 全隊一覽（AP 4）\n艾莉絲：體力 10｜理智 50｜因果 3\nbob：體力 8｜理智 ?｜因果 0"]
    assert outs[0].data == {"kind": "plurk_party", "ap": 4, "members": [
        {"character": "艾莉絲", "user": "alice", "hp": 10, "san": 50, "cp": 3},
        {"character": "bob", "user": "bob", "hp": 8, "cp": 0}]}
    # CP missing from a sheet counts as 0 (PL-12): .party agrees with .cp
    assert await table.text("gm", ".cp bob") == "bob 的因果點數：0"
    await table.text("gm", ".lang en")
    assert await table.text("gm", ".party") == (
        "👥 The party (AP 4)\n艾莉絲: HP 10 | SAN 50 | CP 3\nbob: HP 8 | SAN ? | CP 0")
    await table.text("gm", ".lang zh-Hans")
    assert await table.text("gm", ".party") == (
        "👥 全队一览（AP 4）\n艾莉絲：体力 10｜理智 50｜因果 3\nbob：体力 8｜理智 ?｜因果 0")


async def test_a_typo_of_a_command_gets_did_you_mean(table: Table) -> None:
    assert await table.text("u", ".hlep") == "⚠ 沒有 .hlep 這個指令；是要 .help 嗎？"
    assert await table.text("u", ".sytem") == "⚠ 沒有 .sytem 這個指令；是要 .system 嗎？"
    assert await table.text("u", ".batle start") == (
        "⚠ 沒有 .batle 這個指令；是要 .battle 嗎？")
    # short words, other bots' commands and chatter stay silent
    for line in (".ob", ".jrrp", ".dnd5e", ".rabbit", ".passive", ".hello world", "...",
                 ".bot on"):
        assert await table.say("u", line) == [], line
    # `.coc7` was another bot's until coc7 made `.coc` (7 investigators) a command here
    assert await table.text("u", ".coc7") == (
        "⚠ .coc 是 coc7 規則系統的指令；本頻道玩的是 plurk（可用 .system 切換）。")


@pytest.mark.parametrize(("system", "shown", "other"), [
    ("ace", "力量 6 敏捷 5 體質 4", "觀察"),
    ("ap20+v6", "力量 14 敏捷 12 生命 18", "觀察"),
    ("plurk", "觀察 5 靈巧 12", "力量"),
])
async def test_st_help_names_the_tables_own_stats(
        table: Table, system: str, shown: str, other: str) -> None:
    """Issue 24: `.help st` at an ace table showed plurk's stats."""
    await table.text("gm", f".system {system}")
    usage = await table.text("gm", ".help st")
    assert shown in usage and other not in usage
    listed = [line for out in await table.say("gm", ".help all") for line in out.text.split("\n")
              if line.startswith(".st ")]
    assert len(listed) == 1 and shown in listed[0] and other not in listed[0]
