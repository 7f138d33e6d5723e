"""`ace` on the encounter kit (issue 24): who may act, who may set what, who sees
what, timing, and the smaller table findings — through a real Core with scripted dice.

The whole fight in 繁, 简 and English is tests/bot/sessions/ace_encounter.toml."""

from __future__ import annotations

from bot.messages import Outgoing
from tests.bot.systems.ace.test_fight import ALICE, BOB, WOLF
from tests.bot.systems.ace.test_fight import setup as setup_with_gm
from tests.support import Table


async def setup(table: Table, *, gm: bool = True) -> None:
    """test_fight's table (艾莉絲, 鮑伯, the werewolf), or the same without a GM."""
    if gm:
        await setup_with_gm(table)
        return
    await table.text("gm", ".system ace")
    for user, name, stats in (("alice", "艾莉絲", ALICE), ("bob", "鮑伯", BOB)):
        await table.text(user, f".pc new {name}")
        await table.text(user, stats)
    await table.say("gm", WOLF)


def where(outs: list[Outgoing]) -> list[tuple[str, str | None, str]]:
    return [(o.to, o.user, o.text) for o in outs]


# --------------------------------------------------------------------------- who may set what


async def test_the_gm_sets_hp_within_con_x_10_and_says_when_the_dead_come_back(
        table: Table) -> None:
    await setup(table)
    assert await table.text("alice", ".init set 鮑伯 hp=10") == "⚠ 只有本頻道的 GM 可以這麼做。"
    assert await table.text("gm", ".init set 艾莉絲 hp=51") == (
        "⚠ 艾莉絲 的生命最多 50（體質 5 × 10）。")
    assert await table.text("gm", ".init set 艾莉絲 hp=50") == "🩹 艾莉絲 生命 50→50/50"
    # lowering HP is no heal (the play-test: 🩹 on a blow)
    assert await table.text("gm", ".init set 艾莉絲 hp=0") == "💢 艾莉絲 生命 50→0/50"
    assert await table.text("gm", ".init set 艾莉絲 hp=10 狀態=睡眠") == (
        "🩹 GM 救回了 艾莉絲：生命 0→10/50\n💤 艾莉絲 陷入睡眠（可被致命攻擊，回合跳過）。")
    assert await table.text("gm", ".init set 艾莉絲 狀態=清除") == "艾莉絲 的狀態已清除。"
    assert await table.text("gm", ".init set 艾莉絲 mp=3") == (
        "⚠ 用法：.init 設定(set) 名字 生命=10 [狀態=昏迷|清除]（GM）")
    # an enemy's HP: its band in the channel, the numbers to the GM
    assert where(await table.say("gm", ".init set 狼人 hp=30")) == [
        ("channel", None, "💢 狼人（重傷）"),
        ("private", "gm", "💢 狼人 生命 70→30/70")]
    # bringing a dead enemy back says so in the channel too
    await table.say("gm", ".init set 狼人 hp=0")
    assert where(await table.say("gm", ".init set 狼人 hp=20")) == [
        ("channel", None, "🩹 GM 救回了 狼人（重傷）"),
        ("private", "gm", "🩹 GM 救回了 狼人：生命 0→20/70")]


async def test_st_caps_hp_and_never_revives(table: Table) -> None:
    await setup(table)
    # AE-1: 體質 5 → at most 50; a heal past it stops there and says so (the play-test:
    # 45/50 +10 was refused), the boundary itself is a plain write
    assert await table.text("gm", ".dmg 艾莉絲 5") == "💢 艾莉絲 受到 5 點傷害｜艾莉絲 生命 50→45"
    assert await table.text("alice", ".st 生命+10") == (
        "艾莉絲 的數值已更新：生命:45→50（最多 50：體質 5 × 10）")
    assert await table.text("alice", ".st 生命 51") == (
        "艾莉絲 的數值已更新：生命:50→50（最多 50：體質 5 × 10）")
    assert await table.text("alice", ".st 生命 50") == "艾莉絲 的數值已更新：生命:50→50"
    assert await table.text("alice", ".st 生命 0") == "艾莉絲 的數值已更新：生命:50→0"
    assert await table.text("alice", ".st 生命+100") == (
        "⚠ 死者（生命 0）只有 GM 能救回：GM 用 .init set 名字 hp=N。")
    assert await table.text("alice", ".st 生命+10") == (
        "⚠ 死者（生命 0）只有 GM 能救回：GM 用 .init set 名字 hp=N。")
    assert await table.text("alice", ".atk 狼人") == "⚠ 艾莉絲 已死亡，不能行動。"
    assert await table.text("alice", ".ra 隱藏") == "⚠ 艾莉絲 已死亡，不能行動。"


