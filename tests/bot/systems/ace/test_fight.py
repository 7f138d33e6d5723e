"""`ace` fights through a real Core with scripted dice: enemies, initiative on the turn
kit, attacks from sheet values (AE-5 … AE-12), grapples (AE-9), stances and cover
(AE-10), stealth (AE-13) and the kill count (AE-14)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from bot.core import Core
from tests.orm import ChannelState, Character, sessions
from tests.support import Table

ALICE = ".st 力量6 敏捷5 體質5 精神力5 基本步法1 基本近戰2 武器3 隱藏3 基本射擊2"
BOB = ".st 力量7 敏捷4 體質6 精神力4 基本擒拿2 基本腰力1"
WOLF = ".enemy add 狼人 力量5 敏捷10 體質7 精神力5 基本步法2 防具2 生存2 火抗5"


async def gm_reads(table: Table, text: str) -> tuple[str, str]:
    """(what the channel reads, what the GM reads privately) of a GM's enemy command."""
    outs = await table.say("gm", text)
    [public] = [o.text for o in outs if o.to == "channel"]
    [secret] = [o.text for o in outs if o.to == "private" and o.user == "gm"]
    return public, secret


async def gm_text(table: Table, user: str, text: str, dice: list[int] | None = None) -> str:
    """What the GM reads, privately, of a line with an unrevealed enemy's numbers (the
    channel reads its band, issue 24; tests/bot/systems/ace/test_encounter.py)."""
    outs = await table.say(user, text, dice)
    [secret] = [o.text for o in outs if o.to == "private" and o.user == "gm"]
    return secret


async def setup(table: Table) -> None:
    await table.text("gm", ".gm")
    await table.text("gm", ".system ace")
    for user, name, stats in (("alice", "艾莉絲", ALICE), ("bob", "鮑伯", BOB)):
        await table.text(user, f".pc new {name}")
        assert not (await table.text(user, stats)).startswith("⚠")
    public, secret = await gm_reads(table, WOLF)
    assert public == "👹 狼人（毫髮無傷）加入戰場。"
    assert secret.startswith("👹 已加入 狼人（生命70/70）")


async def states(core: Core) -> dict[str, Any]:
    async with sessions(core) as session:
        rows = await session.scalars(select(ChannelState))
        return {row.key: row.data for row in rows}


async def sheet(core: Core, name: str) -> dict[str, int]:
    async with sessions(core) as session:
        found = await session.scalar(select(Character).where(Character.name == name))
        assert found is not None
        return dict(found.stats)


# --------------------------------------------------------------------------- attacks


async def test_strict_hit_then_damage_from_the_sheets(table: Table) -> None:
    await setup(table)
    # AE-5: 6 + 敏捷 5 + 基本步法 1 = 12 = evasion 10 + 2: a miss
    assert await gm_text(table, "alice", ".atk 狼人", dice=[6]) == (
        "⚔ 艾莉絲 → 狼人：命中 1d20=6+6敏捷步法 = 12 ≤ 迴避12 → 未中")
    # 7 → 13 > 12; attack 6 + 2 + 3 = 11 vs ⌊7 × 60 %⌋ = 4 + 防具 2 = 6: DP5
    assert await gm_text(table, "alice", ".atk 狼人", dice=[7, 8, 9, 2, 3, 10]) == (
        "⚔ 艾莉絲 → 狼人：命中 1d20=7+6敏捷步法 = 13 > 迴避12 → 命中｜"
        "攻11 vs 防6 → DP5 [8,9,2,3,10] 3成功×5 = 15｜狼人 生命 70→55")
    # a raw 20 hits and crits whatever the total; the firearm uses 基本射擊 + 武器 × 3
    out = await table.say("alice", ".atk 狼人 槍 子彈=1", dice=[20, 8, 1, 1, 1, 1, 1, 1])
    assert out[1].to == "private" and out[1].text == (
        "⚔ 艾莉絲 → 狼人（槍械）：命中 1d20=20（爆擊）+6敏捷步法 = 26 > 迴避12 → 命中｜"
        "攻12 vs 防6 → DP6 [8,1,1,1,1,1] 1成功×10 = 10｜狼人 生命 55→45")
    assert out[1].data is not None and out[1].data["total"] == 10


