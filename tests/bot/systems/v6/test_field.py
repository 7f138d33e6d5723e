"""v6 on ap20 through a real Core (V6-1 … V6-4): the field, postures paid in action
points, moves paid in fatigue, and what facing and posture do to ap20's attacks.

The table plays `ap20+v6`: GM `gm`; `p1` plays 艾莉絲 (an archer: 命中 5, 破甲 1, 步幅 4,
靈巧 4, 強壯 4), `p2` 鮑伯 (命中 4, 破甲 2, 護甲 3, 招架 2), `p3` 卡蘿 (命中 3, 破甲 3);
the GM's 斥候 (hp 14, 護甲 1, 閃避 4, 招架 2). Initiative is set: 艾莉絲 18, 鮑伯 15,
卡蘿 12, 斥候 10. Field: 艾莉絲 A1, 鮑伯 E4, 卡蘿 F7, 斥候 E5 facing north.
"""

from __future__ import annotations

from typing import Any

from tests.support import Table


async def prepare(table: Table) -> None:
    await table.text("gm", ".gm")
    await table.text("gm", ".system ap20+v6")
    for user, name, sheet, init in (
            ("p1", "艾莉絲", "命中 5 破甲 1 護甲 1 閃避 2 生命 18 步幅 4 靈巧 4 強壯 4", 18),
            ("p2", "鮑伯", "命中 4 破甲 2 護甲 3 招架 2 生命 22", 15),
            ("p3", "卡蘿", "命中 3 破甲 3 護甲 4 生命 24", 12)):
        await table.text(user, f".pc new {name}")
        await table.text(user, f".st {sheet}")
        await table.text(user, f".init join ={init}")
    await table.text("gm", ".init add 斥候 hp=14 護甲=1 閃避=4 招架=2 命中=3 破甲=1 init=10")
    for line in (".place 艾莉絲 A1 SE", ".place 鮑伯 E4 W", ".place 卡蘿 F7 N",
                 ".place 斥候 E5 北"):
        await table.text("gm", line)


async def started(table: Table) -> None:
    await prepare(table)
    await table.text("gm", ".init next")


async def data(table: Table, user: str, text: str, dice: list[int] | None = None
               ) -> tuple[str, dict[str, Any]]:
    outs = await table.say(user, text, dice)
    [out] = [o for o in outs if o.to == "channel"]
    assert out.data is not None, out.text
    return out.text, out.data


async def gm_copy(table: Table, user: str, text: str, dice: list[int] | None = None
                  ) -> tuple[str, str, dict[str, Any]]:
    """A reply about the GM's 斥候: the channel's text and the GM's private copy with
    its numbers (issue 24), and that copy's data."""
    outs = await table.say(user, text, dice)
    [public] = [o for o in outs if o.to == "channel"]
    [secret] = [o for o in outs if o.to == "private" and o.user == "gm"]
    assert secret.data is not None, secret.text
    return public.text, secret.text, secret.data


async def test_placing_and_the_map(table: Table) -> None:
    await prepare(table)
    # V6-4: bases never overlap
    assert await table.text("gm", ".place 卡蘿 E5") == "⚠ 卡蘿 放到 E5 會和 斥候 的底盤重疊。"
    assert await table.text("gm", ".place 卡蘿 M1") == "⚠ M1 在場地外（場地到 L12）。"
    assert await table.text("gm", ".place 路人 A2") == (
        "⚠ 戰鬥中沒有「路人」。參戰者：艾莉絲 / 鮑伯 / 卡蘿 / 斥候")
    # a player places their own before the fight, not someone else's
    assert await table.text("p3", ".place 卡蘿 F5 N") == "📍 卡蘿 F5↑ 站立 疲勞0（中型）"
    # a player names no one: their own fighter
    assert await table.text("p3", ".place F6") == "📍 卡蘿 F6↑ 站立 疲勞0（中型）"
    assert await table.text("p3", ".place 斥候 A6") == (
        "⚠ 斥候 是 GM 的角色：只有 GM 能替 斥候 行動。")
    outs = await table.say("p1", ".map")
    assert outs[0].block
    lines = outs[0].text.splitlines()
    assert lines[0] == "🗺 場地 12×12（1 格 = 1 步）"
    assert lines[5] == " 4 . . . . b . . . . . . ."
    assert lines[14:] == ["a 艾莉絲 A1↘ 站立 疲勞0", "b 鮑伯 E4← 站立 疲勞0",
                          "c 卡蘿 F6↑ 站立 疲勞0", "d 斥候 E5↑ 站立"]