async def test_without_a_gm_a_player_may_bring_their_own_back(table: Table) -> None:
    await setup(table, gm=False)
    await table.text("alice", ".st 生命 0")
    assert await table.text("alice", ".st 生命+10") == "艾莉絲 的數值已更新：生命:0→10"


async def test_a_new_sheet_has_its_hp_to_show_and_heal(table: Table) -> None:
    """The play-test: a fresh sheet listed no 生命, `.st 生命+5` found none, `.st 生命`
    read as a syntax error."""
    await table.text("gm", ".gm")
    await table.text("gm", ".system ace")
    await table.text("bob", ".pc new 鮑伯")
    assert await table.text("bob", ".st 力量5 敏捷4 體質4 精神力4") == (
        "鮑伯 的數值已更新：力量:5 敏捷:4 體質:4 生命:40 精神力:4")
    assert await table.text("bob", ".st") == (
        "鮑伯：屬性 力量:5 敏捷:4 體質:4 精神力:4｜資源 生命:40")
    assert await table.text("bob", ".st 生命") == "鮑伯：生命:40"
    await table.text("gm", ".dmg 鮑伯 15")
    assert await table.text("bob", ".st 生命+5") == "鮑伯 的數值已更新：生命:25→30"
    # raising 體質 leaves the HP as it was; English names it in English
    await table.text("gm", ".lang en")
    assert await table.text("bob", ".st CON 5") == "鮑伯 updated: CON:4→5"
    assert await table.text("bob", ".st HP") == "鮑伯: HP:30"


async def test_lowering_con_lowers_the_cap_at_once(table: Table) -> None:
    await setup(table)
    await table.text("gm", ".dmg 艾莉絲 5")
    # the stored HP follows at once: `.st` showed 25 of at most 20 (play-test)
    assert await table.text("alice", ".st 體質 3") == (
        "艾莉絲 的數值已更新：體質:5→3 生命:45→30")
    assert await table.text("alice", ".st show 生命") == "艾莉絲：生命:30"
    await table.text("alice", ".st 體質 3")
    # 生命 read as 30 (體質 3 × 10), not the 50 it was
    assert await table.text("gm", ".dmg 艾莉絲 5") == "💢 艾莉絲 受到 5 點傷害｜艾莉絲 生命 30→25"
    assert await table.text("gm", ".init set 艾莉絲 hp=31") == (
        "⚠ 艾莉絲 的生命最多 30（體質 3 × 10）。")


# --------------------------------------------------------------------------- who sees what


async def test_enemy_numbers_stay_the_gms_in_english_too(table: Table) -> None:
    await setup(table)
    await table.text("gm", ".lang en")
    assert where(await table.say("gm", ".enemy 狼人")) == [
        ("channel", None, "👹 狼人 (unhurt)"),
        ("private", "gm", "👹 狼人 (HP 70/70): STR:5 DEX:10 CON:7 SPI:5 Footwork:2 Armor:2 "
                          "Survival:2 fire res:5")]
    assert await table.text("alice", ".enemy 狼人") == "👹 狼人 (unhurt)"


