"""`coc7` through a real Core with scripted dice (docs/systems/coc7-commands.md).

A d10 face f shows f − 1 and the units die is rolled first, so a d100 of 23 is
``[4, 3]`` and 100 is ``[1, 1]``. Replies and their data (issue 26 item 7) are exact;
refusals change nothing."""

from __future__ import annotations

from pathlib import Path

from bot.core import Core
from tests.conftest import make_settings
from tests.support import Table, visible

ALICE = ".st 力量60敏捷50體質55體型65意志70智力75教育80外貌50幸運45偵查70"


async def setup(table: Table) -> None:
    await table.text("kp", ".gm")
    await table.text("kp", ".system coc7")
    await table.text("alice", ".pc new 艾莉絲")
    await table.text("alice", ALICE)


# --------------------------------------------------------------------------- sheets (CO-9)


async def test_st_reads_aliases_and_fills_in_hp_mp_and_san(table: Table) -> None:
    await table.text("kp", ".system coc7")
    await table.text("alice", ".pc new 艾莉絲")
    assert await table.text("alice", ".st 力量60 体质55 SIZ65 意志70 侦察70 图书馆使用60") == (
        "艾莉絲 的數值已更新：力量:60 體質:55 體型:65 生命:12 意志:70 魔法:14 理智:70 "
        "偵查:70 圖書館使用:60")
    # a later change of CON leaves HP alone (CO-9: HP is set at creation)
    assert await table.text("alice", ".st 體質80") == "艾莉絲 的數值已更新：體質:55→80"
    assert await table.text("alice", ".st show 生命") == "艾莉絲：生命:12"


async def test_st_keeps_a_typed_hp_written_before_con_and_siz(table: Table) -> None:
    await table.text("kp", ".system coc7")
    await table.text("alice", ".pc new 艾莉絲")
    assert await table.text("alice", ".st HP9 CON50 SIZ60") == (
        "艾莉絲 的數值已更新：生命:9 體質:50 體型:60")


# --------------------------------------------------------------------------- checks


async def test_a_check_names_the_character_and_carries_item_7_data(table: Table) -> None:
    await setup(table)
    [out] = await table.say("alice", ".ra 侦查", dice=[4, 3])
    assert out.text == "艾莉絲 的 偵查 檢定：D100=23/70 困難成功"
    assert out.data == {"kind": "coc7.check", "who": "艾莉絲", "user": "alice",
                        "stat": "偵查", "roll": 23, "tens": [2], "units": 3, "bonus": 0,
                        "target": 70, "level": "hard", "difficulty": "regular",
                        "success": True}


async def test_an_inline_value_wins_and_a_missing_skill_has_its_base(table: Table) -> None:
    await setup(table)
    assert await table.text("alice", ".rc 偵查 40", dice=[4, 3]) == (
        "艾莉絲 的 偵查 檢定：D100=23/40 成功")
    assert await table.text("alice", ".ra 偵查30", dice=[4, 3]) == (
        "艾莉絲 的 偵查 檢定：D100=23/30 成功")
    assert await table.text("alice", ".ra 图书馆", dice=[4, 2]) == (
        "艾莉絲 的 圖書館使用 檢定：D100=13/20 成功")
    assert await table.text("alice", ".ra 闪避", dice=[6, 3]) == (
        "艾莉絲 的 閃避 檢定：D100=25/25 成功")  # DEX 50 / 2
    assert await table.text("alice", ".ra 偵查+10", dice=[4, 3]) == (
        "艾莉絲 的 偵查 檢定：D100=23/80 困難成功")  # a modifier, as SealDice reads it
    assert await table.text("alice", ".ra 困難偵查 -20", dice=[4, 3]) == (
        "艾莉絲 的 偵查（困難）檢定：D100=23/50 困難成功")
    assert await table.text("alice", ".ra 偵查+200", dice=[]) == (
        "⚠ 調整值最多 ±100（收到 200）。")
    assert await table.text("alice", ".ra 克苏鲁神话", dice=[2, 1]) == (
        "艾莉絲 的 克蘇魯神話 檢定：D100=1/0 大成功")
    assert await table.text("alice", ".ra 開車") == (
        "⚠ 艾莉絲 的卡上沒有「開車」，它也沒有基礎值：先 .st 開車 50，或寫 .ra 開車 50。")