async def test_facing_on_ones_own_turn(table: Table) -> None:
    """V6-1: facing changes only on one's own turn."""
    await started(table)
    assert await table.text("p2", ".face 北") == (
        "⚠ 鮑伯 只能在自己的回合轉向或移動：現在輪到 艾莉絲。")
    text, face = await data(table, "p1", ".face 斥候")
    assert text == "艾莉絲 轉向 135°↘（原 135°）"
    text, face = await data(table, "p1", ".face 東")
    assert (face["before"], face["after"]) == (135, 90)


async def test_postures_cost_action_points(table: Table) -> None:
    """V6-2: an instant action is 1 AP, a tactical action 3 AP — only on one's turn."""
    await started(table)
    assert await table.text("p1", ".pose 蹲伏") == "艾莉絲：站立→蹲伏，即時行動×1 行動力 −1 6→5"
    assert await table.text("p1", ".pose 蹲") == "⚠ 艾莉絲 已經是蹲伏了。"
    # off-turn: an instant change is allowed, a tactical one is not
    assert await table.text("p2", ".pose 匍匐") == (
        "⚠ 戰術行動×1只能在自己的回合：現在輪到 艾莉絲。")
    assert await table.text("p2", ".pose 骑坐") == "鮑伯：站立→騎坐，即時行動×1 行動力 −1 6→5"
    # crawl → stand is two tactical actions: 6 AP, more than 艾莉絲 has after crawling
    assert await table.text("p1", ".pose 匍匐") == "艾莉絲：蹲伏→匍匐，即時行動×1 行動力 −1 5→4"
    assert await table.text("p1", ".pose 站立") == "⚠ 行動力不足：戰術行動×2要 6 點，只剩 4。"
    assert "匍匐" in await table.text("p1", ".map")


async def test_a_crouching_archer_against_a_crawling_target(table: Table) -> None:
    """V6-2 through AP-6: crouching shot +1, target crawling −2 → one disadvantage (the
    lower of two d20), and the crawling target cannot parry."""
    await started(table)
    await table.text("p1", ".pose 蹲伏")
    await table.text("gm", ".init set 斥候 ap=6")
    # the scout drops on its turn — here the GM moves it on for the test
    await table.text("p1", ".pass")
    await table.text("p2", ".pass")
    await table.text("p3", ".pass")
    assert (await table.text("gm", ".pose 匍匐")).startswith("斥候：站立→匍匐，戰術行動×1")
    await table.text("gm", ".pass")
    outs = await table.say("p1", ".atk 斥候 1d8+1 射擊 穿刺", [15, 8, 5])
    [text] = [o.text for o in outs if o.to == "channel"]
    [atk] = [o.data for o in outs if o.to == "private" and o.user == "gm"]
    assert atk is not None
    assert text.splitlines()[0] == (
        "⚔ 艾莉絲→斥候（射擊｜優勢1·劣勢2｜蹲伏射擊+1、目標匍匐-2）："
        "d20[15,8]取低8 +命中5+破甲1 = 14（不計招架） → 命中")  # 斥候's defence is the GM's
    assert (atk["check"]["advantage"], atk["check"]["disadvantage"], atk["check"]["raw"]) == (
        1, 2, 8)
    assert atk["defense"]["counted"] == {"armor": 1, "dodge": 4, "block": 0}
    # crawling, only a shot: the scout cannot stab
    await table.text("gm", ".init set 斥候 ap=6")
    assert await table.text("gm", ".atk 艾莉絲 1d6 by=斥候 opp") == (
        "⚠ 匍匐時只能用直射武器遠程攻擊，不能近戰。")


async def test_a_flank_from_behind_is_an_undefendable_sneak_attack(table: Table) -> None:
    """V6-1 and AP-7: 卡蘿 attacks 斥候 (facing north) from behind while 鮑伯 stands
    adjacent: the scout cannot defend (armor only, no reaction) and it is a sneak
    attack (advantage, 命中 +10, 重擊強度 +10)."""
    await started(table)
    await table.text("p1", ".pass")
    await table.text("p2", ".pass")
    public, text, atk = await gm_copy(table, "p3", ".atk 斥候 1d8 揮砍", [4, 9, 6])
    assert text.splitlines() == [
        "⚔ 卡蘿→斥候（優勢1｜偷襲：優勢1、重擊強度+10｜背後：無法防禦、與 鮑伯 夾擊）："
        "d20[4,9]取高9 +命中3+破甲3+偷襲10 = 25 ≥ 防禦 1（僅護甲：無法防禦） → 命中",
        "💥 1d8=[6]=6 揮砍 → 斥候 生命 14→8",
        "行動力 卡蘿 6→3"]
    assert public.splitlines()[1] == "💥 1d8=[6]=6 揮砍 → 斥候 受傷"
    assert atk["defended"] is False and atk["reaction"]["after"] == 6
    assert atk["tactics"] == {"sector": "back", "distance": 1, "flank": "鮑伯"}
    # from the front it is defended
    text, atk = await data(table, "gm", ".atk 鮑伯 1d4 by=斥候 opp", [12, 2])
    assert atk["defended"] is True and atk["tactics"]["sector"] == "side"