async def test_no_damage_dice_when_the_attack_does_not_beat_the_defense(table: Table) -> None:
    await setup(table)
    await table.text("gm", ".enemy add 鐵甲 力量5 敏捷1 體質10 精神力5 防具5")
    assert await gm_text(table, "alice", ".atk 鐵甲", dice=[10]) == (
        "⚔ 艾莉絲 → 鐵甲：命中 1d20=10+6敏捷步法 = 16 > 迴避1 → 命中｜攻11 vs 防11 → 沒有傷害骰")
    # a called shot's extra damage still lands (AE-7): eyes +9 DP, 11 + 9 − 25 < 0, +10
    await table.text("gm", ".enemy add 重甲 力量5 敏捷1 體質10 精神力5 防具19")
    assert await gm_text(table, "alice", ".atk 重甲 眼", dice=[10]) == (
        "⚔ 艾莉絲 → 重甲（眼睛）：命中 1d10=10（爆擊）+6敏捷步法-12部位 = 4 > 迴避1 → 命中｜"
        "攻20 vs 防25 → 沒有傷害骰，+10部位 = 10｜重甲 生命 100→90")


async def test_called_shot_reflex_once_a_round_and_a_disarm(table: Table, core: Core) -> None:
    await setup(table)
    for line, dice in ((".ri", [10]), (".ri 狼人", [1])):
        await table.say("alice" if line == ".ri" else "gm", line, dice)
    await table.text("gm", ".init start")
    # AE-7: head, d10; the werewolf dodges: −⌊10 / 5⌋ = −2 → 9 + 6 − 9 − 2 = 4 ≤ 12
    assert await gm_text(table, "alice", ".atk 狼人 頭 閃避", dice=[9]) == (
        "⚔ 艾莉絲 → 狼人（頭部、閃避 命中−2）："
        "命中 1d10=9+6敏捷步法-9部位-2閃避 = 4 ≤ 迴避12 → 未中")
    before = await states(core)
    assert await table.text("alice", ".atk 狼人 頭 護住") == (
        "⚠ 狼人 這一輪已經用過反射動作了。")
    assert await states(core) == before
    assert await table.text("alice", ".atk 狼人 護住") == "⚠ 反射動作只能用來應對特定部位攻擊。"
    # disarm: no damage; 12 + 6 = 18 > 10 + 5 = 15
    assert await gm_text(table, "alice", ".atk 狼人 繳械", dice=[10, 12, 10]) == (
        "⚔ 艾莉絲 → 狼人（繳械）：命中 1d10=10（爆擊）+6敏捷步法-16部位 = 0 ≤ 迴避12 → 命中｜"
        "艾莉絲 1d20=12+6力量 = 18 > 狼人 1d20=10+5力量 = 15｜狼人 的武器脫手！")


async def test_lethal_attack_needs_a_helpless_target(table: Table) -> None:
    await setup(table)
    assert await table.text("alice", ".atk 狼人 致命") == (
        "⚠ 狼人 沒有昏迷、睡眠或石化，不能發動致命攻擊（GM 用 .cond 設定狀態）。")
    assert await table.text("alice", ".cond 狼人 睡眠") == "⚠ 只有本頻道的 GM 可以這麼做。"
    assert await table.text("gm", ".cond 狼人 睡眠") == (
        "💤 狼人 陷入睡眠（可被致命攻擊，回合跳過）。")
    assert await gm_text(table, "alice", ".atk 狼人 致命", dice=[8]) == (
        "⚔ 艾莉絲 → 狼人（致命攻擊）：命中 1d20=8+6敏捷步法 = 14 > 迴避0（無力閃避） → 命中｜"
        "攻11 vs 防6 → DP5 致命→全數成功 5成功×5 = 25｜狼人 生命 70→45")
    assert await table.text("gm", ".cond 狼人 清除") == "狼人 的狀態已清除。"