async def test_a_difficulty_needs_its_level(table: Table) -> None:
    await setup(table)
    assert await table.text("alice", ".ra 困难侦查", dice=[6, 5]) == (
        "艾莉絲 的 偵查（困難）檢定：D100=45/70 失敗（成功，需要困難）")
    [out] = await table.say("alice", ".ra 極難 偵查", dice=[5, 2])
    assert out.text == "艾莉絲 的 偵查（極難）檢定：D100=14/70 極難成功"
    assert out.data is not None and out.data["difficulty"] == "extreme"
    assert out.data["success"] is True


async def test_bonus_and_penalty_dice_show_every_tens_die(table: Table) -> None:
    await setup(table)
    [out] = await table.say("alice", ".ra b2 偵查", dice=[5, 8, 3, 1])
    assert out.text == "艾莉絲 的 偵查 檢定：D100=4/70 極難成功（獎勵骰×2，十位 7/2/0）"
    assert out.data is not None
    assert (out.data["tens"], out.data["units"], out.data["bonus"]) == ([7, 2, 0], 4, 2)
    [out] = await table.say("alice", ".rp 偵查", dice=[1, 1, 4])
    assert out.text == "艾莉絲 的 偵查 檢定：D100=100/70 大失敗（懲罰骰×1，十位 0/3）"
    assert out.data is not None and out.data["bonus"] == -1 and out.data["level"] == "fumble"
    assert await table.text("alice", ".rb2偵查", dice=[5, 8, 3, 1]) == (
        "艾莉絲 的 偵查 檢定：D100=4/70 極難成功（獎勵骰×2，十位 7/2/0）")
    # bonus and penalty cancel one for one: b2 p1 is one bonus die
    assert await table.text("alice", ".ra b2 p 偵查", dice=[5, 8, 3]) == (
        "艾莉絲 的 偵查 檢定：D100=24/70 困難成功（獎勵骰×1，十位 7/2）")
    assert await table.text("alice", ".rb", dice=[5, 8, 3]) == (
        "艾莉絲 擲 D100=24（獎勵骰×1，十位 7/2）")
    # play-test finding: glued, `b2p1` read as a skill “b2p” with the value 1, and the
    # refusal blamed 偵查; it is the same as spaced
    assert await table.text("alice", ".ra b2p1 偵查", dice=[5, 8, 3]) == (
        "艾莉絲 的 偵查 檢定：D100=24/70 困難成功（獎勵骰×1，十位 7/2）")
    assert await table.text("alice", ".ra p2b 偵查", dice=[5, 8, 3]) == (
        "艾莉絲 的 偵查 檢定：D100=74/70 失敗（懲罰骰×1，十位 7/2）")


async def test_more_than_three_extra_dice_are_refused_before_any_die(table: Table) -> None:
    await setup(table)
    assert await table.text("alice", ".ra b4 偵查", dice=[]) == (
        "⚠ 獎勵骰或懲罰骰最多 3 顆（要求 4 顆）。")
    assert await table.text("alice", ".rp4 偵查", dice=[]) == (
        "⚠ 獎勵骰或懲罰骰最多 3 顆（要求 4 顆）。")


async def test_words_that_are_no_check_are_refused_not_guessed(table: Table) -> None:
    await setup(table)
    assert await table.text("alice", ".ra 偵查 60 開門", dice=[]) == (
        "⚠ 看不懂「開門」：檢定寫成 .ra [b|p][N] [困難|極難]技能 [值]")
    assert await table.text("alice", ".ra 偵查 1001", dice=[]) == (
        "⚠ 技能值要在 0–1000 之間（收到 1001）。")
    assert await table.text("alice", ".ra", dice=[]) == (
        "⚠ 用法：.ra [b|p][N] [困難|極難]技能 [值]，例如 .ra 偵查、.ra b2 困難偵查 60、.ra 50")


