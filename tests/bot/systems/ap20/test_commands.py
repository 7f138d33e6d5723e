"""ap20 through a real Core (AP-1 … AP-9): the fight, action points, attacks, saves.

The standard table: GM `gm`; `p1` plays 艾莉絲 (敏捷 14 → +2, 命中 5, 破甲 1, 護甲 1,
閃避 2, 生命 18, 精神力 6, 耐力 10), `p2` plays 鮑伯 (敏捷 12 → +1, 命中 4, 破甲 2,
護甲 3, 招架 2, 生命 22); the GM's 哥布林 (hp 12, 護甲 2, 閃避 3, 命中 3, 破甲 1,
火焰 resistance 3). Initiative is set (`=N`), so the order is 艾莉絲 18, 鮑伯 15, 哥布林 10.
"""

from __future__ import annotations

from typing import Any

from bot.messages import Outgoing
from tests.support import Table


async def prepare(table: Table, system: str = "ap20") -> None:
    await table.text("gm", ".gm")
    await table.text("gm", f".system {system}")
    await table.text("p1", ".pc new 艾莉絲")
    await table.text("p1", ".st 敏捷 14 命中 5 破甲 1 護甲 1 閃避 2 生命 18 精神力 6 耐力 10")
    await table.text("p2", ".pc new 鮑伯")
    await table.text("p2", ".st 敏捷 12 命中 4 破甲 2 護甲 3 招架 2 生命 22")
    await table.text("p1", ".init join =18")
    await table.text("p2", ".init join =15")
    await table.text("gm", ".init add 哥布林 hp=12 護甲=2 閃避=3 命中=3 破甲=1 火焰=3 init=10")


async def started(table: Table, system: str = "ap20") -> None:
    await prepare(table, system)
    await table.text("gm", ".init next")


async def data(table: Table, user: str, text: str, dice: list[int] | None = None
               ) -> tuple[str, dict[str, Any]]:
    outs = await table.say(user, text, dice)
    [out] = [o for o in outs if o.to == "channel"]
    assert out.data is not None, out.text
    return out.text, out.data


async def gm_copy(table: Table, user: str, text: str, dice: list[int] | None = None
                  ) -> tuple[str, str, dict[str, Any]]:
    """A reply about a GM-run fighter: the channel's text, and the GM's private copy
    with its numbers (issue 24) and that copy's data."""
    outs = await table.say(user, text, dice)
    [public] = [o for o in outs if o.to == "channel"]
    [secret] = [o for o in outs if o.to == "private" and o.user == "gm"]
    assert secret.data is not None, secret.text
    return public.text, secret.text, secret.data


async def test_system_choice_and_a_layer_alone(table: Table) -> None:
    await table.text("gm", ".gm")
    assert await table.text("gm", ".system ap20") == "本頻道的規則系統改為 ap20（規則書·戰鬥篇）。"
    assert await table.text("gm", ".system v6") == (
        "⚠ v6 是疊加在 ap20 上的規則層，不能單獨使用：請用 .system ap20+v6")
    assert (await table.text("gm", ".system plurk+v6")).startswith("⚠ 沒有「plurk+v6」")
    assert await table.text("gm", ".system ap20+v6") == (
        "本頻道的規則系統改為 ap20+v6（規則書·戰鬥篇 + 站位與姿勢）。")
    assert (await table.text("gm", ".system")).startswith(
        "本頻道的規則系統：ap20+v6（規則書·戰鬥篇 + 站位與姿勢）。")
    # back to plain ap20: the v6 commands explain where they belong
    await table.text("gm", ".system ap20")
    assert (await table.text("p1", ".pose 蹲伏")).startswith("⚠ .pose 是 v6 規則系統的指令")