async def test_a_hidden_attack_and_a_silent_secret(table: Table) -> None:
    await setup(table)
    assert await table.text("alice", ".atk 狼人 hidden") == "⚠ 只有本頻道的 GM 可以這麼做。"
    outs = await table.say("gm", ".atk 鮑伯 by=狼人 hidden", [1])
    assert where(outs) == [
        ("channel", None, "⚔ 狼人 暗中發動了一次攻擊。"),
        ("private", "gm",
         "（暗中攻擊）⚔ 狼人 → 鮑伯：命中 1d20=1（大失敗）+12敏捷步法 = 13 vs 迴避4 → 未中")]
    # a hit: the target's player learns it, and where their character stands — not the
    # werewolf's numbers
    outs = await table.say("gm", ".atk 鮑伯 by=狼人 hidden", [5, 8, 8, 8, 8, 8, 8])
    assert where(outs)[0] == ("channel", None, "⚔ 狼人 暗中發動了一次攻擊。")
    assert where(outs)[2] == ("private", "bob", "⚔ 狼人 暗中擊中了 鮑伯：鮑伯 生命 60→45")
    await table.say("gm", ".init set 鮑伯 hp=10")
    outs = await table.say("gm", ".atk 鮑伯 by=狼人 hidden", [5, 8, 8, 8])
    assert where(outs)[2] == ("private", "bob", "⚔ 狼人 暗中擊中了 鮑伯：鮑伯 生命 10→0，死亡！")
    await table.say("gm", ".init set 鮑伯 hp=60")
    # the kit delivers it as every system's hidden attack (it read "secret attack")
    await table.text("gm", ".lang en")
    outs = await table.say("gm", ".atk 鮑伯 by=狼人 hidden", [1])
    assert where(outs) == [
        ("channel", None, "⚔ 狼人 made a hidden attack."),
        ("private", "gm", "(hidden attack) ⚔ 狼人 -> 鮑伯: hit 1d20=1(fumble)+12 (DEX+Footwork) "
                          "= 13 vs evasion 4 -> miss")]
    await table.text("gm", ".lang zh-Hant")
    await table.text("bob", ".st 生存 1")
    outs = await table.say("gm", ".secret 鮑伯 生存 靜默", [9])
    assert where(outs) == [
        ("private", "gm", "（秘密檢定）🎲 鮑伯「生存」：DP1 [9] → 1成功 ≥ DC1：成功（差額+0）")]
    assert [o.to for o in await table.say("gm", ".secret 鮑伯 生存", [9])] == [
        "channel", "private"]


# --------------------------------------------------------------------------- who may act, when


async def test_the_fallen_do_nothing(table: Table) -> None:
    await setup(table)
    await table.text("gm", ".enemy add 蝙蝠 力量1 敏捷8 體質1 精神力2")
    await table.text("gm", ".init set 蝙蝠 hp=0")
    assert await table.text("gm", ".atk 艾莉絲 by=蝙蝠") == "⚠ 蝙蝠 已死亡，不能行動。"
    assert await table.text("gm", ".ri 蝙蝠") == "⚠ 蝙蝠 已死亡，不能行動。"
    # the dead take no helpless state (the play-test's order read 蝙蝠（死亡）… 蝙蝠 睡眠)
    assert await table.text("gm", ".cond 蝙蝠 睡眠") == "⚠ 蝙蝠 已經死亡了。"
    assert await table.text("gm", ".init set 蝙蝠 狀態=睡眠") == "⚠ 蝙蝠 已經死亡了。"
    # a dead enemy spots nobody; among several names the living still act, the fallen
    # are named (the play-test: one fallen name dropped the whole command)
    assert await table.text("alice", ".sneak 蝙蝠") == "⚠ 蝙蝠 已死亡，不能行動。"
    assert await table.text("alice", ".sneak 蝙蝠 狼人", [8, 8, 1, 8, 1]) == (
        "🤫 艾莉絲 潛行：隱藏 DP3 [8,8,1] → 2成功｜狼人：未察覺 → 沒有被發現。"
        "（跳過：蝙蝠（死亡））")
    assert await table.text("gm", ".ri 蝙蝠 狼人", [3]) == "⚡ 先攻：狼人 13（跳過：蝙蝠（死亡））"
    assert await table.text("gm", ".area 15 蝙蝠") == "⚠ 蝙蝠 已經死亡了。"
    await table.text("gm", ".cond 鮑伯 睡眠")
    assert await table.text("bob", ".grab 狼人") == "⚠ 鮑伯 已倒下，不能行動。"
    assert await table.text("bob", ".stance 格擋") == "⚠ 鮑伯 已倒下，不能行動。"
    assert await table.text("alice", ".atk 鮑伯 頭 護住") == "⚠ 鮑伯 已倒下，不能行動。"