async def test_a_hidden_check_reaches_only_the_roller_and_the_gms(table: Table) -> None:
    await setup(table)
    outs = await table.say("alice", ".rah 偵查", dice=[4, 3])
    assert visible(outs) == [
        ("channel", None, "🎲 艾莉絲 進行了一次暗中檢定。", False),
        ("private", "alice", "（暗中檢定）艾莉絲 的 偵查 檢定：D100=23/70 困難成功", True),
        ("private", "kp", "（艾莉絲 的暗中檢定）艾莉絲 的 偵查 檢定：D100=23/70 困難成功", True)]
    assert outs[0].data == {"kind": "coc7.hidden_check", "user": "alice"}
    assert all(o.data is not None and o.data["roll"] == 23 for o in outs[1:])
    # a refusal of a hidden check names what was checked: only the asker reads it
    [refused] = await table.say("alice", ".rah 開車")
    assert (refused.to, refused.user) == ("private", "alice")


async def test_secret_is_the_gms_and_only_the_gms_read_it(table: Table) -> None:
    await setup(table)
    assert visible(await table.say("alice", ".secret 艾莉絲 偵查")) == [
        ("private", "alice", "⚠ 只有本頻道的 GM 可以這麼做。", True)]
    outs = await table.say("kp", ".secret 艾莉絲 偵查", dice=[1, 9])
    assert visible(outs) == [
        ("channel", None, "🤫 KP 為 艾莉絲 暗中做了一次 偵查 檢定。", False),
        ("private", "kp", "（秘密檢定）艾莉絲 的 偵查 檢定：D100=80/70 失敗", True)]
    assert outs[0].data == {"kind": "coc7.secret", "who": "艾莉絲", "stat": "偵查"}
    silent = await table.say("kp", ".secret 艾莉絲 偵查 silent", dice=[4, 3])
    assert [o.to for o in silent] == ["private"]


async def test_opposed_checks_compare_levels_then_skills(table: Table) -> None:
    await setup(table)
    await table.text("bob", ".pc new 鮑伯")
    await table.text("bob", ".st 力量50 敏捷50")
    [out] = await table.say("alice", ".rav 力量 @bob", dice=[1, 5, 1, 5])
    assert out.text == ("⚔ 對抗檢定\n艾莉絲 的 力量 檢定：D100=40/60 成功\n"
                        "鮑伯 的 力量 檢定：D100=40/50 成功\n→ 艾莉絲 勝（等級相同，技能較高）")
    assert out.data is not None
    assert (out.data["kind"], out.data["winner"], out.data["decided_by"]) == (
        "coc7.opposed", "艾莉絲", "skill")
    assert await table.text("alice", ".rav 力量 閃避 鮑伯", dice=[1, 10, 1, 10]) == (
        "⚔ 對抗檢定\n艾莉絲 的 力量 檢定：D100=90/60 失敗\n"
        "鮑伯 的 閃避 檢定：D100=90/25 失敗\n→ 雙方都失敗，無人勝出")


# --------------------------------------------------------------------------- house rules