async def test_joining_and_the_order(table: Table) -> None:
    await table.text("gm", ".gm")
    await table.text("gm", ".system ap20")
    await table.text("p1", ".pc new 艾莉絲")
    await table.text("p1", ".st 敏捷 14")
    # decision 2: d20 + 敏捷 modifier (14 → +2)
    text, fight = await data(table, "p1", ".init join", [9])
    assert text == "艾莉絲 加入戰鬥（我方）：先攻 11（d20 9 + 敏捷 2），排第 1，行動力 6"
    assert fight["fight"]["fighters"][0]["init_rolls"] == [9]
    # AP-8: a tier-3 monster adds 2 to its initiative (an attribute check); 體質 14 ×5×3
    public, text, fight = await gm_copy(table, "gm", ".init add 巨魔 體質=14 tier=3 敏捷=10",
                                        [12])
    assert text.splitlines() == [
        "巨魔 加入戰鬥（敵方）：先攻 14（d20 12 + 敏捷 0 + 等階 2），排第 1，行動力 6",
        "📋 巨魔：生命 210/210、體質 14、敏捷 10、等階 3"]
    # issue 24: the channel sees the name and the place, the GMs the numbers
    assert public == "巨魔 加入戰鬥（敵方）：先攻 14，排第 1"
    troll = fight["fight"]["fighters"][0]
    assert (troll["name"], troll["stats"]["hp"], troll["tier"]) == ("巨魔", 210, 3)
    assert await table.text("p1", ".ri") == "⚠ 艾莉絲 已經在戰鬥中。"
    assert await table.text("p1", ".init add 哥布林") == "⚠ 只有本頻道的 GM 可以這麼做。"
    assert (await table.text("p1", ".init")).splitlines() == [
        "⚔ 戰鬥準備中（GM 用 .init start 開始）",
        "  1. 巨魔（敵方）先攻 14｜毫髮無傷",
        "  2. 艾莉絲（我方）先攻 11｜行動力 6/6"]


async def test_ap_spend_refusal_and_refill_at_turn_start(table: Table) -> None:
    """AP-1: costs, a spend that would go below 0, own-turn actions, the refill."""
    await started(table)
    text, ap = await data(table, "p1", ".ap 標準施法")
    assert text == "艾莉絲：標準施法 −3 行動力 6→3，精神力 −3 6→3"
    assert ap["spend"]["mp_after"] == 3
    assert await table.text("p1", ".ap 戰技") == "⚠ 行動力不足：戰技要 5 點，只剩 3。"
    # a maneuver's stamina is doubled: refused first for AP, so spend a swift action
    assert await table.text("p1", ".ap 迅捷") == "艾莉絲：迅捷動作 −2 行動力 3→1"
    # 鮑伯 may react on 艾莉絲's turn, not take a standard action
    assert await table.text("p2", ".ap 反應") == "鮑伯：反應動作 −1 行動力 6→5"
    assert await table.text("p2", ".ap 標準") == (
        "⚠ 標準動作只能在自己的回合用：現在輪到 艾莉絲。")
    assert await table.text("p2", ".pass") == (
        "⚠ 現在是 艾莉絲 的回合，只有 艾莉絲 的玩家或 GM 能結束。")
    # the sheet's 精神力 was written
    assert "精神力:3" in await table.text("p1", ".st")
    outs = await table.say("p1", ".pass")
    assert outs[0].text == "▶ 輪到 鮑伯（行動力 6/6）"
    assert outs[0].notify == ("p2",)
    assert outs[0].data["turn"]["ap_before"] == 5 and outs[0].data["turn"]["ap_after"] == 6
    # a maneuver with a stamina cost on one's own turn
    await table.text("p2", ".pass")
    await table.text("gm", ".pass")  # round 2: 艾莉絲 again, refilled
    text, ap = await data(table, "p1", ".ap 戰技 耐力=3")
    assert text == "艾莉絲：戰技 −5 行動力 6→1，耐力 −3×2 10→4"
    assert await table.text("p1", ".ap") == "行動力：艾莉絲 1/6、鮑伯 6/6"


