"""`ace` success pools and extended actions through a real Core with scripted dice
(AE-2, AE-3, AE-4). Numbers are exact: ``Table`` fails a test that rolls a die it did
not script; refusals are checked to change nothing."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from bot.core import Core
from tests.orm import ChannelState, sessions
from tests.support import Table

ALICE = ".st 力量6 敏捷5 體質5 精神力5 運動4 機械3 醫療2"


async def setup(table: Table, *, gm: bool = True) -> None:
    if gm:
        await table.text("gm", ".gm")
    await table.text("gm", ".system ace")
    await table.text("alice", ".pc new 艾莉絲")
    assert not (await table.text("alice", ALICE)).startswith("⚠")


async def states(core: Core) -> dict[str, Any]:
    async with sessions(core) as session:
        rows = await session.scalars(select(ChannelState))
        return {row.key: row.data for row in rows}


# --------------------------------------------------------------------------- AE-2 / AE-3


async def test_skill_pool_against_a_dc_with_a_reason(table: Table) -> None:
    await setup(table)
    out = await table.say("alice", ".ra 運動 dc2 爬牆", dice=[8, 3, 10, 1])
    assert out[0].text == "🎲 艾莉絲「運動」（爬牆）：DP4 [8,3,10,1] → 2成功 ≥ DC2：成功（差額+0）"
    assert out[0].data is not None
    result = out[0].data["result"]
    assert (result["dp"], result["pool"]["successes"], result["pool"]["ones"]) == (4, 2, 1)
    assert (result["success"], result["margin"], out[0].data["reason"]) == (True, 0, "爬牆")


async def test_bonus_dice_specialty_and_the_number_after_the_stat(table: Table) -> None:
    await setup(table)
    assert await table.text("alice", ".ra 運動+1 2 專業", dice=[8, 1, 1, 2, 3]) == (
        "🎲 艾莉絲「運動」：DP4+1 [8,1,1,2,3]+專業 → 2成功 ≥ DC2：成功（差額+0）")
    assert await table.text("alice", ".ww 3", dice=[7, 7, 1]) == (
        "🎲 艾莉絲「骰池」：DP3 [7,7,1] → 0成功 < DC1：失敗（差額-1）")
    assert await table.text("alice", ".ra 0 專業") == (
        "🎲 艾莉絲「骰池」：DP0 +專業 → 1成功 ≥ DC1：成功（差額+0）")


async def test_attribute_substitution_and_the_gms_refusal(table: Table) -> None:
    await setup(table)
    # AE-2: ⌊(13 + 6) / 10⌋ = 1 die
    assert await table.text("alice", ".ra 力量", dice=[13, 9]) == (
        "🎲 艾莉絲「力量」：1d20=13+6=19→DP1 [9] → 1成功 ≥ DC1：成功（差額+0）")
    assert await table.text("alice", ".ra str", dice=[14, 9, 2]) == (
        "🎲 艾莉絲「力量」：1d20=14+6=20→DP2 [9,2] → 1成功 ≥ DC1：成功（差額+0）")
    assert await table.text("alice", ".ace attr off") == "⚠ 只有本頻道的 GM 可以這麼做。"
    assert await table.text("gm", ".ace attr off") == (
        "⚙ 王牌進化選項：屬性代判：關｜超自然屬性：關")
    assert await table.text("alice", ".ra 力量") == "⚠ GM 關閉了屬性代判，不能以「力量」檢定。"
    assert await table.text("alice", ".ra 運動", dice=[8, 8, 8, 8]) == (
        "🎲 艾莉絲「運動」：DP4 [8,8,8,8] → 4成功 ≥ DC1：成功（差額+3）")


async def test_refusals_name_what_is_missing(table: Table) -> None:
    await setup(table)
    assert await table.text("alice", ".ra 潛行") == (
        "⚠ 艾莉絲 的卡上沒有「潛行」。用 .st 設定，或改以屬性代判（如 .ra 力量）。")
    assert await table.text("alice", ".ra") == (
        "⚠ 用法：.ra 技能[+N] [dcN] [專業] [理由]，或 .ra 屬性、.ra 數字。")
    assert await table.text("alice", ".ra 運動 <3") == "⚠ 看不懂「<3」。"
    assert await table.text("alice", ".ra 201") == "⚠ 一次最多擲 200 顆骰子（要求 201 顆）。"


async def test_hidden_check_reaches_the_roller_and_the_gms(table: Table) -> None:
    await setup(table)
    outs = await table.say("alice", ".rah 醫療", dice=[9, 1])
    result = "🎲 艾莉絲「醫療」：DP2 [9,1] → 1成功 ≥ DC1：成功（差額+0）"
    assert [(o.to, o.user, o.text) for o in outs] == [
        ("channel", None, "🎲 艾莉絲 進行了一次暗中檢定。"),
        ("private", "alice", f"（暗中檢定）{result}"),
        ("private", "gm", f"（艾莉絲 的暗中檢定）{result}"),
    ]
    assert outs[0].data == {"kind": "ace.hidden_check", "user": "alice"}
    # a refusal of a hidden command is private too: it names what was checked
    refused = await table.say("alice", ".rah 潛行")
    assert [(o.to, o.user) for o in refused] == [("private", "alice")]


async def test_the_gms_secret_check_reaches_only_the_gms(table: Table) -> None:
    await setup(table)
    outs = await table.say("gm", ".secret 艾莉絲 運動 dc3", dice=[10, 9, 8, 1])
    assert [(o.to, o.user, o.text) for o in outs] == [
        ("channel", None, "🤫 GM 為 艾莉絲 進行了一次秘密檢定（運動）。"),
        ("private", "gm",
         "（秘密檢定）🎲 艾莉絲「運動」：DP4 [10,9,8,1] → 3成功 ≥ DC3：成功（差額+0）"),
    ]
    assert outs[0].data == {"kind": "ace.secret", "character": "艾莉絲", "stat": "運動"}
    assert [o.to for o in await table.say("alice", ".secret 艾莉絲 運動")] == ["private"]


# --------------------------------------------------------------------------- AE-4


async def test_extended_actions_run_side_by_side_and_the_mishap_beats_them(
        table: Table, core: Core) -> None:
    await setup(table)
    assert await table.text("alice", ".ext new 修車 dc4 期限3") == (
        "⏳ 延長動作「修車」開始：DC4｜期限3期")
    assert await table.text("alice", ".ext new 水彩畫 dc2 過失") == (
        "⏳ 延長動作「水彩畫」開始：DC2｜過失規則")
    assert await table.text("alice", ".ext 修車 機械", dice=[8, 9, 1]) == (
        "⏳ 艾莉絲「修車」第1期（機械）：DP3 [8,9,1] → 2成功｜成功2/4 剩2期")
    assert await table.text("alice", ".ext 水彩畫 醫療", dice=[1, 5]) == (
        "⏳ 艾莉絲「水彩畫」第1期（醫療）：DP2 [1,5] → 0成功｜成功0/2 過失1/2 "
        "⚠ 再一個 1 就會失誤。")
    # AE-4: the 1s reach the DC before the successes do
    assert await table.text("alice", ".ext 水彩畫 醫療", dice=[1, 8]) == (
        "⏳ 艾莉絲「水彩畫」第2期（醫療）：DP2 [1,8] → 1成功｜成功1/2 過失2/2 "
        "💥 過失累積達到 DC，行動失誤！要再做必須從頭開始（.ext restart 水彩畫）。")
    before = await states(core)
    assert await table.text("alice", ".ext 水彩畫 醫療") == (
        "⚠ 「水彩畫」已結束（因過失失敗），不能再擲；用 .ext restart 水彩畫 從頭開始。")
    assert await states(core) == before
    assert await table.text("alice", ".ext") == (
        "⏳ 延長動作：修車 成功2/4 剩2期、水彩畫 成功1/2 過失2/2 因過失失敗")
    assert await table.text("alice", ".ext restart 水彩畫") == (
        "⏳「水彩畫」從頭開始：成功0/2 過失0/2")
    assert await table.text("alice", ".ext 修車 機械+1 專業", dice=[8, 2, 2, 2]) == (
        "⏳ 艾莉絲「修車」第2期（機械）：DP3+1 [8,2,2,2]+專業 → 2成功｜成功4/4 ✅ 完成！")


async def test_extended_deadline_and_who_may_drop(table: Table) -> None:
    await setup(table)
    await table.text("bob", ".pc new 鮑伯")
    await table.text("bob", ".st 機械 1")
    await table.text("alice", ".ext new 結界 dc3 期限=1")
    assert await table.text("bob", ".ext 結界 機械", dice=[8]) == (
        "⏳ 鮑伯「結界」第1期（機械）：DP1 [8] → 1成功｜成功1/3 ⌛ 期限已到，行動失敗。")
    assert await table.text("bob", ".ext drop 結界") == \
        "⚠ 只有開始「結界」的人或 GM 能重來或刪除它。"
    assert await table.text("alice", ".ext drop 结界") == "「結界」已移除（成功1/3 期限已過）。"
    assert await table.text("alice", ".ext 結界 機械") == "⚠ 沒有叫「結界」的延長動作。現有：-"
    assert await table.text("alice", ".ext new 結界") == (
        "⚠ 用法：.ext new 名稱 dc5 [期限3] [過失]｜.ext 名稱 技能｜"
        ".ext restart 名稱｜.ext drop 名稱")
    assert await table.text("alice", ".ext new 結界 dc0") == (
        "⚠ DC 必須在 0–1000 之間（延長動作至少 1）。")


async def test_extended_actions_survive_a_restart(table: Table, settings) -> None:
    await setup(table)
    await table.text("alice", ".ext new 修車 dc4")
    await table.text("alice", ".ext 修車 機械", dice=[8, 9, 1])
    again = await Core.open(settings)
    try:
        assert await Table(again).text("alice", ".ext") == "⏳ 延長動作：修車 成功2/4"
    finally:
        await again.close()


async def test_english_and_simplified_replies(table: Table) -> None:
    await setup(table)
    await table.text("gm", ".lang en")
    assert await table.text("alice", ".ra 力量 dc2", dice=[13, 9]) == (
        "🎲 艾莉絲 (STR): 1d20=13+6=19 -> DP1 [9] -> 1 succ. < DC2: failure (margin -1)")
    await table.text("gm", ".lang zh-Hans")
    # 運動 is one of ace's declared skills (issue 24): the bot's word, in the reader's script
    assert await table.text("alice", ".ra 運動", dice=[8, 3, 10, 1]) == (
        "🎲 艾莉絲「运动」：DP4 [8,3,10,1] → 2成功 ≥ DC1：成功（差额+1）")