async def test_house_rule_2_is_the_gms_per_channel_and_shown_in_system(table: Table) -> None:
    await setup(table)
    await table.text("alice", ".st 信用評級3")
    assert await table.text("alice", ".ra 信用評級", dice=[5, 1]) == (
        "艾莉絲 的 信用評級 檢定：D100=4/3 失敗")
    assert await table.text("alice", ".setcoc 2") == "⚠ 只有本頻道的 GM 可以這麼做。"
    assert await table.text("kp", ".setcoc 5") == "⚠ 沒有房規 5；可用：0、1、2、3"
    assert await table.text("kp", ".setcoc 2") == (
        "本頻道改用房規 2：1–5 且不超過技能為大成功；100，或 96–99 且超過技能為大失敗")
    assert await table.text("alice", ".ra 信用評級", dice=[4, 1]) == (
        "艾莉絲 的 信用評級 檢定：D100=3/3 大成功")
    assert await table.text("alice", ".ra 偵查", dice=[7, 10]) == (
        "艾莉絲 的 偵查 檢定：D100=96/70 大失敗")
    shown = await table.text("u", ".system")
    assert shown.splitlines()[-1] == (
        "房規 2：1–5 且不超過技能為大成功；100，或 96–99 且超過技能為大失敗")
    other = Table(table.core, "elsewhere")
    await other.text("kp", ".system coc7")
    assert (await other.text("u", ".system")).splitlines()[-1].startswith("房規 0：規則書")


# --------------------------------------------------------------------------- sanity


async def test_sanity_writes_the_sheet_and_asks_for_an_int_roll(table: Table) -> None:
    await setup(table)
    [out] = await table.say("alice", ".sc 1/1d6", dice=[1, 8, 6])
    assert out.text == "艾莉絲 的理智檢定：D100=70/70 成功，理智 −1（70→69）"
    assert out.data == {"kind": "coc7.sanity", "who": "艾莉絲", "user": "alice", "roll": 70,
                        "tens": [7], "units": 0, "bonus": 0, "level": "regular",
                        "success": True, "before": 70, "after": 69, "loss": 1,
                        "expression": "1", "loss_dice": [], "insanity_roll": False}
    [out] = await table.say("alice", ".sc 1d3/1d10+1", dice=[1, 1])
    assert out.text == ("艾莉絲 的理智檢定：D100=100/69 大失敗，理智 −1d10+1 取最大值 11（69→58）\n"
                        "🌀 一次失去 11 點理智：艾莉絲 請骰 智力（.ra 智力），"
                        "成功則陷入臨時瘋狂（.ti／.li）。")
    assert out.data is not None and (out.data["loss"], out.data["after"]) == (11, 58)
    assert await table.text("alice", ".st show 理智") == "艾莉絲：理智:58"


async def test_sanity_never_goes_below_zero(table: Table) -> None:
    await setup(table)
    await table.text("alice", ".st 理智3")
    assert await table.text("alice", ".sc 0/1d6", dice=[1, 10, 6]) == (
        "艾莉絲 的理智檢定：D100=90/3 失敗，理智 −1d6=6（3→0）\n🌀 艾莉絲 的理智歸零：永久瘋狂。")
    assert await table.text("alice", ".sc 1/1d4", dice=[2, 1]) == (
        "艾莉絲 的理智檢定：D100=1/0 大成功，理智 −1（0→0）\n🌀 艾莉絲 的理智歸零：永久瘋狂。")


async def test_sanity_with_an_inline_san_and_refusals(table: Table) -> None:
    await table.text("kp", ".system coc7")
    assert await table.text("bob", ".sc 1/1d6", dice=[]) == (
        "⚠ bob 的卡上沒有理智：先 .st 理智 60，或寫 .sc 1/1d6 60。")
    assert await table.text("bob", ".sc 1/1d6 55", dice=[6, 4]) == (
        "bob 的理智檢定：D100=35/55 成功，理智 −1（55→54）")
    assert await table.text("bob", ".sc 1d6", dice=[]) == (
        "⚠ 看不懂理智損失「1d6」：寫成 成功損失/失敗損失，例如 1/1d6、1d3/1d10。")
    assert (await table.text("bob", ".sc 1/1000d6 50", dice=[])).startswith("⚠ ")
    # play-test finding: an inline SAN out of range was called a “skill value”
    assert await table.text("bob", ".sc 1/1d6 999999", dice=[]) == (
        "⚠ 理智值要在 0–1000 之間（收到 999999）。")