async def test_stances_cover_and_supernatural_attributes(table: Table) -> None:
    await setup(table)
    await table.say("alice", ".ri", [10])
    await table.say("gm", ".ri 狼人", [15])
    await table.text("gm", ".init start")  # 狼人 25, 艾莉絲 15
    assert await table.text("gm", ".stance 全力攻擊") == (
        "🛡 狼人 本輪全力攻擊：攻擊+2、防禦−2。")
    assert await table.text("alice", ".stance 衝鋒 4") == (
        "⚠ 衝鋒距離必須在 1–3 米之間（力量/2），不能是 4 米。")
    # the werewolf attacks with 5 + 1 (a natural weapon) + 2 = 8 vs ⌊5 × 60 %⌋ = 3
    assert await gm_text(table, "gm", ".atk 艾莉絲", dice=[5, 8, 8, 1, 1, 1]) == (
        "⚔ 狼人 → 艾莉絲：命中 1d20=5+12敏捷步法 = 17 > 迴避6 → 命中｜"
        "攻8 vs 防3 → DP5 [8,8,1,1,1] 2成功×5 = 10｜艾莉絲 生命 50→40")
    # issue 24: in a running fight only the one whose turn it is acts
    assert await table.text("alice", ".atk 狼人") == "⚠ 現在是 狼人 的回合，艾莉絲 還不能行動。"
    await table.text("gm", ".init end")  # outside a fight nothing is timed
    # cover counts against ranged attacks only, on both sides
    assert await table.text("alice", ".cover 部分") == (
        "🧱 艾莉絲 取得部分掩護：遠程命中−4（雙向）。")
    assert await gm_text(table, "alice", ".atk 狼人 槍", dice=[9]) == (
        "⚔ 艾莉絲 → 狼人（槍械）：命中 1d20=9+6敏捷步法-4自身掩護 = 11 ≤ 迴避12 → 未中")
    assert await table.text("gm", ".cover 完全 艾莉絲") == (
        "🧱 艾莉絲 完全掩蔽：不能被射擊，也不能射擊。")
    assert await table.text("gm", ".atk 艾莉絲 投擲 by=狼人") == (
        "⚠ 艾莉絲 處於完全掩蔽，無法進行遠程攻擊。")
    # AE-12 on: 敏捷 10 gives the werewolf +1 evasion; its 體質 7 gives nothing yet
    await table.text("gm", ".ace super on")
    await table.text("gm", ".cover 無 艾莉絲")
    assert await gm_text(table, "alice", ".atk 狼人", dice=[7]) == (
        "⚔ 艾莉絲 → 狼人：命中 1d20=7+6敏捷步法 = 13 ≤ 迴避13 → 未中")


async def test_energy_resistance_area_and_direct_damage(table: Table, core: Core) -> None:
    await setup(table)
    # AE-11: 火抗 5 takes 5 of 12 fire damage
    assert await gm_text(table, "gm", ".dmg 狼人 12 能量=fire") == (
        "💢 狼人 受到 12（火）−5抗性 = 7 點傷害｜狼人 生命 70→63")
    assert await gm_text(table, "gm", ".dmg 狼人 3") == "💢 狼人 受到 3 點傷害｜狼人 生命 63→60"
    # AE-6 area: 15 − (max(10, 7) + 2) = DP3 on the werewolf; 15 − (6 + 0) = DP9 on 鮑伯
    out = await gm_text(table, "gm", ".area 15 狼人 鮑伯", dice=[8, 8, 8, *[1] * 7, 9, 9])
    assert out == (
        "💥 範圍傷害 15：\n"
        "狼人 閃避12 → DP3 [8,8,8] 3成功×5 = 15｜狼人 生命 60→45\n"
        "鮑伯 閃避6 → DP9 [1,1,1,1,1,1,1,9,9] 2成功×5 = 10｜鮑伯 生命 60→50")
    assert (await sheet(core, "鮑伯"))["生命"] == 50
    assert await table.text("alice", ".dmg 狼人 3") == "⚠ 只有本頻道的 GM 可以這麼做。"


async def test_a_kill_counts_on_the_attackers_mark(table: Table) -> None:
    await setup(table)
    await table.text("gm", ".enemy add 蝙蝠 力量1 敏捷1 體質1 精神力2 hp=5")
    assert await gm_text(table, "alice", ".atk 蝙蝠", dice=[10, *[8] * 11]) == (
        "⚔ 艾莉絲 → 蝙蝠：命中 1d20=10+6敏捷步法 = 16 > 迴避1 → 命中｜"
        "攻11 vs 防0 → DP11 [8,8,8,8,8,8,8,8,8,8,8] 11成功×5 = 55｜"
        "蝙蝠 生命 5→0，死亡！｜🏅 艾莉絲 殺戮值+1（共1）")
    assert (await table.text("alice", ".mark")).endswith("殺戮值1")
    # issue 24 (ace decision): the dead are no target
    assert await table.text("alice", ".atk 蝙蝠") == "⚠ 蝙蝠 已經死亡了。"


# --------------------------------------------------------------------------- turns


