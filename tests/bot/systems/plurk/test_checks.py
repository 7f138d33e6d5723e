"""`plurk` investigation commands through a real Core with scripted dice (PL-1 … PL-12).

Every test names the rule it covers. Numbers are exact: the dice are scripted
and `tests.support.Table` fails a test that rolls a die it did not script.
Refusals are checked to change nothing (sheet and channel state unchanged).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import select

from bot import routes, systems
from bot.context import Context
from bot.core import Core
from bot.i18n import LOCALES, Catalog, rule_key
from bot.messages import Incoming, Outgoing, PlatformDie
from bot.router import CommandTable
from bot.systems import SystemPlugin
from bot.systems.plurk_trpg.documents import FatalEvent
from bot.systems.plurk_trpg.fatal import fatal_event, on_fatal_resolved
from bot.systems.plurk_trpg.terms import parse_terms
from rules.kits.game_system import GameSystem
from rules.systems import plurk_trpg as plurk
from tests.bot.test_commands import sheets
from tests.orm import ChannelState, sessions
from tests.support import Table, visible

ALICE = ".st 觀察 5 靈巧 3 力量 2 潛行 1 心理學 0 武器 4 體力 10 理智 50 因果點數 12"
BOB = ".st 觀察 2 潛行 4 靈巧 1 力量 2 體力 8 理智 40 因果點數 3"
CAROL = ".st 觀察=-1 潛行 0 體力 6 理智 30"


async def setup(table: Table, *, gm: bool = True) -> None:
    """A GM (if any) and three investigators: 艾莉絲 (alice), 鮑伯 (bob), 卡蘿 (carol)."""
    if gm:
        await table.text("gm", ".gm")
    for user, name, stats in (("alice", "艾莉絲", ALICE), ("bob", "鮑伯", BOB),
                              ("carol", "卡蘿", CAROL)):
        await table.text(user, f".pc new {name}")
        assert not (await table.text(user, stats)).startswith("⚠")


async def consent_free(table: Table, user: str = "gm") -> None:
    """The GM lets players take 10 / take 20 / push without asking (PL-10, issue 12
    item 5): the tests of those rules' arithmetic run under this standing consent."""
    for kind in ("take10", "take20", "push"):
        await table.text(user, f".ra allow {kind} on")


async def one(table: Table, user: str, text: str, dice: list[int] | None = None,
              **incoming: Any) -> Outgoing:
    """The single channel message of a command (fails if there is not exactly one)."""
    outs = await table.say(user, text, dice, **incoming)
    channel = [o for o in outs if o.to == "channel"]
    assert len(channel) == 1, outs
    return channel[0]


async def states(core: Core) -> dict[str, Any]:
    """Every channel state document, by key (for "a refusal changes nothing")."""
    async with sessions(core) as session:
        rows = await session.scalars(select(ChannelState))
        return {row.key: row.data for row in rows}


async def sheet(table: Table, user: str) -> str:
    return await table.text(user, ".st show")


async def snapshot(table: Table) -> tuple[Any, ...]:
    return (await states(table.core), *[await sheet(table, u) for u in ("alice", "bob", "carol")])


def check(out: Outgoing) -> dict[str, Any]:
    assert out.data is not None and out.data["kind"] == "plurk_check", out
    return out.data


# --------------------------------------------------------------------------- PL-1


async def test_pl1_plurk_emoticon_die_is_the_players_own(table: Table) -> None:
    await setup(table)
    die = (PlatformDie(20, 13, "(dice20)"),)
    out = await one(table, "alice", ".ra 觀察 (dice20)", dice=[], platform_dice=die)
    data = check(out)
    assert (data["raw"], data["modifier"], data["value"], data["success"]) == (13, 5, 18, True)
    assert out.text.endswith("（使用了玩家自己的噗浪骰：(dice20) 13）")
    assert "1d20=13" in out.text


async def test_pl1_stray_1d20_token_is_ignored_and_bot_rolls(table: Table) -> None:
    await setup(table)
    data = check(await one(table, "alice", ".ra 觀察 1d20+2", dice=[7]))
    assert (data["raw"], data["modifier"], data["bonus"], data["value"]) == (7, 5, 2, 14)


async def test_pl1_emoticon_die_is_refused_for_a_hidden_check(table: Table) -> None:
    await setup(table)
    before = await snapshot(table)
    outs = await table.say("alice", ".rah 觀察 (dice20)", dice=[],
                           platform_dice=(PlatformDie(20, 4, "(dice20)"),))
    # a hidden command's refusal is the player's alone (issue 8, item 6)
    assert [(o.to, o.user, o.text, o.secret) for o in outs] == [(
        "private", "alice",
        "⚠ 噗浪骰的結果大家都看得到；暗骰或暗中檢定請讓機器人擲骰（不要附骰子表情）。", True)]
    assert await snapshot(table) == before


# --------------------------------------------------------------------------- PL-2 / PL-3


async def test_pl2_check_uses_sheet_modifier_bonus_and_threshold(table: Table) -> None:
    await setup(table)
    out = await one(table, "alice", ".ra 觀察+2 >=15", dice=[13])
    data = check(out)
    assert (data["raw"], data["modifier"], data["bonus"], data["value"], data["threshold"],
            data["success"], data["crit"], data["fumble"]) == (13, 5, 2, 20, 15, True, False,
                                                                False)
    assert out.text == "🎲 艾莉絲「觀察」檢定：1d20=13 觀察+5 情境+2 = 20 ≥ 閾值 15 → 成功"


async def test_pl2_default_threshold_is_11_and_spellings_fold(table: Table) -> None:
    await setup(table)
    assert check(await one(table, "alice", ".ra 观察", dice=[5]))["value"] == 10
    failed = check(await one(table, "alice", ".檢定 觀察", dice=[5]))
    assert (failed["threshold"], failed["success"]) == (11, False)
    passed = check(await one(table, "alice", ".ra觀察 - 1", dice=[7]))
    assert (passed["value"], passed["bonus"], passed["success"]) == (11, -1, True)
    dex = check(await one(table, "alice", ".ra DEX >= 4", dice=[1]))
    assert (dex["stat"], dex["value"], dex["success"], dex["fumble"]) == ("靈巧", 4, True, True)


async def test_pl2_bare_modifier_needs_no_sheet(table: Table) -> None:
    out = await one(table, "stranger", ".ra 5", dice=[9])
    assert (check(out)["value"], check(out)["stat"]) == (14, None)
    assert out.text == "🎲 stranger「一般」檢定：1d20=9 修正+5 = 14 ≥ 閾值 11 → 成功"


async def test_pl2_missing_stat_and_garbage_are_refused(table: Table) -> None:
    await setup(table)
    before = await snapshot(table)
    assert "沒有「醫療」" in (await one(table, "alice", ".ra 醫療", dice=[])).text
    assert "用法" in (await one(table, "alice", ".ra 觀察 潛行", dice=[])).text
    assert "用法" in (await one(table, "alice", ".ra 觀察 >=3 >=4", dice=[])).text
    assert await snapshot(table) == before


async def test_pl3_crit_and_fumble_are_reported_apart_from_the_outcome(table: Table) -> None:
    await setup(table)
    crit = await one(table, "alice", ".ra 觀察 >=30", dice=[20])
    assert (check(crit)["success"], check(crit)["crit"]) == (False, True)
    assert crit.text.endswith("= 25 < 閾值 30 → 失敗｜大成功（原始 20）")
    fumble = await one(table, "alice", ".ra 觀察 >=5", dice=[1])
    assert (check(fumble)["success"], check(fumble)["fumble"]) == (True, True)
    assert fumble.text.endswith("= 6 ≥ 閾值 5 → 成功｜大失敗（原始 1）")


# --------------------------------------------------------------------------- PL-4


async def test_pl4_gm_calls_fate_and_the_player_rolls_certain_success(table: Table) -> None:
    await setup(table)
    await one(table, "alice", ".ra 觀察 >=30", dice=[20])  # crit, failure
    called = await one(table, "gm", ".fate 艾莉絲 >=12", dice=[])
    assert called.data == {"kind": "plurk_fate_call", "user": "alice", "character": "艾莉絲",
                           "threshold": 12}
    out = await one(table, "alice", ".fate", dice=[12])
    assert out.data is not None
    assert (out.data["raw"], out.data["threshold"], out.data["success"], out.data["certain"],
            out.data["original_success"], out.data["final_success"]) == (
        12, 12, True, "success", False, True)
    assert "必定成功" in out.text and out.text.endswith("最終：成功")
    again = await one(table, "alice", ".fate", dice=[])
    assert "已經擲過" in again.text


async def test_pl4_fumble_then_failed_fate_is_certain_failure_rolled_by_gm(table: Table) -> None:
    await setup(table)
    await one(table, "bob", ".ra 觀察 >=3", dice=[1])  # fumble, success
    out = await one(table, "gm", ".fate @bob roll", dice=[10])
    assert out.data is not None
    assert (out.data["raw"], out.data["threshold"], out.data["certain"],
            out.data["final_success"]) == (10, 11, "failure", False)