async def test_out_of_turn_and_a_full_defence_at_the_start_of_ones_turn(table: Table) -> None:
    await setup(table)
    await table.say("alice", ".init join", [10])
    await table.say("gm", ".init add 狼人", [15])
    outs = await table.say("gm", ".init start")
    assert outs[0].text == "⚔ 戰鬥開始！狼人 25 → 艾莉絲 15\n⏭ 輪到 狼人（第1輪）"
    assert outs[0].notify == ("gm",)  # the enemy's turn: its GM is pinged
    assert await table.text("alice", ".stance 全防禦") == (
        "⚠ 現在是 狼人 的回合，艾莉絲 還不能行動。")
    assert await table.text("alice", ".grab 狼人") == "⚠ 現在是 狼人 的回合，艾莉絲 還不能行動。"
    outs = await table.say("gm", ".init next")
    assert (outs[0].text, outs[0].notify) == ("⏭ 輪到 艾莉絲（第1輪）", ("alice",))
    assert await table.text("alice", ".stance 全防禦") == (
        "🛡 艾莉絲 本輪全防禦：迴避+2、防禦＝體質+2，不能做其他動作。")
    await table.say("alice", ".atk 狼人", [1])
    assert await table.text("alice", ".stance 全力攻擊") == (
        "⚠ 艾莉絲 這回合已經行動過了：全力攻擊要在自己回合開始時宣告。")
    # the verbs in the reader's words, as the kit's usage names them (play-test)
    assert await table.text("gm", ".init foo") == (
        "⚠ 用法：.init [列表(list)]｜.init 加入(join)｜.init 新增(add) 名字｜.init 開始(start)｜"
        ".init 下一位(next)｜.init 結束(end)｜.init 移除(remove) 名字｜.init 設定(set) 名字 生命=N")
    await table.text("gm", ".lang zh-Hans")
    assert await table.text("gm", ".init 开始 狼人") == (
        "⚠ 用法：.init [列表(list)]｜.init 加入(join)｜.init 新增(add) 名字｜.init 开始(start)｜"
        ".init 下一位(next)｜.init 结束(end)｜.init 移除(remove) 名字｜.init 设定(set) 名字 生命=N")
    await table.text("gm", ".lang zh-Hant")
    assert await table.text("gm", ".init remove 狼人") == "⚔ 狼人 已移出先攻表。"
    assert await table.text("gm", ".init list") == "⚔ 第1輪：▶艾莉絲 15\n艾莉絲 全防禦"


async def test_removing_the_one_acting_passes_the_turn_and_hp_is_the_gms(table: Table) -> None:
    """The play-test: `.init remove` of the fighter acting left the next one unannounced;
    a player healed to full with `.st` between two blows."""
    await setup(table)
    await table.say("alice", ".init join", [10])
    await table.say("bob", ".init join", [1])
    await table.say("gm", ".init add 狼人", [15])
    await table.say("gm", ".init start")
    await table.text("gm", ".dmg 艾莉絲 10")
    assert await table.text("alice", ".st 生命+10") == (
        "⚠ 戰鬥中 艾莉絲 的生命由 GM 用 .init set 艾莉絲 hp=N 設定，"
        "或由攻擊與傷害改變；不能用 .st。")
    outs = await table.say("gm", ".init remove 狼人")
    assert (outs[0].text, outs[0].notify) == (
        "⚔ 狼人 已移出先攻表。\n⏭ 輪到 艾莉絲（第1輪）", ("alice",))
    # someone else leaving says only that
    await table.say("gm", ".init add 狼人", [1])
    outs = await table.say("gm", ".init remove 狼人")
    assert (outs[0].text, outs[0].notify) == ("⚔ 狼人 已移出先攻表。", ())
    # the last of the order leaving on its turn: a new round begins
    await table.say("alice", ".next")
    outs = await table.say("bob", ".init remove")
    assert (outs[0].text, outs[0].notify) == (
        "⚔ 鮑伯 已移出先攻表。\n⏭ 第2輪開始，輪到 艾莉絲", ("alice",))
    await table.text("gm", ".init end")
    assert await table.text("alice", ".st 生命+10") == "艾莉絲 的數值已更新：生命:40→50"


async def test_a_pin_waits_for_a_round_of_a_running_fight(table: Table) -> None:
    await setup(table)
    await table.say("bob", ".grab 狼人", [20, 20, 1])
    assert await table.text("bob", ".grab 狼人") == (
        "⚠ 壓制要等到下一輪，而輪數只在戰鬥中計算：先用 .init start 開始戰鬥。")


# --------------------------------------------------------------------------- smaller findings


async def test_checks_refuse_what_they_would_misread(table: Table) -> None:
    await setup(table)
    await table.text("alice", ".st 運動 2")
    usage = "⚠ 用法：.ra 技能[+N] [dcN] [專業] [理由]，或 .ra 屬性、.ra 數字。"
    assert await table.text("alice", ".ra 運動 dc") == usage
    assert await table.text("alice", ".ra 2 運動") == usage
    assert await table.text("alice", ".ra 運動+300") == "⚠ 加骰最多 200 顆。"
    assert await table.text("alice", ".ra 運動 dc20000") == "⚠ DC 最多 10000。"
    assert (await table.text("alice", ".ra 4 爬牆", [1, 1, 1, 1])).startswith(
        "🎲 艾莉絲「骰池」（爬牆）")
    # 運動 is one of ace's general skills, not "other"
    assert await table.text("alice", ".st show") == (
        "艾莉絲：屬性 力量:6 敏捷:5 體質:5 精神力:5｜"
        "技能 基本步法:1 基本近戰:2 隱藏:3 基本射擊:2 運動:2｜資源 生命:50 武器:3")