async def test_initiative_turns_and_who_may_end_a_turn(table: Table) -> None:
    await setup(table)
    assert await table.text("gm", ".init start") == "⚠ 先攻表是空的：先用 .ri 擲先攻。"
    assert await table.text("gm", ".ri") == (
        "⚠ 請用 by=名字 指明是誰行動（在敵人的回合，GM 可省略）。")
    assert await table.text("alice", ".ri", dice=[10]) == "⚡ 先攻：艾莉絲 1d20=10+5敏捷 = 15"
    assert await table.text("bob", ".ri", dice=[11]) == "⚡ 先攻：鮑伯 1d20=11+4敏捷 = 15"
    assert await table.text("alice", ".ri 狼人") == "⚠ 只有本頻道的 GM 可以這麼做。"
    assert await gm_text(table, "gm", ".ri 狼人", dice=[3]) == "⚡ 先攻：狼人 1d20=3+10敏捷 = 13"
    assert await table.text("alice", ".ri") == "⚠ 艾莉絲 已經在先攻表裡了。"
    assert await table.text("gm", ".init") == (
        "⚔ 先攻表（尚未開始）：艾莉絲 15、鮑伯 15、狼人 13｜GM 以 .init start 開始")
    outs = await table.say("gm", ".init start")
    # a tie of 15: the higher 敏捷 (艾莉絲 5) first
    assert outs[0].text == "⚔ 戰鬥開始！艾莉絲 15 → 鮑伯 15 → 狼人 13\n⏭ 輪到 艾莉絲（第1輪）"
    assert outs[0].notify == ("alice",)
    assert await table.text("bob", ".next") == (
        "⚠ 現在是 艾莉絲 的回合，只有其玩家或 GM 能結束它。")
    outs = await table.say("alice", ".next")
    assert (outs[0].text, outs[0].notify) == ("⏭ 輪到 鮑伯（第1輪）", ("bob",))
    await table.text("gm", ".cond 狼人 昏迷")
    assert await table.text("bob", ".next") == "⏭ 第2輪開始，輪到 艾莉絲（跳過：狼人（倒下））"
    assert await table.text("gm", ".init") == (
        "⚔ 第2輪：▶艾莉絲 15、鮑伯 15、狼人 13（倒下）\n狼人 昏迷")
    assert await table.text("gm", ".init end") == (
        "⚔ 戰鬥結束，先攻表、姿態、擒抱與潛行狀態已清除。")
    assert await table.text("gm", ".next") == "⚠ 戰鬥還沒開始（.init start）。"


async def test_grapple_refusals_and_breaking_free(table: Table) -> None:
    await setup(table)
    await table.say("bob", ".ri", [15])
    await table.say("gm", ".ri 狼人", [1])
    await table.text("gm", ".init start")  # 鮑伯 19, 狼人 11
    assert await gm_text(table, "bob", ".grab 狼人", dice=[9, 10, 6]) == (
        "🤼 鮑伯 擒抱 狼人：命中 1d20=9+8力量腰力 = 17 > 迴避12 → 命中｜"
        "對抗（狼人 逃脫）鮑伯 1d20=10+7力量+2擒拿 = 19 > 狼人 1d20=6+10敏捷+2步法 = 18｜"
        "抓住了 狼人（狼人 攻擊−1）")
    assert await table.text("bob", ".grab 狼人") == "⚠ 壓制要等到下一輪（狼人 這一輪才被抓住）。"
    await table.text("bob", ".next")
    # the werewolf's turn: the GM breaks free with 力量 (掙脫): 15 + 5 = 20 > 3 + 9 = 12
    assert await gm_text(table, "gm", ".grab free 掙脫", dice=[15, 3]) == (
        "🤼 狼人 掙脫 鮑伯：狼人 1d20=15+5力量 = 20 > 鮑伯 1d20=3+7力量+2擒拿 = 12 → "
        "狼人 重獲自由！")
    assert await table.text("gm", ".grab") == "🤼 擒抱：（無）"
    assert await table.text("gm", ".grab free") == "⚠ 狼人 沒有被抓住。"