async def test_moves_cost_fatigue(table: Table) -> None:
    """V6-3: each fatigue buys a stride of steps; crouching halves the stride;
    sitting no own move; lying only a 1-step roll for a tactical action (3 AP)."""
    await started(table)
    text, move = await data(table, "p1", ".move A5")
    assert text == "👣 艾莉絲 A1→A5：4 步，步幅 4；疲勞 +1 0→1"
    assert (move["walked"], move["stride"], move["fatigue_after"]) == (4, 4, 1)
    await table.text("p1", ".pose 蹲伏")
    # decision 12: a second move in a turn is a standalone one, a tactical action (3 AP)
    assert await table.text("p1", ".move C5") == (
        "👣 艾莉絲 A5→C5：2 步，步幅 2；疲勞 +1 1→2；單獨移動，戰術行動×1 行動力 −3 5→2")
    assert await table.text("p1", ".move C7 vault=2") == (
        "⚠ 障礙高 2 步，要低於 靈巧÷2 = 2 才能翻越。")
    assert await table.text("p1", ".move C6 vault=1") == (
        "⚠ 行動力不足：這次移動是本回合第二次的單獨移動，算一個戰術行動，要 3 點，只剩 2。")
    await table.text("gm", ".init set 艾莉絲 ap=5")
    assert await table.text("p1", ".move C6 vault=1") == (
        "👣 艾莉絲 C5→C6：1 步，步幅 2，障礙 +2 步；疲勞 +2 2→4；單獨移動，戰術行動×1 "
        "行動力 −3 5→2")
    assert await table.text("p2", ".move E3") == (
        "⚠ 鮑伯 只能在自己的回合轉向或移動：現在輪到 艾莉絲。")
    await table.text("p1", ".pose 骑坐")
    assert await table.text("p1", ".move C7") == "⚠ 騎坐時不能自己移動（先改姿勢）。"
    await table.text("p1", ".pass")
    await table.text("p2", ".pose 躺倒")
    assert await table.text("p2", ".move E2") == (
        "⚠ 鮑伯 躺倒中，只能翻滾到相鄰的 1 格（花 1 個戰術行動）。")
    assert await table.text("p2", ".move D3") == "鮑伯 翻滾 E4→D3，戰術行動×1 行動力 −3 3→0"
    # the GM's 斥候's fatigue is the GM's (issue 24): a GM asking gets it privately
    assert await table.text("p1", ".fatigue") == "疲勞：艾莉絲 4、鮑伯 0、卡蘿 0"
    outs = await table.say("gm", ".fatigue")
    assert [(o.to, o.text) for o in outs] == [
        ("channel", "疲勞：艾莉絲 4、鮑伯 0、卡蘿 0"),
        ("private", "疲勞：艾莉絲 4、鮑伯 0、卡蘿 0、斥候 0")]
    outs = await table.say("gm", ".fatigue 斥候 2")
    assert [(o.to, o.text) for o in outs] == [
        ("channel", "GM 調整了 斥候 的疲勞。"), ("private", "斥候 的疲勞 0→2")]
    assert await table.text("gm", ".fatigue 艾莉絲") == "艾莉絲 的疲勞 4→0"


async def test_forced_moves_stop_at_bases(table: Table) -> None:
    await started(table)
    assert await table.text("gm", ".shove 斥候 E1") == (
        "斥候 被迫移動 E5→E5（0 步，不花疲勞），撞上 鮑伯 停下")
    assert await table.text("gm", ".shove 斥候 H5") == "斥候 被迫移動 E5→H5（3 步，不花疲勞）"
    assert await table.text("p1", ".shove 斥候 A5") == "⚠ 只有本頻道的 GM 可以這麼做。"