async def test_sneak_area_and_help_findings(table: Table) -> None:
    await setup(table)
    assert await table.text("bob", ".sneak 狼人") == (
        "⚠ 鮑伯 的卡上沒有「隱藏」。用 .st 設定，或改以屬性代判（如 .ra 力量）。")
    assert await table.text("gm", ".area 15 鮑伯 能量=火", [1] * 9) == (
        "💥 範圍傷害 15（火）：\n鮑伯 閃避6 → DP9 [1,1,1,1,1,1,1,1,1] 0成功×5 = 0")
    help_mark = await table.text("alice", ".help mark")
    assert ".store" in help_mark and ".take" in help_mark


# --------------------------------------------------------------------------- who sees what


async def test_an_unrevealed_enemys_numbers_stay_the_gms_in_every_fight_line(
        table: Table) -> None:
    await setup(table)
    # initiative: the werewolf's 敏捷 is the GM's, a player's own roll stays whole
    assert where(await table.say("gm", ".ri 狼人", [3])) == [
        ("channel", None, "⚡ 先攻：狼人 13"),
        ("private", "gm", "⚡ 先攻：狼人 1d20=3+10敏捷 = 13")]
    assert await table.text("alice", ".ri", [3]) == "⚡ 先攻：艾莉絲 1d20=3+5敏捷 = 8"
    listed = await table.say("alice", ".init")
    members = listed[0].data["fight"]["members"]  # type: ignore[index]
    assert [(m["name"], m["dex"], m["raw"]) for m in members] == [
        ("狼人", 0, 0), ("艾莉絲", 5, 3)]
    # a player's attack: their own roll; no evasion, defence or HP of the werewolf
    outs = await table.say("alice", ".atk 狼人", [7, 8, 9, 2, 3, 10])
    assert where(outs) == [
        ("channel", None,
         "⚔ 艾莉絲 → 狼人：命中 1d20=7+6敏捷步法 = 13 → 命中｜傷害 15｜狼人：受傷"),
        ("private", "gm", "⚔ 艾莉絲 → 狼人：命中 1d20=7+6敏捷步法 = 13 > 迴避12 → 命中｜"
         "攻11 vs 防6 → DP5 [8,9,2,3,10] 3成功×5 = 15｜狼人 生命 70→55")]
    assert outs[0].data == {"kind": "ace.attack", "attacker": "艾莉絲", "target": "狼人",
                            "hit": True, "life": "active", "total": 15, "hp_after": None}
    # the werewolf's attack: its die alone, the player's evasion and HP
    assert await table.text("gm", ".atk 艾莉絲 by=狼人", [5, 8, 8, 1, 1, 1]) == (
        "⚔ 狼人 → 艾莉絲：命中 1d20=5 vs 迴避6 → 命中｜傷害 10｜艾莉絲 生命 50→40")
    # a reflex's size is the target's 體質 / 敏捷
    assert (await table.text("gm", ".atk 狼人 by=艾莉絲 頭 閃避", [1])).startswith(
        "⚔ 艾莉絲 → 狼人（頭部、閃避）：")
    # damage, area, grapple, sneak
    assert where(await table.say("gm", ".dmg 狼人 12 能量=fire")) == [
        ("channel", None, "💢 狼人：受傷"),
        ("private", "gm", "💢 狼人 受到 12（火）−5抗性 = 7 點傷害｜狼人 生命 55→48")]
    assert await table.text("gm", ".area 15 狼人 鮑伯", [8, 8, 8, *[1] * 7, 9, 9]) == (
        "💥 範圍傷害 15：\n狼人：重傷\n"
        "鮑伯 閃避6 → DP9 [1,1,1,1,1,1,1,9,9] 2成功×5 = 10｜鮑伯 生命 60→50")
    assert await table.text("bob", ".grab 狼人", [9, 10, 6]) == (
        "🤼 鮑伯 擒抱 狼人：命中 1d20=9+8力量腰力 = 17 → 命中｜"
        "對抗（狼人 逃脫）鮑伯 1d20=10+7力量+2擒拿 = 19 vs 狼人 1d20=6｜抓住了 狼人（狼人 攻擊−1）")
    sneak = await table.say("alice", ".sneak 狼人", [8, 8, 1, 8, 1])
    assert where(sneak)[0] == (
        "channel", None, "🤫 艾莉絲 潛行：隱藏 DP3 [8,8,1] → 2成功｜狼人：未察覺 → 沒有被發現。")
    assert sneak[0].data == {"kind": "ace.sneak", "unseen": True}