async def test_an_attack_with_defense_damage_and_resistance(table: Table) -> None:
    """AP-2 … AP-4, AP-9: 艾莉絲 (命中 5 破甲 1) hits 哥布林 (defence 2+3 = 5), who
    reacts for 1 AP; a fire hit is resisted by 3."""
    await started(table)
    public, text, atk = await gm_copy(table, "p1", ".atk 哥布林 1d8+1 火焰", [7, 6])
    assert text.splitlines() == [
        "⚔ 艾莉絲→哥布林：d20=7 +命中5+破甲1 = 13 ≥ 防禦 5 → 命中",
        "💥 1d8+1=[6]+1=7 火焰，抗性 −3 = 4 → 哥布林 生命 12→8",
        "行動力 艾莉絲 6→3；哥布林 防禦反應 6→5"]
    # issue 24: the channel sees the GM's 哥布林's health band, not its HP
    assert public.splitlines()[1] == "💥 1d8+1=[6]+1=7 火焰 → 哥布林 受傷"
    assert (atk["check"]["total"], atk["defense"]["total"], atk["damage"]["taken"],
            atk["hp"]) == (13, 5, 4, {"before": 12, "after": 8})
    # a raw 20 crits: the dice doubled, the modifier once
    public, text, atk = await gm_copy(table, "p1", ".atk 哥布林 1d8+1", [20, 5])
    assert text.splitlines()[1] == "💥 重擊 1d8+1=[5]×2+1=11 → 哥布林 生命 8→0（倒下）"
    assert public.splitlines()[1] == "💥 重擊 1d8+1=[5]×2+1=11 → 哥布林 倒下"
    assert atk["check"]["crit_by"] == "raw20"
    # out of AP for a third attack
    assert await table.text("p1", ".atk 哥布林 1d8") == "⚠ 行動力不足：標準動作要 3 點，只剩 0。"


async def test_zero_ap_armor_only_and_crit_by_threshold(table: Table) -> None:
    """AP-2: a target at 0 AP counts armor only and spends nothing; AP-4: 重擊強度 5
    against 韌性 0 crits from 15."""
    await started(table)
    await table.text("gm", ".init set 鮑伯 ap=0")
    await table.text("p1", ".st 重擊強度 5")
    text, atk = await data(table, "p1", ".atk 鮑伯 1d4", [15, 3])
    assert text.splitlines()[0] == (
        "⚔ 艾莉絲→鮑伯：d20=15 +命中5+破甲1 = 21 ≥ 防禦 3（僅護甲：行動力 0） → "
        "命中，重擊（骰點 ≥ 15）")
    assert atk["defended"] is False and atk["reaction"] == {"before": 0, "after": 0}
    assert text.splitlines()[1] == "💥 重擊 1d4=[3]×2=6 → 鮑伯 生命 22→16"
    assert "生命:16" in await table.text("p2", ".st")
    # raw 1 never hits
    text, atk = await data(table, "gm", ".atk 艾莉絲 1d6 by=哥布林 opp", [1])
    assert text.splitlines()[0].endswith("→ 大失敗，未命中")
    assert atk["action"] == "swift" and atk["damage"] is None


async def test_sneak_attack_when_hidden_and_blindsight(table: Table) -> None:
    """AP-7: a hidden attacker rolls with advantage, 命中 +10, 重擊強度 +10; blindsight
    sees through it; AP-6: declared layers add up and cancel."""
    await started(table)
    # issue 24: a state that grants a benefit is the GM's to set
    assert await table.text("p1", ".init set 艾莉絲 +隱匿") == "⚠ 只有本頻道的 GM 可以這麼做。"
    assert (await table.text("gm", ".init set 艾莉絲 +隱匿")).startswith("已更新：")
    _, text, atk = await gm_copy(table, "p1", ".atk 哥布林 1d6", [3, 9, 4])
    assert text.splitlines()[0] == (
        "⚔ 艾莉絲→哥布林（優勢1｜偷襲：優勢1、重擊強度+10）：d20[3,9]取高9 +命中5+破甲1+偷襲10 "
        "= 25 ≥ 防禦 5 → 命中")
    assert text.splitlines()[-1] == "艾莉絲 攻擊後現身（隱匿解除）"
    assert atk["check"]["crit_threshold"] == 10 and atk["check"]["crit"] is False
    # 隱匿 ended with that attack: the next one is no sneak attack
    await table.text("gm", ".ap set 艾莉絲 6")
    _, atk = await data(table, "p1", ".atk 哥布林", [8])
    assert atk["check"]["sneak"] is False
    await table.text("gm", ".ap set 艾莉絲 6")
    await table.text("gm", ".init set 艾莉絲 +隱形")
    await table.text("gm", ".init set 哥布林 +盲視")
    text, atk = await data(table, "p1", ".atk 哥布林 adv2 dis", [2, 11])
    assert atk["check"]["sneak"] is False and atk["check"]["raw"] == 11
    assert text.splitlines()[0].startswith("⚔ 艾莉絲→哥布林（優勢2·劣勢1｜偷襲被識破）")