async def test_bouts_of_madness(table: Table) -> None:
    await setup(table)
    [out] = await table.say("alice", ".ti", dice=[3, 7])
    assert out.text == ("🌀 艾莉絲 的瘋狂發作（即時）：1D10=3 "
                        "拔腿就逃，用盡一切辦法遠離眼前的恐怖。持續 1D10=7 輪。")
    assert out.data == {"kind": "coc7.madness", "who": "艾莉絲", "table": "realtime",
                        "roll": 3, "outcome": "flight", "duration": 7, "unit": "rounds"}
    assert await table.text("alice", ".li", dice=[10, 2]) == (
        "🌀 艾莉絲 的瘋狂發作（總結）：1D10=10 "
        "從此多了一種躁狂（KP 決定是什麼）。經過 1D10=2 小時。")


# --------------------------------------------------------------------------- growth, creation


async def test_growth_writes_the_sheet(table: Table) -> None:
    await setup(table)
    [out] = await table.say("alice", ".en 偵查", dice=[2, 8, 4])
    assert out.text == "艾莉絲 的 偵查 成長檢定：D100=71/70 成長！+1D10=4，偵查 70→74"
    assert out.data == {"kind": "coc7.growth", "who": "艾莉絲", "user": "alice",
                        "stat": "偵查", "roll": 71, "tens": [7], "units": 1, "bonus": 0,
                        "improved": True, "gain": 4, "before": 70, "after": 74}
    assert await table.text("alice", ".en 偵查", dice=[6, 5]) == (
        "艾莉絲 的 偵查 成長檢定：D100=45/74 沒有成長（偵查 74）")
    assert await table.text("alice", ".st show 偵查") == "艾莉絲：偵查:74"
    # a base skill grows from its base: 圖書館使用 20 → 25, now on the sheet
    assert await table.text("alice", ".en 圖書館", dice=[1, 5, 5]) == (
        "艾莉絲 的 圖書館使用 成長檢定：D100=40/20 成長！+1D10=5，圖書館使用 20→25")
    assert await table.text("alice", ".en 克蘇魯神話", dice=[]) == (
        "⚠ 克蘇魯神話 不能靠成長檢定提升。")
    assert await table.text("alice", ".en b 偵查", dice=[]) == (
        "⚠ 看不懂「b」：檢定寫成 .ra [b|p][N] [困難|極難]技能 [值]")


async def test_creation_rolls_up_to_ten_with_item_7_data(table: Table) -> None:
    await setup(table)
    dice = [1, 2, 3, 6, 6, 6, 1, 1, 4, 4, 4, 2, 3, 4, 6, 5, 3, 3, 3, 5, 5, 2, 2, 2]
    [out] = await table.say("alice", ".coc", dice=dice)
    assert out.text == ("艾莉絲 擲出 1 位調查員：\n1. 力量:30 體質:90 體型:40 敏捷:60 外貌:45 "
                        "智力:85 意志:45 教育:80 幸運:30 共計 475（含幸運 505）")
    assert out.data == {"kind": "coc7.create", "characters": [
        {"STR": 30, "CON": 90, "SIZ": 40, "DEX": 60, "APP": 45, "INT": 85, "POW": 45,
         "EDU": 80, "LUCK": 30}], "totals": [{"total": 475, "with_luck": 505}]}
    [ten] = await table.say("alice", ".coc 10", dice=dice * 10)
    assert ten.data is not None and len(ten.data["characters"]) == 10
    assert await table.text("alice", ".coc 11", dice=[]) == "⚠ 用法：.coc [人數]，人數 1–10"


# ------------------------------------------------------------------ languages, help, config