async def test_pl4_fate_refusals_change_nothing(table: Table) -> None:
    await setup(table)
    await one(table, "alice", ".ra 觀察", dice=[10])  # neither crit nor fumble
    before = await snapshot(table)
    assert "大成功或大失敗之後" in (await one(table, "gm", ".fate 艾莉絲", dice=[])).text
    assert "還沒有要求" in (await one(table, "alice", ".fate", dice=[])).text
    await one(table, "bob", ".ra 觀察", dice=[20])
    before = await snapshot(table)
    assert "只有本頻道的 GM" in (await one(table, "alice", ".fate 鮑伯", dice=[])).text
    assert "還沒有可以參照" in (await one(table, "gm", ".fate 卡蘿", dice=[])).text
    assert await snapshot(table) == before


async def test_pl4_without_gms_a_player_calls_and_rolls_their_own(table: Table) -> None:
    await setup(table, gm=False)
    await one(table, "alice", ".ra 觀察", dice=[20])
    out = await one(table, "alice", ".fate >=15", dice=[14])
    assert (out.data["threshold"], out.data["certain"], out.data["final_success"]) == (
        15, None, True)


async def test_pl4_pl10_last_check_survives_a_restart(settings) -> None:
    first = await Core.open(settings)
    await setup(Table(first))
    await consent_free(Table(first))
    await one(Table(first), "alice", ".ra 觀察", dice=[3])
    await first.close()
    second = await Core.open(settings)
    try:
        pushed = await one(Table(second), "alice", ".push", dice=[9])
        assert (check(pushed)["raw"], check(pushed)["value"]) == (9, 14)
    finally:
        await second.close()


# --------------------------------------------------------------------------- PL-5


async def test_pl5_sanity_check_applies_the_loss_to_the_sheet(table: Table) -> None:
    await setup(table)
    failed = await one(table, "alice", ".sc 1/1d6", dice=[80, 4])
    assert failed.data is not None
    assert (failed.data["roll"], failed.data["success"], failed.data["loss"],
            failed.data["san_after"]) == (80, False, 4, 46)
    assert failed.text == ("🧠 艾莉絲 理智檢定：1d100=80 > 50 → 失敗；損失 1d6：[4] = 4\n"
                           "理智 50 → 46")
    passed = await one(table, "alice", ".sc 1/1d6", dice=[46])
    assert (passed.data["success"], passed.data["loss"], passed.data["san_after"]) == (
        True, 1, 45)
    assert "理智:45" in await sheet(table, "alice")


async def test_pl5_sanity_refusals_change_nothing(table: Table) -> None:
    await setup(table)
    before = await snapshot(table)
    assert "1/1d6" in (await one(table, "alice", ".sc 1/1d6x", dice=[])).text
    assert "用法" in (await one(table, "alice", ".sc", dice=[])).text
    assert "只有該角色的玩家或 GM" in (await one(table, "alice", ".sc 1/1d6 鮑伯", dice=[])).text
    assert await snapshot(table) == before


async def test_pl5_pl12_a_missing_resource_says_how_to_set_it(table: Table) -> None:
    """`.sc` without 理智 or `.hp` without 體力 on the sheet: the way out is `.st 理智 N`,
    never "give a modifier" (that is a check's way out, not a resource's)."""
    await table.text("dave", ".pc new 戴夫")
    before = await sheet(table, "dave")
    assert (await one(table, "dave", ".sc 1/1d6", dice=[])).text == (
        "⚠ 戴夫 的角色卡上沒有「理智」。先用 .st 理智 N 設定。")
    assert (await one(table, "dave", ".hp -3", dice=[])).text == (
        "⚠ 戴夫 的角色卡上沒有「體力」。先用 .st 體力 N 設定。")
    assert await sheet(table, "dave") == before
    await table.text("dave", ".lang zh-Hans")
    assert (await one(table, "dave", ".san")).text == (
        "⚠ 戴夫 的角色卡上没有「理智」。先用 .st 理智 N 设定。")
    await table.text("dave", ".lang en")
    assert (await one(table, "dave", ".hp")).text == (
        "⚠ 戴夫's sheet has no “HP”. Set it with .st HP N.")
    await table.text("dave", ".st HP 7")
    assert (await one(table, "dave", ".hp")).text == "戴夫's HP: 7"


async def test_pl5_pl12_sanity_loss_to_zero_is_a_fatal_event(table: Table) -> None:
    await setup(table)
    out = await one(table, "gm", ".sc 1d10/1d100 卡蘿", dice=[90, 31])
    assert out.data is not None and out.data["fatal"] is True and out.data["san_after"] == 30
    assert "致命事件 #1：卡蘿 的理智將從 30 降到 0（損失 31）" in out.text
    assert "理智:30" in await sheet(table, "carol")


# --------------------------------------------------------------------------- PL-6


async def test_pl6_general_opposed_between_two_investigators(table: Table) -> None:
    await setup(table)
    out = await one(table, "alice", ".op 觀察 vs 潛行 @bob", dice=[10, 12])
    assert out.data is not None
    assert (out.data["a"]["value"], out.data["b"]["value"], out.data["winner"],
            out.data["winner_label"]) == (15, 16, "b", "鮑伯")
    draw = await one(table, "alice", ".對抗 觀察 vs 潛行 鮑伯", dice=[11, 12])
    assert (draw.data["winner"], draw.data["decided_by"]) == (None, "draw")
    assert draw.text.endswith("→ 平手")


async def test_pl6_zero_sum_tie_goes_to_modifier_then_reroll(table: Table) -> None:
    await setup(table)
    by_mod = await one(table, "alice", ".op 觀察 vs 潛行 @bob zerosum", dice=[11, 12])
    assert (by_mod.data["winner"], by_mod.data["decided_by"]) == ("a", "modifier")
    rerolled = await one(table, "alice", ".op 力量 vs 力量 @bob 零和", dice=[5, 5, 9, 3])
    assert rerolled.data["rerolls"] == [[5, 5]]
    assert (rerolled.data["a"]["raw"], rerolled.data["winner"]) == (9, "a")


async def test_pl6_one_way_against_an_npc_value(table: Table) -> None:
    await setup(table)
    out = await one(table, "alice", ".op 交涉 vs 12 oneway", dice=[])
    assert "沒有「交涉」" in out.text  # alice has no 交涉: refused before any die
    out = await one(table, "alice", ".op 觀察+2 vs 8 oneway", dice=[11])
    assert out.data["b"] == {"label": "NPC", "stat": "觀察", "raw": None, "modifier": 8,
                             "bonus": 0, "value": 18, "crit": False, "fumble": False,
                             "passive": True}
    assert (out.data["a"]["value"], out.data["winner"]) == (18, "a")  # active wins ties


async def test_pl6_gm_rolls_an_npc_against_an_investigator(table: Table) -> None:
    await setup(table)
    out = await one(table, "gm", ".op 潛行 6 vs 觀察 @alice", dice=[4, 4])
    assert (out.data["a"]["label"], out.data["a"]["value"], out.data["b"]["value"],
            out.data["winner"]) == ("NPC", 10, 9, "a")


async def test_pl6_attribute_vs_skill_is_refused(table: Table) -> None:
    await setup(table)
    before = await snapshot(table)
    out = await one(table, "alice", ".op 靈巧 vs 潛行 @bob", dice=[])
    assert out.text == ("⚠ 屬性只能對抗屬性、技能只能對抗技能："
                        "艾莉絲 的「靈巧」和 鮑伯 的「潛行」種類不同。")
    assert "用法" in (await one(table, "alice", ".op 觀察 潛行 @bob", dice=[])).text
    assert await snapshot(table) == before


# --------------------------------------------------------------------------- PL-7


async def test_pl7_secret_roll_reaches_only_the_gms(table: Table) -> None:
    await setup(table)
    await table.text("gm", ".gm add gm2")
    outs = await table.say("gm", ".secret 鮑伯 觀察 +2 >=15", dice=[17])
    channel = [o for o in outs if o.to == "channel"]
    private = [o for o in outs if o.to == "private"]
    assert [o.text for o in channel] == ["🤫 GM 為 鮑伯 進行了一次秘密「觀察」檢定。"]
    assert channel[0].data == {"kind": "plurk_secret", "character": "鮑伯", "stat": "觀察"}
    for secret in ("17", "21", "15", "成功", "失敗"):
        assert secret not in channel[0].text and secret not in str(channel[0].data)
    assert sorted(o.user for o in private) == ["gm", "gm2"]
    for message in private:
        assert message.secret
        assert message.text == ("（秘密檢定）🎲 鮑伯「觀察」檢定："
                                "1d20=17 觀察+2 情境+2 = 21 ≥ 閾值 15 → 成功")
        assert (message.data["raw"], message.data["value"]) == (17, 21)
    # not kept as bob's last check: a push or fate would reveal it
    assert "還沒有可以參照" in (await one(table, "bob", ".push", dice=[])).text