async def test_saves_dc_checks_defense_and_damage(table: Table) -> None:
    await started(table)
    # AP-5: raw 1 fails and takes a critical
    text, save = await data(table, "p1", ".save 敏捷 5", [1])
    assert text == "🛡 艾莉絲「敏捷」豁免：d20=1 敏捷+2 = 3 < DC 5 → 失敗（骰 1：失敗並承受重擊）"
    assert save["critical_taken"] is True
    text, save = await data(table, "p2", ".save 敏捷 30 +1", [20])
    assert save["success"] is True and save["auto"] == "raw20"
    assert await table.text("p1", ".dc 敏捷 +1") == "艾莉絲 的豁免難度（敏捷）= 10+2+1 = 13"
    assert await table.text("p1", ".ra 敏捷 12 adv", [4, 10]) == (
        "🎲 艾莉絲「敏捷」檢定：d20[4,10]取高10 敏捷+2 （優勢1） = 12 ≥ DC 12 → 成功")
    assert await table.text("p2", ".def") == "🛡 鮑伯 防禦 5：護甲3+閃避0+格擋0+招架2"
    # AP-9 damage without a check: 真實 ignores the resistance
    _, _, dmg = await gm_copy(table, "gm", ".dmg 哥布林 5 真實")
    assert (dmg["taken"], dmg["hp"]["after"]) == (5, 7)
    assert await table.text("p1", ".dmg 哥布林 5") == "⚠ 只有本頻道的 GM 可以這麼做。"


async def test_english_and_simplified(table: Table) -> None:
    await started(table)
    await table.text("gm", ".lang en")
    public, text, _ = await gm_copy(table, "p1", ".atk 哥布林 1d8+1 fire", [7, 6])
    assert text.splitlines() == [
        "⚔ 艾莉絲→哥布林: d20=7 +hit 5 +pen 1 = 13 ≥ defense 5 → hit",
        "💥 1d8+1=[6]+1=7 fire, resistance −3 = 4 → 哥布林 HP 12→8",
        "AP 艾莉絲 6→3; 哥布林 defends, AP 6→5"]
    assert public.splitlines()[1] == "💥 1d8+1=[6]+1=7 fire → 哥布林 wounded"
    assert await table.text("p1", ".ap maneuver") == "⚠ Not enough AP: a maneuver costs 5, 3 left."
    await table.text("gm", ".lang zh-Hans")
    assert await table.text("p1", ".ap") == "行动力：艾莉絲 3/6、鮑伯 6/6"


async def test_the_fight_survives_and_ends(table: Table) -> None:
    await started(table)
    await table.text("p1", ".pass")
    await table.text("p2", ".pass")
    outs: list[Outgoing] = await table.say("gm", ".init next")
    assert outs[0].text == "▶ 第 2 輪開始，輪到 艾莉絲（行動力 6/6）"
    assert await table.text("gm", ".init remove 哥布林") == "哥布林 離開戰鬥。"
    assert await table.text("gm", ".init end") == (
        "⚔ 戰鬥結束（共 2 輪）。艾莉絲 生命 18、鮑伯 生命 22")
    assert await table.text("p1", ".ap") == "⚠ 目前沒有戰鬥：先 .init join / .init add。"