async def test_sneak_ambush_and_assassination(table: Table) -> None:
    await setup(table)
    # the werewolf keeps watch (調查, not on its sheet: DP0) — 2 successes against none
    assert await gm_text(table, "alice", ".sneak 狼人 警戒", dice=[8, 8, 1]) == (
        "🤫 艾莉絲 潛行：隱藏 DP3 [8,8,1] → 2成功｜狼人 調查 DP0 → 0成功：未察覺 → 沒有被發現。")
    # 鮑伯's 精神力 4: a watcher above 8 would spot him at once; the werewolf (5) rolls
    # issue 24: no 隱藏 on the sheet is refused, as `.ra 隱藏` is
    assert await table.text("bob", ".sneak 狼人") == (
        "⚠ 鮑伯 的卡上沒有「隱藏」。用 .st 設定，或改以屬性代判（如 .ra 力量）。")
    await table.text("bob", ".st 隱藏 0")
    assert await gm_text(table, "bob", ".sneak 狼人", dice=[9, 1]) == (
        "🤫 鮑伯 潛行：隱藏 DP0 → 0成功｜狼人 生存 DP2 [9,1] → 1成功：發現 → 被 狼人 發現！")
    assert await table.text("gm", ".sneak") == (
        "🤫 潛行：艾莉絲（未察覺：狼人；已發現：（無））、鮑伯（未察覺：（無）；已發現：狼人）")
    await table.say("alice", ".ri", [1])
    await table.say("bob", ".ri", [15])
    await table.say("gm", ".ri 狼人", [10])
    text = await table.text("gm", ".init start")
    assert text.splitlines()[0] == "⚔ 戰鬥開始！艾莉絲 6（偷襲） → 狼人 20 → 鮑伯 19"
    assert await table.text("bob", ".atk 狼人 暗殺") == (
        "⚠ 現在是 艾莉絲 的回合，鮑伯 還不能行動。")
    assert await gm_text(table, "alice", ".atk 狼人 暗殺", dice=[8, 8, 1, 1, 1]) == (
        "🗡 艾莉絲 暗殺 狼人：無視迴避｜攻11 vs 防6 → DP5 [8,8,1,1,1] 2成功×5 = 10｜"
        "狼人 生命 70→60")
    assert await table.text("alice", ".atk 狼人 暗殺") == (
        "⚠ 艾莉絲 不是偷襲者（開戰時已被發現或沒有潛行），不能暗殺。")


async def test_enemies_are_the_gms_and_need_their_attributes(table: Table) -> None:
    await setup(table)
    assert await table.text("gm", ".enemy add 史萊姆 力量1 hp=5") == (
        "⚠ 史萊姆 缺少屬性：敏捷、體質、精神力（戰鬥需要力量、敏捷、體質、精神力）。")
    assert await table.text("gm", ".enemy add 狼人 力量1 敏捷1 體質1 精神力1") == (
        "⚠ 已經有叫「狼人」的敵人了。")
    assert await gm_reads(table, ".enemy 狼人") == ("👹 狼人（毫髮無傷）", (
        "👹 狼人（生命70/70）：力量:5 敏捷:10 體質:7 精神力:5 基本步法:2 防具:2 生存:2 火抗:5"))
    # issue 24: a player reads the band, never the numbers; the GM reveals them at once
    assert await table.text("alice", ".enemy 狼人") == "👹 狼人（毫髮無傷）"
    assert await table.text("alice", ".enemy") == "👹 敵人：狼人（毫髮無傷）"
    assert await table.text("alice", ".enemy reveal 狼人") == "⚠ 只有本頻道的 GM 可以這麼做。"
    assert await table.text("gm", ".enemy reveal 狼人") == (
        "👹 GM 公開 狼人（生命70/70）：力量:5 敏捷:10 體質:7 精神力:5 基本步法:2 防具:2 "
        "生存:2 火抗:5")
    assert await table.text("gm", ".enemy add 巨人 力量9 敏捷1 體質5 精神力3 hp=51") == (
        "⚠ 巨人 的生命最多 50（體質 5 × 10）。")
    assert await table.text("alice", ".enemy del 狼人") == "⚠ 只有本頻道的 GM 可以這麼做。"
    assert await table.text("alice", ".atk 巨龍") == "⚠ 找不到「巨龍」（角色或敵人）。"
    assert await table.text("alice", ".atk 艾莉絲") == "⚠ 不能以自己為目標。"
    assert await table.text("alice", ".atk 狼人 尾巴") == (
        "⚠ 看不懂攻擊選項「尾巴」。可用：槍 投擲｜頭 眼 腹 肋 鼻 喉 太陽穴 繳械 擊破｜護住 閃避｜"
        "致命 暗殺｜命中+N 攻擊+N 武器=N 子彈=N 能量=火 by=名字 hidden。")
    assert await table.text("gm", ".enemy del 狼人") == "👹 已移除 狼人。"


async def test_english_fight_lines(table: Table) -> None:
    await setup(table)
    await table.text("gm", ".lang en")
    assert await gm_text(table, "alice", ".atk 狼人 腹", dice=[10, 8, 9, 3, 2, 1, 1, 1, 1]) == (
        "⚔ 艾莉絲 -> 狼人 (abdomen): "
        "hit 1d10=10(crit)+6 (DEX+Footwork)-6 (part) = 10 ≤ evasion 12 -> hit | "
        "atk 14 vs def 6 -> DP8 [8,9,3,2,1,1,1,1] 2 succ. x10 +5 part = 25 | 狼人 HP 70->45")