async def test_pl7_secret_roll_is_the_gms_and_refuses_cleanly(table: Table) -> None:
    await setup(table)
    before = await snapshot(table)
    # a hidden command's refusals go to the asker only (issue 8, item 6)
    for user, line in (("alice", ".secret 鮑伯 觀察"), ("gm", ".secret 大衛 觀察"),
                       ("gm", ".secret 鮑伯")):
        outs = await table.say(user, line, dice=[])
        assert [(o.to, o.user, o.secret) for o in outs] == [("private", user, True)], line
        assert outs[0].text.startswith("⚠"), outs
    assert "只有本頻道的 GM" in (await table.say("alice", ".secret 鮑伯 觀察"))[0].text
    assert "找不到「大衛」" in (await table.say("gm", ".secret 大衛 觀察"))[0].text
    assert "用法" in (await table.say("gm", ".secret 鮑伯"))[0].text
    assert await snapshot(table) == before


async def test_pl7_hidden_check_goes_to_roller_and_gm(table: Table) -> None:
    await setup(table)
    outs = await table.say("alice", ".rah 觀察", dice=[20])
    channel = [o for o in outs if o.to == "channel"]
    private = {o.user: o for o in outs if o.to == "private"}
    assert [o.text for o in channel] == ["🎲 艾莉絲 進行了一次暗中檢定。"]
    assert "20" not in str(channel[0].data) and "觀察" not in channel[0].text
    assert set(private) == {"alice", "gm"}
    assert all(o.secret and o.data["raw"] == 20 and o.data["crit"] for o in private.values())


# --------------------------------------------------------------------------- PL-8


async def test_pl8_merged_check_shares_one_die(table: Table) -> None:
    await setup(table)
    out = await one(table, "alice", ".rm 觀察 靈巧+1 潛行>=12 >=13", dice=[10])
    assert out.data["raw"] == 10
    values = [(r["stat"], r["value"], r["threshold"], r["success"]) for r in out.data["results"]]
    assert values == [("觀察", 15, 13, True), ("靈巧", 14, 13, True), ("潛行", 11, 12, False)]
    assert out.data["all_success"] is False


async def test_pl8_compound_check_uses_the_floored_mean(table: Table) -> None:
    await setup(table)
    out = await one(table, "alice", ".rm 觀察 靈巧 潛行 compound", dice=[4])
    data = check(out)
    assert (data["modifiers"], data["mean_modifier"], data["value"], data["success"]) == (
        [5, 3, 1], 3, 7, False)
    assert data["stat"] == "觀察+靈巧+潛行"


async def test_pl8_multiple_count_and_duplicates_are_refused(table: Table) -> None:
    await setup(table)
    before = await snapshot(table)
    assert "2 到 5 項（給了 1 項）" in (await one(table, "alice", ".rm 觀察", dice=[])).text
    six = ".rm 觀察 靈巧 力量 潛行 心理學 武器"
    assert "給了 6 項" in (await one(table, "alice", six, dice=[])).text
    assert "「觀察」重複了" in (await one(table, "alice", ".rm 觀察 观察", dice=[])).text
    assert await snapshot(table) == before


# --------------------------------------------------------------------------- PL-9


async def test_pl9_collective_check_one_raw_each_own_modifier(table: Table) -> None:
    await setup(table)
    out = await one(table, "alice", ".rg 觀察 鮑伯 @carol", dice=[9])
    results = [(r["name"], r["raw"], r["value"], r["success"]) for r in out.data["results"]]
    assert results == [("艾莉絲", 9, 14, True), ("鮑伯", 9, 11, True), ("卡蘿", 9, 8, False)]
    assert out.text.startswith("🎲 集體「觀察」檢定，艾莉絲 代表擲骰 1d20=9：")
    gm = await one(table, "gm", ".rg 潛行 @bob @carol >=14", dice=[10])
    assert [(r["name"], r["value"], r["success"]) for r in gm.data["results"]] == [
        ("鮑伯", 14, True), ("卡蘿", 10, False)]


async def test_pl9_collective_refusals(table: Table) -> None:
    await setup(table)
    before = await snapshot(table)
    assert "戰鬥技能「武器」不能集體檢定" in (await one(table, "alice", ".rg 武器 鮑伯",
                                                           dice=[])).text
    assert "至少需要 2 位" in (await one(table, "gm", ".rg 觀察 @bob", dice=[])).text
    assert "鮑伯 重複了" in (await one(table, "gm", ".rg 觀察 @bob 鮑伯", dice=[])).text
    assert await snapshot(table) == before


async def test_pl9_a_players_collective_check_keeps_anothers_open_check(table: Table) -> None:
    """Issue 22: bob's `.rg` naming alice would replace her failed check, so her `.push`
    would be refused: only she or a GM replaces an open last check."""
    await setup(table)
    await consent_free(table)
    await one(table, "alice", ".ra 觀察 >=20", dice=[3])  # 8 < 20: a failure she may push
    before = await snapshot(table)
    refused = await one(table, "bob", ".rg 觀察 @alice", dice=[])
    assert refused.text == ("⚠ 艾莉絲 的上一次檢定可能還有後續（孤注一擲、命運檢定）："
                            "只有其玩家本人或 GM 的集體檢定能取代它。")
    assert await snapshot(table) == before
    pushed = check(await one(table, "alice", ".push", dice=[16]))
    assert (pushed["raw"], pushed["value"], pushed["success"]) == (16, 21, True)
    # a closed check (pushed) may be replaced; and a GM replaces an open one
    out = await one(table, "bob", ".rg 觀察 @alice", dice=[2])
    assert [(r["name"], r["raw"]) for r in out.data["results"]] == [("鮑伯", 2), ("艾莉絲", 2)]
    await one(table, "carol", ".ra 潛行 >=20", dice=[4])
    gm = await one(table, "gm", ".rg 潛行 @carol @bob", dice=[5])
    assert [(r["name"], r["raw"]) for r in gm.data["results"]] == [("卡蘿", 5), ("鮑伯", 5)]


async def test_pl9_a_hidden_check_is_open_whatever_it_holds(table: Table) -> None:
    """PL-7: alice's hidden success refuses bob's `.rg` as a failure would, so the
    refusal says nothing about it."""
    await setup(table)
    await table.say("alice", ".rah 觀察", dice=[19])  # 24 ≥ 11: a success, hidden
    refused = await one(table, "bob", ".rg 觀察 @alice", dice=[])
    assert refused.text.startswith("⚠ 艾莉絲 的上一次檢定可能還有後續")


# --------------------------------------------------------------------------- PL-10


async def test_pl10_take_10_and_take_20_roll_no_die(table: Table) -> None:
    await setup(table)
    await consent_free(table)
    ten = check(await one(table, "alice", ".ra 觀察 取10", dice=[]))
    assert (ten["raw"], ten["value"], ten["mode"]) == (10, 15, "take10")
    twenty = await one(table, "alice", ".ra 靈巧 t20 >=30", dice=[])
    assert (check(twenty)["raw"], check(twenty)["crit"], check(twenty)["success"]) == (
        20, False, False)
    assert "取20=20" in twenty.text and "大成功" not in twenty.text


async def test_pl10_push_rerolls_a_failed_skill_check(table: Table) -> None:
    await setup(table)
    await consent_free(table)
    await one(table, "alice", ".ra 觀察", dice=[3])
    out = await one(table, "alice", ".孤注", dice=[8])
    data = check(out)
    assert (data["raw"], data["value"], data["success"], data["fumble"], data["mode"]) == (
        8, 13, True, False, "push")
    assert data["original"]["raw"] == 3
    assert "已經孤注一擲過" in (await one(table, "alice", ".ra push", dice=[])).text


async def test_pl10_failed_push_is_a_fumble(table: Table) -> None:
    await setup(table)
    await consent_free(table)
    await one(table, "alice", ".ra 觀察 >=20", dice=[3])
    out = await one(table, "alice", ".ra push", dice=[12])
    assert (check(out)["value"], check(out)["success"], check(out)["fumble"]) == (17, False, True)
    assert out.text.endswith("→ 失敗｜孤注失敗＝大失敗")


@pytest.mark.parametrize(("line", "raw", "message"), [
    (".ra 武器 >=30", 5, "戰鬥技能「武器」不能孤注一擲"),
    (".ra 靈巧 >=30", 5, "「靈巧」是屬性"),
    (".ra 觀察 >=30", 1, "大失敗之後不能孤注一擲"),
    (".ra 觀察", 15, "只有失敗的檢定可以孤注一擲"),
])
async def test_pl10_push_refusals_change_nothing(table: Table, line: str, raw: int,
                                                 message: str) -> None:
    await setup(table)
    await one(table, "alice", line, dice=[raw])
    before = await snapshot(table)
    assert message in (await one(table, "alice", ".push", dice=[])).text
    assert await snapshot(table) == before