async def test_english(table: Table) -> None:
    await started(table)
    await table.text("gm", ".lang en")
    assert await table.text("p1", ".pose crouch") == (
        "艾莉絲: standing→crouching, instant action×1 AP −1 6→5")
    assert await table.text("p1", ".move A3") == (
        "👣 艾莉絲 A1→A3: distance 2, stride 2; fatigue +1 0→1")
    assert await table.text("p1", ".move A3") == (
        "⚠ 艾莉絲 is on A3 already: name another cell to move to.")
    assert (await table.text("p1", ".help pose")).startswith(".pose / ")


async def test_the_move_goes_before_the_attack(table: Table) -> None:
    """Decision 12 (the seed's 转向和移动): the turn's first move, before its attack,
    costs only fatigue; a move after the attack is a tactical action of its own;
    turning on one's own turn is free."""
    await started(table)
    await table.text("gm", ".place 艾莉絲 D4 S")
    assert await table.text("p1", ".move D6") == "👣 艾莉絲 D4→D6：2 步，步幅 4；疲勞 +1 0→1"
    await gm_copy(table, "p1", ".atk 斥候 1d4", [15, 3, 2])
    assert await table.text("p1", ".move D7") == (
        "👣 艾莉絲 D6→D7：1 步，步幅 4；疲勞 +1 1→2；單獨移動，戰術行動×1 行動力 −3 3→0")
    assert await table.text("p1", ".face 北") == "艾莉絲 轉向 0°↑（原 180°）"
    # the next turn starts afresh
    await table.text("p1", ".pass")
    assert await table.text("p2", ".move E3") == "👣 鮑伯 E4→E3：1 步，步幅 3；疲勞 +1 0→1"


async def test_the_fallen_and_those_who_left(table: Table) -> None:
    """Issue 24 on the field: one who left the fight frees its cell at once; the down
    and the dead keep theirs, are marked in the map's legend and cannot move; the
    place reply and the legend name 食草 and 震感."""
    await started(table)
    assert await table.text("gm", ".place 斥候 E5 北 震感") == "📍 斥候 E5↑ 站立 震感（中型）"
    assert await table.text("gm", ".place 卡蘿 F7 N 食草") == "📍 卡蘿 F7↑ 站立 食草 疲勞0（中型）"
    assert await table.text("p1", ".move E5") == "⚠ 艾莉絲 放到 E5 會和 斥候 的底盤重疊。"
    await table.text("gm", ".init remove 斥候")
    assert await table.text("p1", ".move E5") == "👣 艾莉絲 A1→E5：5 步，步幅 4；疲勞 +2 0→2"
    await table.text("gm", ".init set 鮑伯 hp=0")
    await table.text("gm", ".init set 卡蘿 +死亡")
    assert (await table.text("gm", ".map")).splitlines()[-3:] == [
        "a 艾莉絲 E5↘ 站立 疲勞2", "b 鮑伯 E4← 站立 疲勞0（倒下）",
        "c 卡蘿 F7↑ 站立 食草 疲勞0（死亡）"]
    assert await table.text("gm", ".move D4 by=鮑伯") == "⚠ 鮑伯 已倒下，不能行動。"
    assert await table.text("gm", ".pose 蹲伏 by=卡蘿") == "⚠ 卡蘿 已死亡，不能行動。"
    # a body keeps its cell (v6 decision 13)
    assert await table.text("gm", ".shove 艾莉絲 E3") == (
        "艾莉絲 被迫移動 E5→E5（0 步，不花疲勞），撞上 鮑伯 停下")
    # `.field` (plurk's word for the board) shows the map here
    assert (await table.text("p1", ".field")).startswith("🗺 場地 12×12")


async def test_an_enemys_move_keeps_its_numbers_the_gms(table: Table) -> None:
    """Issue 24, second round: the GM's 斥候 moves — the channel reads the cells, the
    steps and the action it took; the GM its stride, fatigue and action points; a
    refusal for want of points names none."""
    await started(table)
    for user in ("p1", "p2", "p3"):
        await table.text(user, ".pass")
    public, secret, moved = await gm_copy(table, "gm", ".move E6")
    assert (public, secret) == ("👣 斥候 E5→E6：1 步",
                                "👣 斥候 E5→E6：1 步，步幅 3；疲勞 +1 0→1")
    assert (moved["stride"], moved["fatigue_after"]) == (3, 1)
    await table.text("gm", ".ap set 斥候 2")
    assert await table.text("gm", ".move E5") == (
        "⚠ 這次移動是本回合第二次的單獨移動，算一個戰術行動：斥候 的行動力不夠做這個動作"
        "（還剩多少只有 GM 看得到：.ap）。")