async def test_a_revealed_enemy_shows_its_numbers(table: Table) -> None:
    await setup(table)
    await table.say("gm", ".enemy reveal 狼人")
    assert await table.text("alice", ".atk 狼人", [7, 8, 9, 2, 3, 10]) == (
        "⚔ 艾莉絲 → 狼人：命中 1d20=7+6敏捷步法 = 13 > 迴避12 → 命中｜"
        "攻11 vs 防6 → DP5 [8,9,2,3,10] 3成功×5 = 15｜狼人 生命 70→55")
    assert (await table.text("alice", ".enemy 狼人")).startswith("👹 狼人（生命55/70）")


# --------------------------------------------------------------------------- the play-test


async def test_area_damage_is_the_gms_and_its_sum_adds_up(table: Table) -> None:
    await setup(table)
    # any player could hit anyone with `.area` (even out of turn): like `.dmg`, the GM's
    assert await table.text("bob", ".area 200 狼人 艾莉絲") == "⚠ 只有本頻道的 GM 可以這麼做。"
    # the resistance taken off is shown, so 3 × 5 − 5 = 10 reads as a sum
    outs = await table.say("gm", ".area 15 狼人 能量=fire", [8, 8, 8])
    assert where(outs)[1] == ("private", "gm", "💥 範圍傷害 15（火）：\n"
                              "狼人 閃避12 → DP3 [8,8,8] 3成功×5−5抗性 = 10｜狼人 生命 70→60")
    # 194 dice are counted, not printed
    assert await table.text("gm", ".area 200 鮑伯", [1] * 194) == (
        "💥 範圍傷害 200：\n鮑伯 閃避6 → DP194 [194顆骰] 0成功×5 = 0")


async def test_a_grapple_and_a_helpless_state_end_with_the_dead(table: Table) -> None:
    await setup(table)
    assert (await table.text("bob", ".grab 狼人", [9, 10, 6])).startswith("🤼 鮑伯 擒抱 狼人")
    await table.say("gm", ".cond 狼人 睡眠")
    await table.say("gm", ".dmg 狼人 70")
    assert await table.text("alice", ".grab") == "🤼 擒抱：（無）"
    await table.text("bob", ".ri", [5])
    await table.say("gm", ".cond 鮑伯 昏迷")
    await table.say("gm", ".init set 鮑伯 hp=0")
    assert await table.text("alice", ".init") == (
        "⚔ 先攻表（尚未開始）：鮑伯 9（死亡）｜GM 以 .init start 開始")


async def test_an_enemys_turn_is_the_gms_to_end(table: Table) -> None:
    await setup(table)
    await table.say("gm", ".ri 狼人", [3])
    await table.say("gm", ".init start")
    assert await table.text("alice", ".next") == "⚠ 現在是 狼人 的回合，只有 GM 能結束它。"


async def test_inputs_a_player_tries(table: Table) -> None:
    await setup(table)
    await table.text("gm", ".lang en")
    assert await table.text("alice", ".stance full attack") == (
        "🛡 艾莉絲 attacks all out this round: attack +2, defense -2.")
    assert await table.text("alice", ".stance") == (
        "⚠ Usage: .stance full-attack|charge metres|full-defense|block|prone|none [by=name]")
    assert (await table.text("alice", ".atk 狼人 bludgeoning")).startswith(
        '⚠ Unknown attack option "bludgeoning". Options: gun thrown | head eyes')
    await table.text("alice", ".ri", [3])
    assert await table.text("alice", ".init remove") == "⚔ 艾莉絲 left the initiative order."


async def test_an_enemys_turn_pings_the_gm(table: Table) -> None:
    await setup(table)
    await table.say("gm", ".ri 狼人", [3])
    await table.say("alice", ".ri", [1])
    [start] = await table.say("gm", ".init start")
    assert start.notify == ("gm",)  # 狼人 13 first: the GM plays it
    [turn] = await table.say("gm", ".next")
    assert turn.notify == ("alice",)