# --------------------------------------------------------------------------- PL-11


async def test_pl11_ap_pool_grant_spend_and_forced_advance(table: Table) -> None:
    await setup(table)
    assert (await one(table, "gm", ".ap grant 4")).data["points"] == 4
    spent = await one(table, "alice", ".ap 搜索")
    assert (spent.data["action"], spent.data["cost"], spent.data["after"]) == ("observe", 1, 3)
    assert "只有本頻道的 GM" in (await one(table, "bob", ".ap cost 移動 3")).text
    assert "移動 3" in (await one(table, "gm", ".ap cost 移動 3")).text
    last = await one(table, "bob", ".ap spend 移動")
    assert (last.data["cost"], last.data["after"], last.data["exhausted"]) == (3, 0, True)
    assert last.text.endswith("📢 行動點數已用盡，劇情強制推進！")
    before = await snapshot(table)
    refused = await one(table, "carol", ".ap 觀察")
    assert refused.text == "⚠ 行動點數不足：觀察/搜索 需要 1，只剩 0。"
    assert "沒有設定行動點數消耗" in (await one(table, "carol", ".ap 開鎖")).text
    assert "只有本頻道的 GM" in (await one(table, "carol", ".ap spend 開鎖 0")).text
    assert await snapshot(table) == before
    assert (await one(table, "gm", ".ap set 2")).data["points"] == 2
    custom = await one(table, "gm", ".ap spend 開鎖 2")
    assert (custom.data["action"], custom.data["after"], custom.data["exhausted"]) == (
        "開鎖", 0, True)


async def test_pl11_a_spend_names_the_character_not_the_account(table: Table) -> None:
    """`.ap spend` names who spends as `.rg` names its roller: the player's active
    character; the display name only for a player without one (or a GM)."""
    await setup(table)
    await table.text("gm", ".ap grant 6")
    await table.text("gm", ".ap cost 移動 2")
    assert (await one(table, "alice", ".ap spend 移動")).text == (
        "艾莉絲 花費 2 點行動點數（移動）：6 → 4")
    assert (await one(table, "bob", ".ap 觀察")).text == (
        "鮑伯 花費 1 點行動點數（觀察/搜索）：4 → 3")
    assert (await one(table, "dave", ".ap 觀察")).text == (
        "dave 花費 1 點行動點數（觀察/搜索）：3 → 2")
    await table.text("gm", ".lang zh-Hans")
    assert (await one(table, "carol", ".ap 观察")).text == (
        "卡蘿 花费 1 点行动点数（观察/搜索）：2 → 1")
    await table.text("gm", ".lang en")
    assert (await one(table, "alice", ".ap 觀察")).text == (
        "艾莉絲 spends 1 AP (observe/search): 1 → 0\n"
        "📢 AP exhausted: the scene is forced to advance!")


async def test_pl11_concurrent_spends_cannot_both_pass_the_pool(core: Core) -> None:
    table = Table(core)
    await table.text("gm", ".gm")
    await table.text("gm", ".ap set 3")
    spends = [Incoming("console", "table", user, ".ap spend 移動", display_name=user)
              for user in ("alice", "bob")]
    results = await asyncio.gather(*(core.handle(message) for message in spends))
    texts = sorted(outs[0].text for outs in results)
    assert sum(text.startswith("⚠ 行動點數不足") for text in texts) == 1
    assert sum("3 → 1" in text for text in texts) == 1
    assert (await states(core))["plurk.ap"]["points"] == 1


# --------------------------------------------------------------------------- PL-12


async def test_pl12_cp_award_and_show(table: Table) -> None:
    await setup(table)
    out = await one(table, "gm", ".cp award 鮑伯 8")
    assert out.text == "鮑伯 的因果點數 +8：3 → 11"
    assert (await one(table, "bob", ".cp")).data["cp"] == 11
    before = await snapshot(table)
    assert "只有本頻道的 GM" in (await one(table, "bob", ".cp award 鮑伯 5")).text
    assert "不能低於 0" in (await one(table, "gm", ".cp award 鮑伯 -12")).text
    assert await snapshot(table) == before


async def test_pl12_hp_loss_to_zero_waits_and_intervention_cancels_it(table: Table) -> None:
    await setup(table)
    assert (await one(table, "alice", ".hp -4")).text == "艾莉絲 的體力：10 → 6"
    fatal = await one(table, "gm", ".hp -6 艾莉絲")
    assert fatal.text == (
        "☠ 致命事件 #1：艾莉絲 的體力將從 6 降到 0（損失 6），尚未套用。\n"
        "艾莉絲 持有 12 點因果點數：可用 .intervene 花費 5 點常世干預、"
        "取消這次損失，或 .accept 承受。GM 也可代為決定。")
    assert "體力:6" in await sheet(table, "alice")
    assert (await states(table.core))["plurk.fatal"]["events"][0] == {
        "id": 1, "owner": "alice", "character": "艾莉絲", "character_id": 1, "resource": "體力",
        "loss": 6, "before": 6, "after": 0, "sheet": 6, "source": "hp",
        "details": {}}
    before = await snapshot(table)
    assert "至少要花費 5 點" in (await one(table, "alice", ".intervene 4")).text
    assert "只有該角色的玩家或 GM" in (await one(table, "bob", ".intervene 艾莉絲")).text
    assert await snapshot(table) == before
    done = await one(table, "alice", ".干預 6")
    assert done.text == "✨ 艾莉絲 發動常世干預，花費 6 點因果點數（12 → 6），取消了體力損失 6。"
    assert "體力:6" in await sheet(table, "alice") and "因果點數:6" in await sheet(table, "alice")
    assert (await states(table.core))["plurk.fatal"]["events"] == []


async def test_pl12_intervention_needs_10_cp_held_then_accept_applies(table: Table) -> None:
    await setup(table)
    fatal = await one(table, "bob", ".san -40")
    assert "鮑伯 只有 3 點因果點數" in fatal.text
    before = await snapshot(table)
    assert "持有 10 點以上的因果點數才能常世干預（目前 3）" in (
        await one(table, "bob", ".intervene")).text
    assert await snapshot(table) == before
    accepted = await one(table, "bob", ".承受")
    assert accepted.text == "鮑伯 承受了理智損失 40：40 → 0。"
    assert "理智:0" in await sheet(table, "bob")
    assert "沒有符合" in (await one(table, "bob", ".accept")).text


async def test_pl12_gm_sets_cost_and_resolves_for_a_player(table: Table) -> None:
    await setup(table)
    await one(table, "gm", ".intervene cost 7")
    await one(table, "gm", ".hp -10 @alice")
    await one(table, "gm", ".hp -8 @bob")
    assert "好幾個角色" in (await one(table, "gm", ".accept")).text
    listing = await one(table, "gm", ".fatal")
    assert listing.text.splitlines() == ["待決的致命事件（常世干預消耗 7 點因果點數）：",
                                         "#1 艾莉絲：體力 10，損失 10", "#2 鮑伯：體力 8，損失 8"]
    assert "至少要花費 7 點" in (await one(table, "alice", ".intervene 5")).text
    assert "12 → 5" in (await one(table, "gm", ".intervene #1")).text
    assert "8 → 0" in (await one(table, "gm", ".accept 鮑伯")).text
    assert "體力:0" in await sheet(table, "bob")


async def test_pl12_fatal_event_interface_and_resolution_hook(table: Table) -> None:
    """The battle's path: `fatal_event` from another command, a hook on resolution."""
    await setup(table)
    seen: list[tuple[str, int, dict[str, Any]]] = []

    @on_fatal_resolved("test-source")
    async def hook(ctx: Context, record: FatalEvent, outcome: str) -> list[str]:
        seen.append((outcome, record.loss, record.details))
        return ["hook ran"]

    async def handler(ctx: Context) -> list[Outgoing]:
        lines = await fatal_event(ctx, "alice", "艾莉絲", "HP", 15, source="test-source",
                                  current=9, details={"combatant": "艾莉絲", "hp_before": 9})
        return [ctx.reply("\n".join(lines))]

    # another command calls it: a layer's own, played on top of plurk
    hooked = CommandTable("plurkhook")
    hooked.command("hooked")(handler)
    routes.register(SystemPlugin(GameSystem("plurkhook", ("Hook",)), hooked,
                                 layer_of=("plurk",)))
    try:
        await table.text("gm", ".system plurk+plurkhook")
        announced = await one(table, "gm", ".hooked")
    finally:
        routes.unregister("plurkhook")
        await table.text("gm", ".system plurk")
    assert announced.text.startswith("☠ 致命事件 #1：艾莉絲 的體力將從 9 降到 0（損失 15）")
    assert "體力:10" in await sheet(table, "alice")
    resolved = await one(table, "alice", ".intervene")
    assert resolved.text.endswith("\nhook ran")
    assert seen == [("intervened", 15, {"combatant": "艾莉絲", "hp_before": 9})]