async def test_english_and_simplified_readers(table: Table) -> None:
    await setup(table)
    await table.text("kp", ".lang en")
    assert await table.text("alice", ".ra hard Spot Hidden", dice=[4, 3]) == (
        "艾莉絲's Spot Hidden (Hard) check: D100=23/70 Hard success")
    assert await table.text("alice", ".ra b Library 60", dice=[5, 8, 3]) == (
        "艾莉絲's Library Use check: D100=24/60 Hard success (1 bonus, tens 7/2)")
    assert await table.text("alice", ".sc 1/1d6", dice=[1, 9, 5]) == (
        "艾莉絲's Sanity check: D100=80/70 Failure, SAN −1d6=5 (70→65)\n"
        "🌀 5 SAN lost at once: 艾莉絲, roll INT (.ra INT); on a success, temporary "
        "insanity (.ti / .li).")
    assert await table.text("alice", ".ra Spot Hidden now", dice=[]) == (
        "⚠ “now” is not understood: a check reads .ra [b|p][N] [hard|extreme] skill [value]")
    await table.text("kp", ".lang zh-Hans")
    assert await table.text("alice", ".ra 困難圖書館使用", dice=[10, 1]) == (
        "艾莉絲 的 图书馆使用（困难）检定：D100=9/20 困难成功")


async def test_help_covers_every_coc7_command(table: Table) -> None:
    await table.text("kp", ".system coc7")
    names = (await table.text("u", ".help")).splitlines()[1].split()
    for command in ("ra", "rah", "rb", "rp", "secret", "rav", "sc", "ti", "li", "en", "coc",
                    "setcoc", "st"):
        assert f".{command}" in names
        text = await table.text("u", f".help {command}")
        assert "coc7.help" not in text and len(text.splitlines()) >= 2, text
    assert (await table.text("u", ".help st")).splitlines()[1].startswith(
        "角色卡：.st 力量60敏捷50")


async def test_the_operator_can_make_coc7_the_default(tmp_path: Path) -> None:
    core = await Core.open(make_settings(tmp_path, default_system="coc7"))
    try:
        table = Table(core, "fresh")
        assert await table.text("u", ".ra 偵查", dice=[4, 3]) == "u 的 偵查 檢定：D100=23/25 成功"
        assert (await table.text("u", ".system")).startswith("本頻道的規則系統：coc7")
    finally:
        await core.close()


async def test_hidden_and_secret_checks_stay_out_of_the_players_log(table: Table) -> None:
    """A `.rah` result and a `.secret` one reach the GM's copy of the game log only."""
    await setup(table)
    await table.text("kp", ".log on 夜")
    await table.say("alice", ".rah 偵查", dice=[4, 3])
    await table.say("kp", ".secret 艾莉絲 聆聽", dice=[8, 9])
    await table.say("alice", ".ra 圖書館", dice=[6, 1])
    outs = await table.say("kp", ".log export 夜 md")
    files = {o.attachment.filename: o.attachment.data.decode("utf-8")
             for o in outs if o.attachment is not None}
    public, gm_copy = files["夜.md"], files["夜-gm.md"]
    assert "D100=5/20" in public and "D100=5/20" in gm_copy  # the public check, in both
    assert "D100=23/70" not in public and "D100=87/20" not in public
    assert "D100=23/70" in gm_copy and "D100=87/20" in gm_copy


async def test_st_reads_english_names_of_two_words_as_ra_does(table: Table) -> None:
    """Play-test finding: `.ra Spot Hidden` worked, but `.st Spot Hidden 60` (and
    `Library Use50` glued) was refused — an English table could not write its sheet."""
    await table.text("kp", ".system coc7")
    await table.text("kp", ".lang en")
    await table.text("alice", ".pc new Alice")
    assert await table.text("alice", ".st Spot Hidden 60 STR30Library Use50") == (
        "Alice updated: Spot Hidden:60 STR:30 Library Use:50")
    assert await table.text("alice", ".st spot  hidden+5") == (
        "Alice updated: Spot Hidden:60→65")
    assert await table.text("alice", ".st Spot Hidden") == "Alice: Spot Hidden:65"
    assert await table.text("alice", ".st Spot Hiddenx 5") == (  # no name of the system
        "⚠ Cannot read “Spot Hiddenx 5”. Usage: .st name value [name value …], "
        "e.g. .st Observe 5 DEX 12")