async def test_pl12_player_changes_only_their_own_when_a_gm_exists(table: Table) -> None:
    await setup(table)
    before = await snapshot(table)
    assert "只有該角色的玩家或 GM" in (await one(table, "alice", ".hp -3 鮑伯")).text
    negative = await one(table, "alice", ".hp --3")  # error.plurk.negative_amount
    assert negative.text.startswith("⚠") and "-3" in negative.text
    assert await snapshot(table) == before
    assert (await one(table, "alice", ".hp +2")).text == "艾莉絲 的體力：10 → 12"
    assert (await one(table, "gm", ".san =33 @carol")).text == "卡蘿 的理智：30 → 33"


# --------------------------------------------------------------------------- catalogs, parsing


PLURK_CODES = (
    "push_combat", "push_not_skill", "push_after_fumble", "push_not_failed", "fate_not_allowed",
    "bad_san_loss", "negative_amount", "intervention_cost_too_low", "intervention_cp_too_low",
    "intervention_cp_insufficient", "cp_negative", "opposed_mixed_kinds", "reroll_limit",
    "multiple_count", "multiple_duplicate", "collective_combat", "collective_too_few",
    "collective_duplicate", "ap_unknown_action", "ap_insufficient", "bad_dice", "dice_limit",
    "bad_mode", "bad_opposed_mode",
)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_reachable_plurk_refusal_and_help_is_localised(locale: str) -> None:
    catalog = systems.catalog()
    keys = [f"plurk.error.{code}" for code in PLURK_CODES]
    keys += [f"plurk.help.{name}" for name in (
        "ra", "rah", "push", "fate", "sc", "op", "secret", "rm", "rg", "ap", "cp", "hp", "san",
        "intervene", "accept", "fatal")]
    assert [key for key in keys if not catalog.has(key, locale)] == []


async def test_every_investigation_command_is_listed_in_help(table: Table) -> None:
    listing = "\n".join(o.text for o in await table.say("u", ".help all") if o.to == "channel")
    for name in ("ra", "rah", "push", "fate", "sc", "op", "secret", "rm", "rg", "ap", "cp",
                 "hp", "san", "intervene", "accept", "fatal"):
        assert f"\n.{name} — " in listing, name
    assert (await table.text("u", ".help 孤注")).startswith(".push / .孤注 / .孤注一擲")


async def test_commands_answer_in_english_too(table: Table) -> None:
    await setup(table)
    await table.text("gm", ".lang en")
    out = await one(table, "alice", ".ra 觀察 >=30", dice=[20])
    assert out.text == ("🎲 艾莉絲: Observe check: 1d20=20 Observe+5 = 25 < threshold 30 → failure"
                        " | CRIT (raw 20)")


def test_terms_split_bonuses_thresholds_and_modes() -> None:
    terms, mode = parse_terms("觀察+2-1>=15 @bob 1d20 取10 + 3 >= 12")
    assert mode == "take10"
    assert [(t.word, t.number, t.bonus, t.threshold) for t in terms] == [
        ("觀察", None, 1, 15), ("@bob", None, 0, None), (None, None, 3, None),
        (None, None, 0, 12)]


async def test_plurk_commands_refuse_in_another_system(table: Table) -> None:
    from bot import router, systems
    from rules.kits.game_system import GameSystem

    systems.register(systems.SystemPlugin(GameSystem("other", ("Other",)),
                                          router.CommandTable("other")))
    try:
        await table.text("u", ".system other")
        assert (await one(table, "u", ".ra 5", dice=[])).text == (
            "⚠ .ra 是 ace、ap20、coc7、plurk 規則系統的指令；"
            "本頻道玩的是 other（可用 .system 切換）。")
    finally:
        systems.unregister("other")
    assert plurk.SYSTEM.id == "plurk"


async def test_rc_is_the_ordinary_check_players_know_from_coc_bots(table: Table) -> None:
    """`.rc 觀察` is what CoC dice bots call a check: here it is `.ra` (PL-2); the
    collective check (PL-9) is `.rg`."""
    await table.say("alice", ".st 觀察 3")
    by_ra = await table.say("alice", ".ra 觀察", dice=[12])
    by_rc = await table.say("alice", ".rc 觀察", dice=[12])
    assert [o.text for o in by_rc] == [o.text for o in by_ra]
    assert by_rc[0].data == by_ra[0].data


async def test_pl12_a_fatal_loss_through_st_is_a_fatal_event_too(table: Table) -> None:
    """`.st 體力-8` is a loss like `.hp -8`: it waits for `.intervene` / `.accept`."""
    await table.say("alice", ".st 體力 5 理智 3 因果點數 12 觀察 1")
    out = await one(table, "alice", ".st hp-8 觀察+1")
    assert out.text.startswith("alice 的數值已更新：觀察:1→2\n☠ 致命事件 #1")
    assert "體力:5" in await sheet(table, "alice")
    assert "致命事件 #2" in (await one(table, "alice", ".st san-5")).text
    assert "理智:3" in await sheet(table, "alice")
    await table.say("alice", ".accept #2")
    assert "理智:0" in await sheet(table, "alice")
    # issue 12 item 2: no other loss of 體力 while #1 waits (it would be judged on 5)
    assert (await one(table, "alice", ".st hp-3")).text == (
        "⚠ alice 的體力還有待決的致命事件 #1（損失 8）：請先 .intervene 或 .accept，"
        "再結算新的損失。")
    assert "體力:5" in await sheet(table, "alice")


# --------------------------------------------------------------------------- review fixes


HIDDEN_WORDS = ("成功", "失敗", "大成功", "大失敗", "孤注失敗", "原始")


def assert_nothing_leaks(outs: list[Outgoing], *numbers: int) -> Outgoing:
    """The one channel message of a push / fate about a hidden check: the neutral
    follow-up, with no number, outcome or crit/fumble word in its text or data."""
    channel = [o for o in outs if o.to == "channel"]
    assert len(channel) == 1, outs
    public = channel[0].text + repr(channel[0].data)
    for secret in (*map(str, numbers), *HIDDEN_WORDS):
        assert secret not in public, (secret, public)
    assert all(o.secret for o in outs if o.to == "private")
    return channel[0]


def privately(outs: list[Outgoing]) -> dict[str, str]:
    return {o.user or "": o.text for o in outs if o.to == "private"}


FOLLOWUP_PUSH = "🤫 艾莉絲 的暗中檢定：孤注一擲的回覆已私下傳送給本人與 GM。"
FOLLOWUP_FATE = "🤫 艾莉絲 的暗中檢定：命運檢定的回覆已私下傳送給本人與 GM。"


async def test_pl7_refusals_about_a_hidden_check_are_private(table: Table) -> None:
    """PL-7 (with PL-4, PL-10): refusing a push or a fate check of a hidden check says
    what the check was (a success, a fumble, the raw die) — only the asker may read it."""
    await setup(table)
    await table.say("alice", ".rah 觀察", dice=[12])  # 12 + 5 = 17 ≥ 11: a success
    before = await snapshot(table)
    outs = await table.say("alice", ".push", dice=[])
    assert assert_nothing_leaks(outs, 12, 17).text == FOLLOWUP_PUSH
    assert outs[0].data == {"kind": "plurk_hidden_followup", "user": "alice",
                            "character": "艾莉絲", "action": "push"}
    assert privately(outs) == {"alice": "⚠ 只有失敗的檢定可以孤注一擲。"}
    outs = await table.say("gm", ".fate 艾莉絲", dice=[])
    assert assert_nothing_leaks(outs, 12, 17).text == FOLLOWUP_FATE
    assert privately(outs) == {
        "gm": "⚠ 只有大成功或大失敗之後可以進行命運檢定（這次原始骰是 12）。"}
    outs = await table.say("alice", ".fate", dice=[])
    assert assert_nothing_leaks(outs, 12, 17).text == FOLLOWUP_FATE
    assert privately(outs) == {"alice": "⚠ GM 還沒有要求你進行命運檢定。"}
    assert await snapshot(table) == before  # refusals change nothing
    await table.say("alice", ".rah 觀察", dice=[1])  # a fumble
    outs = await table.say("alice", ".push", dice=[])
    assert assert_nothing_leaks(outs, 1, 6).text == FOLLOWUP_PUSH
    assert privately(outs) == {"alice": "⚠ 大失敗之後不能孤注一擲。"}


async def test_pl7_push_and_fate_of_a_hidden_check_reach_only_player_and_gms(
        table: Table) -> None:
    """PL-7 with PL-10 and PL-4: the push of a hidden failure, the GM's fate call on a
    hidden crit and its roll all go to the player and the GMs; the channel reads the
    same neutral line as for a refusal."""
    await setup(table)
    await consent_free(table)
    await table.say("alice", ".rah 觀察 >=20", dice=[3])  # 8 < 20: a failure
    outs = await table.say("alice", ".push", dice=[15])  # 20 ≥ 20: the push succeeds
    assert assert_nothing_leaks(outs, 3, 8, 15, 20).text == FOLLOWUP_PUSH
    line = "孤注一擲！🎲 艾莉絲「觀察」檢定：孤注 1d20=15 觀察+5 = 20 ≥ 閾值 20 → 成功"
    assert privately(outs) == {"alice": f"（暗中檢定）{line}",
                               "gm": f"（艾莉絲 的暗中檢定）{line}"}
    await table.say("alice", ".rah 觀察 >=30", dice=[20])  # crit, failure
    outs = await table.say("gm", ".fate 艾莉絲 >=12", dice=[])
    assert assert_nothing_leaks(outs, 20, 25).text == FOLLOWUP_FATE
    call = ("🎲 GM 要求 艾莉絲 對「觀察」的結果進行命運檢定（1d20 ≥ 閾值 12）。"
            "艾莉絲 請輸入 .fate 擲骰。")
    assert privately(outs) == {"alice": f"（暗中檢定）{call}", "gm": f"（艾莉絲 的暗中檢定）{call}"}
    outs = await table.say("alice", ".fate", dice=[14])
    assert assert_nothing_leaks(outs, 14, 20, 25).text == FOLLOWUP_FATE
    fate_line = ("🎲 艾莉絲 命運檢定（大成功之後）：1d20=14 ≥ 閾值 12 → 成功；必定成功。"
                 "最終：成功")
    assert privately(outs) == {"alice": f"（暗中檢定）{fate_line}",
                               "gm": f"（艾莉絲 的暗中檢定）{fate_line}"}
    outs = await table.say("gm", ".fate 艾莉絲 roll", dice=[])  # already rolled
    assert assert_nothing_leaks(outs, 14, 20).text == FOLLOWUP_FATE
    assert privately(outs) == {"gm": "⚠ 艾莉絲 這次檢定的命運檢定已經擲過了。"}


async def test_pl7_public_checks_keep_answering_in_the_channel(table: Table) -> None:
    """PL-10: a push of a public check is still public, refusal included."""
    await setup(table)
    await table.say("alice", ".ra 觀察", dice=[12])
    assert (await one(table, "alice", ".push", dice=[])).text == "⚠ 只有失敗的檢定可以孤注一擲。"


async def test_pl2_a_check_takes_a_reason_and_dc_thresholds(table: Table) -> None:
    """PL-2: `.ra 觀察 開門` checks 觀察 for 開門 (as `.r` takes a reason); thresholds
    are also written `DC15`, `dc 15`, `≧15`; a second stat is still refused."""
    await setup(table)
    await consent_free(table)
    out = await one(table, "alice", ".ra 觀察 開門", dice=[12])
    assert out.text == "🎲 艾莉絲「觀察」檢定（開門）：1d20=12 觀察+5 = 17 ≥ 閾值 11 → 成功"
    assert (check(out)["stat"], check(out)["reason"]) == ("觀察", "開門")
    for line in (".ra 觀察 dc15", ".ra 觀察 DC15", ".ra 觀察 DC 15", ".ra 觀察 ≧15",
                 ".ra 觀察≧15", ".ra 觀察DC15"):
        data = check(await one(table, "alice", line, dice=[9]))
        assert (data["threshold"], data["value"], data["success"], data["reason"]) == (
            15, 14, False, None), line
    out = await one(table, "alice", ".ra 觀察 打開 那扇門 +2 DC15", dice=[8])
    assert out.text == ("🎲 艾莉絲「觀察」檢定（打開 那扇門）："
                        "1d20=8 觀察+5 情境+2 = 15 ≥ 閾值 15 → 成功")
    pushed = await one(table, "alice", ".ra 5 開門", dice=[3])
    assert pushed.text == "🎲 艾莉絲「一般」檢定（開門）：1d20=3 修正+5 = 8 < 閾值 11 → 失敗"
    assert (await one(table, "alice", ".push", dice=[4])).text.startswith(
        "孤注一擲！🎲 艾莉絲「一般」檢定（開門）：孤注 1d20=4")
    await table.text("alice", ".st 開鎖 2")
    before = await snapshot(table)
    for ambiguous in (".ra 觀察 潛行", ".ra 觀察 開鎖", ".ra 觀察 push", ".ra 5 觀察"):
        assert "用法" in (await one(table, "alice", ambiguous, dice=[])).text, ambiguous
    assert await snapshot(table) == before


def _template_fields_missing(catalog: Catalog, key: str, given: set[str]) -> list[str]:
    """Locales whose template of ``key`` still shows a ``{field}`` once rendered with
    exactly the parameters a call site passes."""
    rendered = {locale: catalog.text(locale, key, **dict.fromkeys(given, "X"))
                for locale in LOCALES}
    return [f"{locale}: {text}" for locale, text in rendered.items() if "{" in text]


def test_every_plurk_refusal_passes_every_field_of_its_message() -> None:
    """Every refusal of the plurk commands (`.hp =abc` named `.{command}` before):
    each call that names an ``error.*`` key — a ``CommandError``, a ``RuleError`` of
    the rules, or a helper such as ``number(..., "plurk.error.resource_usage")`` —
    passes every field its message uses, in every locale."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[4]
    files = [*sorted((root / "bot" / "systems" / "plurk_trpg").rglob("*.py")),
             *sorted((root / "rules" / "systems" / "plurk_trpg").rglob("*.py"))]
    catalog = systems.catalog()
    problems: list[str] = []
    checked = 0
    for path in files:
        for call in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(call, ast.Call) or any(k.arg is None for k in call.keywords):
                continue  # a **splat: its fields are not known here
            name = getattr(call.func, "id", getattr(call.func, "attr", ""))
            values = [*call.args, *(k.value for k in call.keywords)]
            keys = [v.value for v in values
                    if isinstance(v, ast.Constant) and isinstance(v.value, str)
                    and ".error." in v.value]
            if name == "RuleError" and call.args and isinstance(call.args[0], ast.Constant):
                keys.append(rule_key(call.args[0].value))
            given = {k.arg for k in call.keywords if k.arg and k.arg != "usage"}
            for key in keys:
                checked += 1
                problems += [f"{path.name}:{call.lineno} {key} {miss}"
                             for miss in _template_fields_missing(catalog, key, given)]
    assert checked > 100
    assert problems == []


async def test_every_reachable_plurk_refusal_renders_completely(table: Table) -> None:
    """The refusals of `.ra` … `.fatal`, driven for real: none shows a raw ``{field}``."""
    await setup(table)
    await table.say("alice", ".ra 觀察", dice=[12])
    lines = [
        ("alice", ".hp =abc"), ("alice", ".san =abc"), ("alice", ".hp --3"),
        ("alice", ".hp -5 -3"), ("alice", ".hp +1000001"), ("alice", ".hp +999991"),
        ("gm", ".hp -1 大衛"), ("alice", ".hp -3 鮑伯"), ("gm", ".cp award 鮑伯 x"),
        ("gm", ".cp award 鮑伯 1000001"), ("gm", ".cp award 鮑伯 -12"), ("gm", ".ap grant x"),
        ("gm", ".ap grant -5"), ("gm", ".ap set -1"), ("gm", ".ap grant 1000001"),
        ("gm", ".ap cost 移動 -1"), ("gm", ".ap 開鎖"), ("alice", ".ap 觀察"),
        ("alice", ".ap spend 開鎖 2"), ("alice", ".intervene"), ("alice", ".accept #x"),
        ("alice", ".intervene a b"), ("gm", ".intervene cost 4"), ("alice", ".ra 醫療"),
        ("alice", ".ra 觀察 >=3 >=4"), ("alice", ".ra >="), ("alice", ".push x"),
        ("alice", ".push"), ("gm", ".fate a b"), ("gm", ".fate 卡蘿"), ("alice", ".fate"),
        ("alice", ".sc"), ("alice", ".sc 1/1d6x"), ("alice", ".sc 1/1000d1000"),
        ("alice", ".op 觀察"), ("alice", ".op 靈巧 vs 潛行 @bob"), ("gm", ".secret"),
        ("alice", ".secret 鮑伯 觀察"), ("alice", ".rm 觀察"), ("alice", ".rm 觀察 观察"),
        ("alice", ".rg"), ("alice", ".rg 武器 鮑伯"), ("gm", ".rg 觀察 @bob"),
    ]
    for user, line in lines:
        outs = await table.say(user, line, dice=[])
        assert outs and all(o.text.startswith("⚠") for o in outs), (line, outs)
        for out in outs:
            assert "{" not in out.text and "}" not in out.text, (line, out.text)


async def test_pl12_amount_refusals_name_what_is_wrong(table: Table) -> None:
    """PL-11 / PL-12: `.hp =abc` names the command; amounts are bounded like `.st`;
    a negative AP grant is said in the reader's words, not the rules' `amount`."""
    await setup(table)
    before = await snapshot(table)
    assert (await one(table, "alice", ".hp =abc")).text == (
        "⚠ 看不懂數量「=abc」。用法：.hp [-N|+N|=N] [角色|@玩家]")
    assert (await one(table, "alice", ".hp -5 -3")).text == (
        "⚠ 用法：.hp [-N|+N|=N] [角色|@玩家]")
    assert (await one(table, "alice", ".san =1000001")).text == (
        "⚠ 數值的絕對值最多 1000000（給的是 1000001）。")
    assert (await one(table, "alice", ".hp +999991")).text == (
        "⚠ 結果會是 1000001，超過上限 1000000。")
    assert (await one(table, "gm", ".cp award 鮑伯 1000001")).text == (
        "⚠ 數值的絕對值最多 1000000（給的是 1000001）。")
    assert (await one(table, "gm", ".ap grant 1000001")).text == (
        "⚠ 數值的絕對值最多 1000000（給的是 1000001）。")
    assert (await one(table, "gm", ".ap grant -5")).text == (
        "⚠ 給予的行動點數 不能是 -5（不可為負數）。")
    assert (await one(table, "gm", ".ap set -5")).text == "⚠ 行動點數 不能是 -5（不可為負數）。"
    assert (await one(table, "gm", ".ap 開鎖")).text == (
        "⚠ 「開鎖」沒有設定行動點數消耗；請 GM 用 .ap cost 開鎖 N 設定"
        "（已設定：觀察/搜索、詢問、移動、使用道具）。")
    assert await snapshot(table) == before
    assert (await one(table, "gm", ".ap grant 1000000")).data["points"] == 1_000_000


async def test_pl5_sanity_loss_wording_constant_and_dice_limit(table: Table) -> None:
    """PL-5: a constant loss reads "損失 1" (not "[-] = 1"); too many dice name the
    limit instead of calling a well-written loss malformed."""
    await setup(table)
    out = await one(table, "alice", ".sc 1/1d6", dice=[40])
    assert out.text == "🧠 艾莉絲 理智檢定：1d100=40 ≤ 50 → 成功；損失 1\n理智 50 → 49"
    assert (await one(table, "alice", ".sc 1/1000d1000", dice=[])).text == (
        "⚠ 「1000d1000」太大：最多 100 顆骰子、1000 面。")


async def test_character_names_prefer_the_exact_spelling_then_refuse_ambiguity(
        table: Table) -> None:
    """PL-12 (and every `<investigator>`): 艾莉絲 and 艾莉丝 are two characters — each
    spelling finds its own; a spelling that only folds onto several is refused with
    the candidates."""
    await setup(table)
    await table.text("dave", ".pc new 艾莉丝")
    await table.text("dave", ".st 體力 4")
    await table.text("erin", ".pc new 阿髮")
    await table.text("erin", ".st 體力 3")
    await table.text("fay", ".pc new 阿发")
    assert (await one(table, "gm", ".hp 艾莉丝")).text == "艾莉丝 的體力：4"
    assert (await one(table, "gm", ".hp 艾莉絲")).text == "艾莉絲 的體力：10"
    assert (await one(table, "gm", ".hp 阿髮")).text == "阿髮 的體力：3"
    assert (await one(table, "gm", ".hp 阿發")).text == (
        "⚠ 「阿發」可能是好幾個角色：阿髮（erin）、阿发（fay）。"
        "請寫出完整的名字，或改用 @玩家 指定。")


# --------------------------------------------------------------------------- issue 12


async def fatal_events(table: Table) -> list[dict[str, Any]]:
    return list(((await states(table.core)).get("plurk.fatal") or {}).get("events", []))


async def test_bare_intervene_settles_the_newest_event(table: Table) -> None:
    """PL-12: `.intervene` without a target settles the event just announced (the
    character's newest), names it while another waits, and leaves the older one."""
    await setup(table)
    assert "致命事件 #1" in (await one(table, "alice", ".hp -10")).text
    assert "致命事件 #2" in (await one(table, "alice", ".san -50")).text
    out = await one(table, "alice", ".intervene")
    assert out.text == (
        "✨ 艾莉絲 對致命事件 #2 發動常世干預，花費 5 點因果點數（12 → 7），取消了理智損失 50。\n"
        "仍待決：#1 艾莉絲（.fatal 查看）")
    assert (out.data or {})["id"] == 2
    assert [e["id"] for e in await fatal_events(table)] == [1]
    shown = await sheet(table, "alice")
    assert "體力:10" in shown and "理智:50" in shown and "因果點數:7" in shown
    accepted = await one(table, "gm", ".accept 艾莉絲")
    assert accepted.text == "艾莉絲 承受了體力損失 10：10 → 0。"


async def test_a_second_loss_waits_for_the_pending_event(table: Table) -> None:
    """PL-12: while 體力's fatal event waits, another 體力 loss is refused (no second
    event, no change); a loss of another value is its own event."""
    await setup(table)
    await one(table, "gm", ".hp -10 @alice")
    before = await snapshot(table)
    refused = ("⚠ 艾莉絲 的體力還有待決的致命事件 #1（損失 10）："
               "請先 .intervene 或 .accept，再結算新的損失。")
    assert (await one(table, "gm", ".hp -12 @alice")).text == refused
    assert (await one(table, "gm", ".hp -3 @alice")).text == refused
    assert (await one(table, "alice", ".st 體力-2")).text == refused
    assert await snapshot(table) == before
    assert "致命事件 #2" in (await one(table, "gm", ".san -50 @alice")).text
    refused_sc = await one(table, "gm", ".sc 1/1d6 @alice", dice=[])  # no die rolled
    assert refused_sc.text.startswith("⚠ 艾莉絲 的理智還有待決的致命事件 #2")


async def test_a_stale_event_expires_instead_of_applying_to_changed_values(
        table: Table) -> None:
    """PL-12: a loss judged on 體力 10 is not applied to another value later
    (`體力損失 10：3 → 0`): once the sheet's value changed the event expires."""
    await setup(table)
    await one(table, "gm", ".hp -10 @alice")
    healed = await one(table, "gm", ".hp +5 @alice")
    assert healed.text == (
        "艾莉絲 的體力：10 → 15\n"
        "⌛ 致命事件 #1 已失效：艾莉絲 的體力在事件後從 10 變成 15，損失 10 不再套用，"
        "也不花因果點數。若損失仍成立，請 GM 重新結算。")
    assert await fatal_events(table) == []
    # a change the plurk commands do not see (`.st 體力 12`) expires it when settled
    await one(table, "gm", ".hp -15 @alice")
    await table.text("alice", ".st 體力 20")
    out = await one(table, "alice", ".accept")
    assert out.text.startswith("⌛ 致命事件 #2 已失效：艾莉絲 的體力在事件後從 15 變成 20")
    assert (out.data or {})["outcome"] == "expired"
    shown = await sheet(table, "alice")
    assert "體力:20" in shown and "因果點數:12" in shown
    await one(table, "gm", ".hp -20 @alice")
    await table.text("alice", ".st 體力 25")
    listing = await one(table, "gm", ".fatal")
    assert listing.text.splitlines()[-1] == "目前沒有待決的致命事件。"
    assert await fatal_events(table) == []


async def test_take10_needs_the_gms_consent_and_is_queued(table: Table) -> None:
    """PL-10 「若局方允許」: with a GM, a player's take 10 waits for `.ra allow`, which
    resolves it; `.ra deny` drops a request. No die either way."""
    await setup(table)
    asked = await one(table, "alice", ".ra 觀察 取10", dice=[])
    assert asked.text == ("🙋 艾莉絲 想對「觀察」取10，需要 GM 允許。"
                          "GM：.ra allow 艾莉絲 允許、.ra deny 艾莉絲 拒絕。")
    assert "plurk.checks" not in await states(table.core)
    assert "⚠" in (await one(table, "bob", ".ra allow 艾莉絲")).text  # a player cannot allow
    allowed = await one(table, "gm", ".ra allow 艾莉絲", dice=[])
    assert allowed.text == ("✅ GM 允許 艾莉絲 取10。\n"
                            "🎲 艾莉絲「觀察」檢定：取10=10 觀察+5 = 15 ≥ 閾值 11 → 成功")
    assert (check(allowed)["user"], check(allowed)["mode"]) == ("alice", "take10")
    await one(table, "bob", ".ra 潛行 取20 >=30", dice=[])
    denied = await one(table, "gm", ".ra deny", dice=[])
    assert denied.text == "❎ GM 拒絕了 鮑伯 的取20請求。"
    assert "沒有等待" in (await one(table, "gm", ".ra allow 鮑伯")).text


async def test_push_needs_the_gms_consent_first(table: Table) -> None:
    """PL-10: the GM agrees and states the omen, then the player pushes."""
    await setup(table)
    await one(table, "alice", ".ra 觀察", dice=[3])
    asked = await one(table, "alice", ".push", dice=[])
    assert asked.text == ("🙋 艾莉絲 想對「觀察」的失敗孤注一擲，需要 GM 同意並說明失敗預兆。"
                          "GM：.ra allow 艾莉絲 允許、.ra deny 艾莉絲 拒絕。")
    listing = await one(table, "alice", ".ra allow")
    assert listing.text.splitlines() == [
        "📋 本頻道的 GM 允許設定：取10：需要 GM 允許、取20：需要 GM 允許、孤注一擲：需要 GM 允許",
        "・等待 GM：艾莉絲 的孤注一擲"]
    allowed = await one(table, "gm", ".ra allow @alice", dice=[])
    assert allowed.text == ("✅ GM 允許 艾莉絲 對「觀察」孤注一擲。"
                            "聽完 GM 說明的失敗預兆後，艾莉絲 輸入 .push 擲骰。")
    pushed = check(await one(table, "alice", ".push", dice=[8]))
    assert (pushed["mode"], pushed["raw"], pushed["value"]) == ("push", 8, 13)
    # a push that could never happen is refused at once, not sent to the GM
    await one(table, "alice", ".ra 力量", dice=[2])
    assert "屬性" in (await one(table, "alice", ".push", dice=[])).text


async def test_take10_and_take20_together_are_refused(table: Table) -> None:
    await setup(table)
    await consent_free(table)
    before = await snapshot(table)
    out = await one(table, "alice", ".ra 觀察 取10 取20", dice=[])
    assert out.text == "⚠ 取10 和 取20 只能選一個。"
    assert await snapshot(table) == before


async def test_gm_setting_lets_players_take10_unasked(table: Table) -> None:
    """`.ra allow take10 on` (GM) is a standing consent; without a GM nobody asks."""
    await setup(table)
    assert "⚠" in (await one(table, "alice", ".ra allow take10 on")).text
    status = await one(table, "gm", ".ra allow take10 on")
    assert status.text == ("📋 本頻道的 GM 允許設定："
                           "取10：不必詢問、取20：需要 GM 允許、孤注一擲：需要 GM 允許")
    assert check(await one(table, "alice", ".ra 觀察 取10", dice=[]))["raw"] == 10
    assert "🙋" in (await one(table, "alice", ".ra 觀察 取20", dice=[])).text
    refused = await one(table, "alice", ".rm 觀察 潛行 取20", dice=[])
    assert refused.text == "⚠ 取20需要 GM 允許：請 GM 用 .ra allow 開放，或改用 .ra 提出請求。"


async def test_without_a_gm_take20_needs_no_asking(table: Table) -> None:
    await setup(table, gm=False)
    assert check(await one(table, "alice", ".ra 觀察 取20", dice=[]))["raw"] == 20


async def test_threshold_written_as_coc_bots_do(table: Table) -> None:
    """PL-2: `.ra 觀察>15`, `.ra 觀察 >15` and `.ra 觀察 15` all check against 15; a
    `<15` is refused rather than read as the reason."""
    await setup(table)
    for line in (".ra 觀察>15", ".ra 觀察 >15", ".ra 觀察 > 15", ".ra 觀察 15",
                 ".ra 觀察 15 開門"):
        data = check(await one(table, "alice", line, dice=[9]))
        assert (data["threshold"], data["value"], data["success"]) == (15, 14, False), line
    before = await snapshot(table)
    assert (await one(table, "alice", ".ra 觀察 <15", dice=[])).text == "⚠ 看不懂「<15」。"
    assert await snapshot(table) == before


async def test_near_miss_stat_gets_did_you_mean(table: Table) -> None:
    await setup(table)
    out = await one(table, "alice", ".ra 觀查", dice=[])
    assert out.text == "⚠ 艾莉絲 的角色卡上沒有「觀查」。你是不是要「觀察」？"
    far = await one(table, "alice", ".ra 開鎖", dice=[])
    assert far.text.startswith("⚠ 艾莉絲 的角色卡上沒有「開鎖」。先用 .st 設定")


async def test_gm_opposed_without_own_sheet_names_the_left_side(table: Table) -> None:
    await setup(table)
    out = await one(table, "gm", ".op 觀察 vs 觀察 @bob", dice=[])
    assert out.text == ("⚠ GM 沒有自己的角色：請寫出左邊是誰（.op @alice 潛行 vs 觀察 @bob），"
                        "或給 NPC 的修正值（.op 潛行 6 vs 觀察 @bob）。")
    ok = await one(table, "gm", ".op 觀察 3 vs 觀察 @bob", dice=[10, 4])
    assert (ok.data or {})["winner_label"] == "NPC"


async def test_ap_spend_of_a_number_is_not_an_action(table: Table) -> None:
    await setup(table)
    before = await snapshot(table)
    out = await one(table, "alice", ".ap spend 999")
    assert out.text == ("⚠ 「999」是數字，不是行動。用法：.ap 觀察、.ap spend 移動；"
                        "GM 指定消耗：.ap spend 開鎖 2。")
    assert await snapshot(table) == before


async def test_skill_with_a_specialty_is_found_by_its_base_name(table: Table) -> None:
    await setup(table)
    await table.text("alice", ".st 交涉：哄騙 3")
    data = check(await one(table, "alice", ".ra 交涉", dice=[10]))
    assert (data["stat"], data["modifier"], data["value"]) == ("交涉：哄騙", 3, 13)
    await table.text("alice", ".st 交涉：威嚇 1")
    out = await one(table, "alice", ".ra 交涉", dice=[])
    assert out.text == ("⚠ 艾莉絲 的角色卡上有好幾項「交涉」：「交涉：哄騙 / 交涉：威嚇」，"
                        "請寫出完整名稱。")


async def test_zero_sum_rerolls_are_shown_in_the_order_they_happened(
        table: Table) -> None:
    """PL-6: a full zero-sum tie is listed before the roll that decided."""
    await setup(table)
    out = await one(table, "alice", ".op 觀察 vs 觀察 5 zerosum", dice=[6, 6, 9, 4])
    assert out.text.splitlines() == [
        "⚔ 對抗檢定（零和對抗）",
        "・第 1 次：艾莉絲 1d20=6、NPC 1d20=6，數值 11 相同、修正值也相同 → 雙方重擲",
        "・艾莉絲「觀察」：1d20=9 +5 = 14",
        "・NPC「觀察」：1d20=4 +5 = 9",
        "→ 艾莉絲 勝出"]
    assert (out.data or {})["rerolls"] == [[6, 6]]


async def test_default_threshold_is_shown_in_the_fate_check(table: Table) -> None:
    """PL-4: the fate roll names its threshold also when it is the default 11."""
    await setup(table, gm=False)
    await one(table, "alice", ".ra 觀察", dice=[20])
    out = await one(table, "alice", ".fate", dice=[12])
    assert out.text == ("🎲 艾莉絲 命運檢定（大成功之後）：1d20=12 ≥ 閾值 11 → 成功；"
                        "必定成功。最終：成功")


# ---------- hidden checks, closed after attacking the bot (issue 8)
NOT_YOURS = "⚠ 只有該角色的玩家或 GM 可以這麼做。"


async def test_fate_on_anothers_hidden_check_tells_the_asker_nothing(
    table: Table,
) -> None:
    """Without GMs, bob's `.fate @alice` after alice's `.rah` once said "the raw die was
    12" — and silence (a call going through) said it was a crit or a fumble. Since
    issue 22 another player's fate check is a GM's to call even without GMs: bob is
    refused before her check is looked at, with the same words whatever it was."""
    await sheets(table)
    for die in (12, 20, 1):  # an ordinary result, a crit, a fumble: the same answer
        await table.say("alice", ".rah 觀察", dice=[die])
        for line in (".fate @alice", ".fate 艾莉絲 roll", ".fate @alice >=10"):
            outs = await table.say("bob", line, dice=[])
            assert visible(outs) == [("channel", None, NOT_YOURS, False)], (die, line)
    # the roller herself still may (no GM here: she calls and rolls her own)
    await table.say("alice", ".rah 觀察", dice=[20])
    outs = await table.say("alice", ".fate", dice=[15])
    assert [o.to for o in outs] == ["channel", "private"]


async def test_a_gm_may_still_act_on_a_hidden_check(table: Table) -> None:
    await table.text("gm", ".gm")
    await sheets(table)
    await table.say("alice", ".rah 觀察", dice=[12])
    outs = await table.say("gm", ".fate 艾莉絲", dice=[])
    assert visible(outs)[1] == (
        "private", "gm", "⚠ 只有大成功或大失敗之後可以進行命運檢定（這次原始骰是 12）。", True)
    outs = await table.say("bob", ".fate 艾莉絲", dice=[])
    assert visible(outs) == [("channel", None, "⚠ 只有本頻道的 GM 可以這麼做。", False)]
