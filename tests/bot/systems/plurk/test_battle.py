"""plurk battle commands (PL-12 in battle, PL-13 … PL-18) through a real Core.

Every test speaks into one channel with scripted dice and checks exact numbers.
The standard table: GM `gm`; `p1` plays Ann (靈巧 5, 體質 3, 體力 12, CP 12),
`p2` plays Bob (靈巧 2, 體質 1, 體力 10); enemies Ghoul (靈巧 3, hp 15, armor 2,
a monster) and Thug (靈巧 1, 體質 1, hp 9, human-like).

Initiative dice, in entrant order Ann, Bob, Ghoul, Thug (joined players first,
then enemies in definition order): 10 13 12 4 → Ann 15, Bob 15, Ghoul 15,
Thug 5; the three-way tie rerolls 8 8 3 → Ghoul third; Ann and Bob reroll 2 9
→ order Bob, Ann, Ghoul, Thug. BP max floor(靈巧/2)+3: Bob 4, Ann 5, Ghoul 4, Thug 3.
"""

from __future__ import annotations

import asyncio
import tomllib
from pathlib import Path
from typing import Any

from sqlalchemy import select

from adapters.config import Settings
from bot.core import Core
from bot.messages import Outgoing
from bot.routes import router as _router
from tests.orm import ChannelState, Character, sessions
from tests.support import Table

ROUTER = _router()

START_DICE = [10, 13, 12, 4, 8, 8, 3, 2, 9]
ORDER = ["Bob", "Ann", "Ghoul", "Thug"]
LOCALES = Path(__file__).resolve().parents[4] / "bot" / "systems" / "plurk_trpg" / "locales"


# --------------------------------------------------------------------------- helpers


async def prepare(table: Table) -> None:
    """GM, two investigators who joined, two enemies — no battle yet."""
    await table.text("gm", ".gm")
    await table.text("p1", ".pc new Ann")
    await table.text("p1", ".st 靈巧 5 體質 3 體力 12 因果點數 12")
    await table.text("p2", ".pc new Bob")
    await table.text("p2", ".st 靈巧 2 體質 1 體力 10")
    await table.text("p1", ".battle join")
    await table.text("p2", ".戰鬥 join")
    await table.text("gm", ".enemy add Ghoul 靈巧=3 hp=15 armor=2")
    await table.text("gm", ".敵人 add Thug 靈巧=1 體質=1 hp=9 human")


async def started(table: Table) -> Outgoing:
    await prepare(table)
    outs = await table.say("gm", ".battle start", dice=START_DICE)
    assert [o.to for o in outs] == ["channel", "private"]  # the enemies' rolls: the GM's
    return outs[0]


async def state(table: Table) -> dict[str, Any]:
    """The whole battle (`.battle` data: the GM's private copy, enemies' HP and all)."""
    outs = await table.say("gm", ".battle")
    out = outs[-1]
    assert out.data is not None
    return out.data["battle"]


def gm_copy(outs: list[Outgoing]) -> Outgoing:
    """The GM's private copy of a reply whose enemy numbers the channel does not see
    (issue 24: the channel gets the name and a health band)."""
    [copy] = [o for o in outs if o.to != "channel" and o.user == "gm"]
    return copy


def by_name(battle: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in battle["combatants"]}


def current(battle: dict[str, Any]) -> str:
    return battle["combatants"][battle["current"]]["name"]


async def stored(core: Core) -> dict[str, Any]:
    """Every stored channel_state document and sheet, straight from the database."""
    async with sessions(core) as session:
        docs = {row.key: (row.data, row.version)
                for row in await session.scalars(select(ChannelState))}
        sheets = {row.name: dict(row.stats) for row in await session.scalars(select(Character))}
    return {"docs": docs, "sheets": sheets}


async def sheet_hp(core: Core, name: str) -> int:
    return (await stored(core))["sheets"][name]["體力"]


# --------------------------------------------------------------------------- PL-14


async def test_pl14_initiative_ties_are_rerolled(table: Table) -> None:
    await prepare(table)
    outs = await table.say("gm", ".battle start", dice=START_DICE)
    assert outs[0].text.splitlines()[3:5] == ["3. Ghoul 15", "4. Thug 5"]  # enemies: no roll
    out = gm_copy(outs)
    assert out.text == "\n".join([
        "⚔ 戰鬥開始！先攻（靈巧檢定，高者先）：",
        "1. Bob 15（d20=13 靈巧+2；同值重擲 8、9）",
        "2. Ann 15（d20=10 靈巧+5；同值重擲 8、2）",
        "3. Ghoul 15（d20=12 靈巧+3；同值重擲 3）",
        "4. Thug 5（d20=4 靈巧+1）",
        "▶ 第 0 輪，輪到 Bob（BP 4/4）",
    ])
    battle = out.data["battle"]
    assert [c["name"] for c in battle["combatants"]] == ORDER
    assert {c["name"]: c["initiative_rolls"] for c in battle["combatants"]} == {
        "Bob": [13, 8, 9], "Ann": [10, 8, 2], "Ghoul": [12, 3], "Thug": [4]}
    assert battle["round"] == 0 and current(battle) == "Bob"
    assert {n: c["bp_max"] for n, c in by_name(battle).items()} == {
        "Bob": 4, "Ann": 5, "Ghoul": 4, "Thug": 3}


async def test_pl14_surprise_puts_the_winning_side_first(table: Table) -> None:
    await prepare(table)
    out = gm_copy(await table.say("gm", ".battle start first=enemy", dice=[20, 20, 1, 1]))
    # Ann 25, Bob 22, Ghoul 4, Thug 2: the enemies won surprise and act first
    assert [c["name"] for c in out.data["battle"]["combatants"]] == [
        "Ghoul", "Thug", "Ann", "Bob"]
    assert "敵方先制" in out.text


async def test_pl14_only_a_gm_starts_and_needs_someone(table: Table) -> None:
    await table.text("gm", ".gm")
    assert "只有本頻道的 GM" in await table.text("p1", ".battle start")
    assert "沒有人參戰" in await table.text("gm", ".battle start")
    assert "沒有進行中的戰鬥" in await table.text("p1", ".act 攻擊")


# --------------------------------------------------------------------------- PL-13


async def test_pl13_two_rounds_of_bp_spending_and_passing(table: Table) -> None:
    await started(table)
    # round 0 — Bob: attack 2 + skill 2 uses all 4 BP: the turn passes by itself
    assert await table.text("p2", ".act 攻擊") == "Bob：攻擊 花費 2 BP（4 → 2）"
    assert await table.text("p2", ".行動 技能") == "\n".join([
        "Bob：技能 花費 2 BP（2 → 0）",
        "Bob 的 BP 用完了。",
        "▶ 第 0 輪，輪到 Ann（BP 5/5）",
    ])
    battle = await state(table)
    assert by_name(battle)["Bob"]["bp"] == 4  # refilled when the turn ended
    # Ann: item 1, move ×2 through .act, then pass
    assert await table.text("p1", ".act 道具") == "Ann：道具 花費 1 BP（5 → 4）"
    assert await table.text("p1", ".act 移動 2") == "Ann：移動 花費 2 BP（4 → 2）"
    # an enemy's turn: its BP (from its 靈巧) is the GMs', who are pinged to play it
    passed = await table.say("p1", ".pass")
    assert passed[0].text == "Ann 結束回合。\n▶ 第 0 輪，輪到 Ghoul"
    assert passed[0].notify == ("gm",)
    # the GM acts for the enemies; the channel reads the cost, the GM the BP left
    acted = await table.say("gm", ".act attack")
    assert [(o.to, o.text) for o in acted] == [
        ("channel", "Ghoul：攻擊 花費 2 BP"), ("private", "Ghoul：攻擊 花費 2 BP（4 → 2）")]
    assert acted[0].data is not None and acted[0].data["bp"] == {
        "actor": "Ghoul", "action": "attack", "cost": 2, "turn": None}
    await table.text("gm", ".pass")
    assert await table.text("gm", ".結束回合") == "\n".join([
        "Thug 結束回合。", "— 第 1 輪開始 —", "▶ 第 1 輪，輪到 Bob（BP 4/4）"])
    battle = await state(table)
    assert battle["round"] == 1
    assert {n: c["bp"] for n, c in by_name(battle).items()} == {
        "Bob": 4, "Ann": 5, "Ghoul": 4, "Thug": 3}
    # round 1 — everyone acts once more; the GM skips Ghoul
    await table.text("p2", ".act 攻擊")
    await table.text("p2", ".pass")
    await table.text("p1", ".act 技能")
    await table.text("p1", ".pass")
    assert await table.text("gm", ".battle skip") == \
        "gm 跳過了 Ghoul 的回合。\n▶ 第 1 輪，輪到 Thug"
    assert "— 第 2 輪開始 —" in await table.text("gm", ".pass")
    battle = await state(table)
    assert battle["round"] == 2 and current(battle) == "Bob"


async def test_pl13_a_player_cannot_spend_another_actors_bp(table: Table) -> None:
    await started(table)
    before = await stored(table.core)
    refusal = "⚠ 現在輪到 Bob，只有 Bob 的玩家或 GM 可以行動。"
    assert await table.text("p1", ".act 攻擊") == refusal
    assert await table.text("p1", ".pass") == refusal
    assert await table.text("p1", ".move B2") == refusal
    assert await table.text("p1", ".parry Ghoul") == refusal
    assert await table.text("p1", ".atk Ghoul 1d6") == refusal
    assert await table.text("outsider", ".act 攻擊") == refusal
    assert await stored(table.core) == before  # refusals change nothing
    # Bob's player may, and so may the GM (for anyone: enemies, absent players)
    await table.text("p2", ".pass")
    assert await table.text("gm", ".act 攻擊") == "Ann：攻擊 花費 2 BP（5 → 3）"
    await table.text("gm", ".pass")
    assert await table.text("p1", ".act 攻擊") == "⚠ 現在輪到 Ghoul，由 GM 行動。"


async def test_pl13_gm_configures_costs_and_bp_max(table: Table) -> None:
    await started(table)
    assert await table.text("gm", ".bp cost") == "BP 消耗：移動 1、攻擊 2、技能 2、道具 1、招架 1"
    assert "只有本頻道的 GM" in await table.text("p2", ".bp cost 攻擊 3")
    assert await table.text("gm", ".bp cost 攻击 3") == \
        "BP 消耗：移動 1、攻擊 3、技能 2、道具 1、招架 1"
    assert await table.text("gm", ".bp cost 施法 4") == \
        "BP 消耗：移動 1、攻擊 3、技能 2、道具 1、招架 1、施法 4"
    assert await table.text("p2", ".act 攻擊") == "Bob：攻擊 花費 3 BP（4 → 1）"
    assert await table.text("p2", ".act 施法") == "⚠ Bob 的 BP 不夠：施法 要 4，只剩 1。"
    assert await table.text("p2", ".act 開門") == (
        "⚠ 「開門」沒有 BP 消耗；"
        "可用：攻擊、道具、移動、招架、技能、施法（GM 可用 .bp cost 新增）。")
    assert await table.text("gm", ".bp max Bob 6") == "Bob 的 BP 上限改為 6（目前 1）。"
    await table.text("p2", ".pass")
    assert by_name(await state(table))["Bob"]["bp"] == 6
    outs = await table.say("gm", ".bp")
    assert outs[0].text == "BP：Bob 6/6、Ann 5/5"  # an enemy's BP comes from its 靈巧
    assert gm_copy(outs).text == "BP：Bob 6/6、Ann 5/5、Ghoul 4/4、Thug 3/3"


async def test_pl13_concurrent_spends_cannot_overdraw_bp(table: Table) -> None:
    await started(table)
    await table.text("gm", ".bp cost 攻擊 3")  # two attacks (6) exceed Bob's 4 BP
    outs = await asyncio.gather(table.say("p2", ".act 攻擊"), table.say("p2", ".act 攻擊"))
    texts = sorted(o[0].text for o in outs)
    assert texts == ["Bob：攻擊 花費 3 BP（4 → 1）", "⚠ Bob 的 BP 不夠：攻擊 要 3，只剩 1。"]
    assert by_name(await state(table))["Bob"]["bp"] == 1


async def test_pl13_concurrent_spends_from_two_processes(settings: Settings) -> None:
    """Two cores (two bot processes) on one database: the version column stops
    the second writer instead of letting both spend."""
    first, second = await Core.open(settings), await Core.open(settings)
    try:
        table = Table(first)
        await started(table)
        await table.text("gm", ".bp cost 攻擊 3")
        await state(table)  # every state row exists: the race is on the battle's version
        for _ in range(3):
            outs = await asyncio.gather(table.say("p2", ".act 攻擊"),
                                        Table(second).say("p2", ".act 攻擊"))
            texts = sorted(o[0].text for o in outs)
            assert texts[0] == "Bob：攻擊 花費 3 BP（4 → 1）"
            assert texts[1] in ("⚠ Bob 的 BP 不夠：攻擊 要 3，只剩 1。",
                                "⚠ 同時有其他指令修改了相同資料，這次的指令沒有生效，請再試一次。")
            assert by_name(await state(table))["Bob"]["bp"] == 1
            await table.text("gm", ".battle skip")
            for _ in range(3):
                await table.text("gm", ".pass")
    finally:
        await first.close()
        await second.close()


# --------------------------------------------------------------------------- PL-15


async def test_pl15_field_place_and_move_by_chebyshev_distance(table: Table) -> None:
    await started(table)
    assert "只有本頻道的 GM" in await table.text("p2", ".place Bob A1")
    await table.text("gm", ".field 10x10")
    await table.text("gm", ".place Bob A1")
    await table.text("gm", ".place ann B1")
    board = await table.text("gm", ".放置 Ghoul D4")
    assert board.splitlines()[1:] == [
        "場地 10×10（A1 在左上，一格 1.5 公尺）",
        "   A B C D E F G H I J",
        " 1 b a . . . . . . . .",
        " 2 . . . . . . . . . .",
        " 3 . . . . . . . . . .",
        " 4 . . . g . . . . . .",
        " 5 . . . . . . . . . .",
        " 6 . . . . . . . . . .",
        " 7 . . . . . . . . . .",
        " 8 . . . . . . . . . .",
        " 9 . . . . . . . . . .",
        "10 . . . . . . . . . .",
        "圖例：b=Bob@A1、a=Ann@B1、g=Ghoul@D4",
        "未在場上：Thug",
    ]
    # A1 → C3 is 2 cells diagonally (Chebyshev), 1 BP each
    assert await table.text("p2", ".move C3") == "\n".join([
        "Bob 從 A1 移動到 C3（2 格）。",
        "   A B C D E F G H I J",
        " 1 . a . . . . . . . .",
        " 3 . . b . . . . . . .",
        "Bob：移動 花費 2 BP（4 → 2）"])
    before = await stored(table.core)
    assert await table.text("p2", ".move K1") == "⚠ K1 在場地外（場地 10×10）。"
    assert await table.text("p2", ".move D4") == "⚠ D4 已經有 Ghoul。"
    assert await table.text("p2", ".move F6") == "⚠ Bob 的 BP 不夠：移動 要 3，只剩 2。"
    assert await table.text("p2", ".move 3C") == "⚠ 「3C」不是格子（例如 A1、C4）。"
    assert await table.text("gm", ".field 27x27") == "⚠ 場地大小 27×27 不行，每邊 1 到 26。"
    assert await table.text("gm", ".field 3x3") == "⚠ Ghoul 在 D4，縮成 3×3 會掉出場地。"
    assert await stored(table.core) == before
    # the last 2 BP: moving 2 cells ends Bob's turn
    assert await table.text("p2", ".移動 E5") == "\n".join([
        "Bob 從 C3 移動到 E5（2 格）。", "   A B C D E F G H I J",
        " 3 . . . . . . . . . .", " 5 . . . . b . . . . .", "Bob：移動 花費 2 BP（2 → 0）",
        "Bob 的 BP 用完了。", "▶ 第 0 輪，輪到 Ann（BP 5/5）"])
    assert by_name(await state(table))["Bob"]["position"] == "E5"


async def test_pl15_cjk_names_get_ascii_markers(table: Table) -> None:
    await table.text("gm", ".gm")
    await table.text("gm", ".enemy add 食屍鬼 靈巧=3 hp=15 at=B2")
    await table.text("gm", ".enemy add 食人魔 靈巧=1 hp=30 at=C3")
    await table.say("gm", ".battle start", dice=[5, 5])
    board = (await table.text("p1", ".場地")).splitlines()
    assert board[2:5] == [" 1 . . . . . . . .", " 2 . a . . . . . .", " 3 . . b . . . . ."]
    assert board[-1] == "圖例：a=食屍鬼@B2、b=食人魔@C3"


# --------------------------------------------------------------------------- PL-16


async def test_pl16_parry_absorbs_until_the_weapon_breaks(table: Table) -> None:
    await started(table)
    await table.text("p2", ".pass")
    assert await table.text("p1", ".招架 Thug 4") == "\n".join([
        "🛡 Ann 宣告對 Thug 招架（武器耐久 4）。", "Ann：招架 花費 1 BP（5 → 4）"])
    await table.text("p1", ".pass")
    await table.text("gm", ".pass")  # Ghoul
    # Thug (human-like, no kind given: parryable) hits Ann for 1d6+3 = 8
    out = (await table.say("gm", ".atk Ann 1d6+3", dice=[5]))[0]
    assert out.text.splitlines()[:2] == [
        "⚔ Thug 攻擊 Ann：傷害 1d6+3 = [5]+3 = 8",
        "招架吸收 4，武器損壞（耐久 4 → 0）；Ann 受到 4 點傷害，體力 12 → 8",
    ]
    assert out.data["hit"]["absorbed"] == 4 and out.data["hit"]["weapon_broken"]
    assert await sheet_hp(table.core, "Ann") == 8  # written back to the sheet


async def test_pl16_parry_only_against_the_named_enemy(table: Table) -> None:
    await started(table)
    await table.text("p2", ".parry Thug 5")  # Bob parries Thug, BP 4 → 3
    out = (await table.say("gm", ".dmg Bob 6 from=Ghoul kind=鈍器"))[0]
    assert out.data["hit"]["parried"] is False and out.data["hit"]["taken"] == 6
    out = (await table.say("gm", ".dmg Bob 3 from=Thug kind=徒手"))[0]
    assert out.text.splitlines()[1] == \
        "招架吸收 3（武器耐久 5 → 2）；Bob 受到 0 點傷害，體力 4 → 4"
    out = (await table.say("gm", ".dmg Bob 3 from=Thug kind=徒手 noparry"))[0]
    assert out.data["hit"]["parried"] is False and out.data["hit"]["hp_after"] == 1
    assert out.text.splitlines()[1] == "GM 裁定 Bob 的招架失敗；Bob 受到 3 點傷害，體力 4 → 1"
    assert "不能對自己招架" in await table.text("p2", ".parry Bob")


# --------------------------------------------------------------------------- PL-17


async def test_pl17_knock_out_and_lost_turns(table: Table) -> None:
    await started(table)
    # raw 5 ≥ half of 9; 體質 check d20 3 + 1 = 4 < 10 fails; 3D6 2+3+4 = 9 turns, 1 damage
    outs = await table.say("p2", ".atk Thug 1d6 ko", dice=[5, 3, 2, 3, 4])
    assert outs[0].text == "\n".join([
        "⚔ Bob 攻擊 Thug：傷害 1d6 = [5] = 5",
        "擊昏：體質檢定，失敗！昏迷 3D6=[2, 3, 4] = 9 輪，造成 1 點傷害",
        "Thug 被擊中（倒下）",
        "Bob：攻擊 花費 2 BP（4 → 2）",
    ])
    assert gm_copy(outs).text.splitlines()[1] == \
        "擊昏：體質檢定 d20=3 體質+1 = 4，閾值 10，失敗！昏迷 3D6=[2, 3, 4] = 9 輪，造成 1 點傷害"
    assert gm_copy(outs).text.splitlines()[2] == "Thug 受到 1 點傷害，體力 9 → 8"
    thug = by_name(await state(table))["Thug"]
    assert thug["unconscious"] == 9 and thug["hp"] == 8
    await table.text("p2", ".pass")
    await table.text("p1", ".pass")
    assert await table.text("gm", ".pass") == "\n".join([
        "Ghoul 結束回合。", "— 第 1 輪開始 —",
        "▶ 第 1 輪，輪到 Bob（BP 4/4）（跳過：Thug（倒下））"])
    assert by_name(await state(table))["Thug"]["unconscious"] == 8
    assert await table.text("gm", ".battle wake Thug") == "Thug 清醒過來了。"


async def test_pl17_knock_out_condition_fails_and_monsters_refuse(table: Table) -> None:
    await started(table)
    before = await stored(table.core)
    assert await table.text("p2", ".atk Ghoul 1d6 ko", dice=[6]) == \
        "⚠ Ghoul 不是人形，無法擊昏。"
    assert await table.text("p2", ".atk Thug 1d6 ko kind=利器", dice=[6]) == \
        "⚠ 利器 不能擊昏（只有普通攻擊、鈍器、擒拿、武術、投擲鈍器）。"
    assert await stored(table.core) == before
    # raw 4 < half of 9: no check, round(4/3) = 1 damage
    outs = await table.say("p2", ".atk Thug 1d6 ko kind=擒拿", dice=[4])
    assert outs[0].text.splitlines()[1] == \
        "擊昏不成立（傷害未達目前體力的一半），改為造成 1 點傷害（傷害÷3 四捨五入）"
    assert gm_copy(outs).text.splitlines()[1] == \
        "擊昏不成立（傷害 4 未達目前體力 9 的一半），改為造成 1 點傷害（傷害÷3 四捨五入）"
    # raw 5 ≥ 8/2, 體質 check 9+1 = 10 ≥ 10 resists: round(5/3) = 2 damage
    await table.text("p2", ".pass")
    await table.text("p1", ".pass")
    out = gm_copy(await table.say("gm", ".atk Thug 1d6 ko", dice=[5, 9]))
    assert out.text.splitlines()[1] == \
        "擊昏：體質檢定 d20=9 體質+1 = 10，閾值 10，成功抵抗，造成 2 點傷害（傷害÷3 四捨五入）"
    assert by_name(await state(table))["Thug"]["hp"] == 6


# --------------------------------------------------------------------------- PL-18


async def test_pl18_impale_rolls_the_dice_twice_through_armor(table: Table) -> None:
    await started(table)
    outs = await table.say("p2", ".atk Ghoul 1d8+1 impale pen=1", dice=[5, 3])
    assert outs[0].text.splitlines()[1] == "Ghoul 被擊中（重傷）"  # 8 taken of 9: armor
    out = gm_copy(outs)
    assert out.text == "\n".join([
        "⚔ Bob 攻擊 Ghoul：傷害 1d8+1（貫穿，骰子擲兩次）= [5, 3]+1 = 9",
        "護甲 2 − 穿透 1 → 減傷 1；Ghoul 受到 8 點傷害，體力 15 → 7",
        "🗡 貫穿：Bob 的武器留在 Ghoul 體內；取回前不能用它攻擊或招架"
        "（取回時 GM 用 .battle retrieve Bob）。",
        "Bob：攻擊 花費 2 BP（4 → 2）",
    ])
    assert out.data["roll"]["rolls"] == [5, 3] and out.data["hit"]["taken"] == 8
    assert by_name(await state(table))["Ghoul"]["hp"] == 7


async def test_pl18_armor_penetration_and_armorless_damage(table: Table) -> None:
    await started(table)
    before = await stored(table.core)
    assert await table.text("p2", ".atk Ghoul 1d6 impale kind=鈍器", dice=[6]) == \
        "⚠ 鈍器 不能貫穿（只有利器、弓、槍、投擲利器）。"
    assert await stored(table.core) == before
    out = gm_copy(await table.say("p2", ".atk Ghoul 1d6", dice=[1]))  # 1 − armor 2 → 0
    assert out.data["hit"]["taken"] == 0
    out = gm_copy(await table.say("gm", ".傷害 Ghoul 5 type=精神"))
    assert out.text.splitlines()[1] == "精神傷害無視護甲；Ghoul 受到 5 點傷害，體力 15 → 10"
    outs = await table.say("gm", ".dmg Ghoul 10 pen=5")
    assert gm_copy(outs).text.splitlines()[1:] == [
        "護甲 2 − 穿透 5 → 減傷 0；Ghoul 受到 10 點傷害，體力 10 → 0", "Ghoul 倒下了！"]
    assert outs[0].text.splitlines()[1:] == ["Ghoul 倒下了！"]  # said once


# --------------------------------------------------------------------------- PL-12


async def test_pl12_fatal_hit_offers_intervention_that_restores_battle_hp(
    table: Table,
) -> None:
    await started(table)
    out = (await table.say("gm", ".dmg Ann 15"))[0]
    assert "致命事件" in out.text and ".intervene" in out.text
    assert by_name(await state(table))["Ann"]["hp"] == 0
    assert await sheet_hp(table.core, "Ann") == 12  # the sheet waits for the decision
    await table.say("p1", ".intervene")
    ann = (await stored(table.core))["sheets"]["Ann"]
    assert ann["體力"] == 12 and ann["因果點數"] == 7
    assert by_name(await state(table))["Ann"]["hp"] == 12


async def test_pl12_accepted_fatal_hit_keeps_the_investigator_down(table: Table) -> None:
    await started(table)
    await table.text("p2", ".pass")
    await table.text("p1", ".pass")
    out = (await table.say("gm", ".atk Bob 2d6 kind=徒手", dice=[6, 6]))[0]  # Ghoul's claws
    assert out.data["hit"]["fatal"] and out.data["hit"]["hp_after"] == 0
    assert "無法常世干預" in out.text
    assert await sheet_hp(table.core, "Bob") == 10
    accepted = await table.text("p2", ".accept")
    assert accepted.endswith("\n☠ Bob 死亡。")  # issue 24: an accepted fatal event kills
    assert await sheet_hp(table.core, "Bob") == 0
    battle = await state(table)
    assert by_name(battle)["Bob"]["hp"] == 0 and by_name(battle)["Bob"]["dead"]
    await table.text("gm", ".pass")
    assert await table.text("gm", ".pass") == "\n".join([
        "Thug 結束回合。", "— 第 1 輪開始 —",
        "▶ 第 1 輪，輪到 Ann（BP 5/5）（跳過：Bob（死亡））"])


async def test_sheet_hp_changes_between_commands_reach_the_battle(table: Table) -> None:
    await started(table)
    await table.text("p1", ".st 體力-2")
    assert by_name(await state(table))["Ann"]["hp"] == 10


# --------------------------------------------------------------------------- roster


async def test_gm_adds_removes_and_ends(table: Table) -> None:
    await started(table)
    assert "只有本頻道的 GM" in await table.text("p1", ".battle add Rat 靈巧=0 hp=2")
    # a new enemy rolls initiative: 12 + 4 = 16 goes first and acts next round
    outs = await table.say("gm", ".battle add Wolf 靈巧=4 hp=8", dice=[12])
    assert outs[0].text == "加入戰鬥：1. Wolf 16\n▶ 第 0 輪，輪到 Bob（BP 4/4）"
    assert gm_copy(outs).text == "\n".join([
        "加入戰鬥：1. Wolf 16（d20=12 靈巧+4）", "　1. Wolf 先攻 16｜BP 5/5｜體力 8｜敵",
        "▶ 第 0 輪，輪到 Bob（BP 4/4）"])
    assert await table.text("gm", ".enemy add Rat 靈巧=0 hp=2", dice=[1]) == \
        "加入戰鬥：6. Rat 1\n▶ 第 0 輪，輪到 Bob（BP 4/4）"
    assert await table.text("gm", ".battle remove bob") == \
        "Bob 退出戰鬥。\n▶ 第 0 輪，輪到 Ann（BP 5/5）"
    assert [c["name"] for c in (await state(table))["combatants"]] == [
        "Wolf", "Ann", "Ghoul", "Thug", "Rat"]
    assert await table.text("gm", ".battle end") == (
        "⚔ 戰鬥結束（共到第 0 輪）。"
        "Wolf 毫髮無傷、Ann 體力 12、Ghoul 毫髮無傷、Thug 毫髮無傷、Rat 毫髮無傷")
    # issue 12 item 13: the enemy definitions stay for the next fight
    assert await table.text("p1", ".battle") == \
        "目前沒有進行中的戰鬥。已參戰：（無）；敵人：Ghoul、Thug、Wolf、Rat。"
    assert "沒有進行中的戰鬥" in await table.text("p1", ".pass")


async def test_player_joins_a_running_battle(table: Table) -> None:
    await started(table)
    await table.text("p3", ".pc new Cat")
    await table.text("p3", ".st 靈巧 0 體力 8")
    assert await table.text("p3", ".battle join", dice=[2]) == \
        "加入戰鬥：5. Cat 2（d20=2 靈巧+0）\n▶ 第 0 輪，輪到 Bob（BP 4/4）"
    assert by_name(await state(table))["Cat"]["owner"] == "p3"


# --------------------------------------------------------------------------- restart


async def test_a_restarted_bot_continues_the_battle(settings: Settings) -> None:
    first = await Core.open(settings)
    await started(Table(first))
    await Table(first).text("p2", ".act 攻擊")
    await Table(first).text("gm", ".place Bob A1")
    await first.close()
    second = await Core.open(settings)
    try:
        table = Table(second)
        assert await table.text("p2", ".move B1") == \
            "Bob 從 A1 移動到 B1（1 格）。\n   A B C D E F G H\n 1 . b . . . . . .\n" \
            "Bob：移動 花費 1 BP（2 → 1）"
        assert await table.text("p2", ".pass") == "Bob 結束回合。\n▶ 第 0 輪，輪到 Ann（BP 5/5）"
        battle = await state(table)
        assert battle["round"] == 0 and current(battle) == "Ann"
        assert by_name(battle)["Bob"]["position"] == "B1"
    finally:
        await second.close()


# --------------------------------------------------------------------------- catalogs


async def test_every_battle_command_is_in_help_in_every_locale(table: Table) -> None:
    names = ["battle", "turn", "enemy", "act", "pass", "bp", "field", "place", "move",
             "parry", "atk", "dmg"]
    listing = "\n".join(o.text for o in await table.say("u", ".help all"))
    for name in names:
        assert f"\n.{name} — " in listing
        assert ROUTER.find(name, "plurk") is not None
    for locale in ("zh-Hant", "zh-Hans", "en"):
        for name in names:
            assert table.core.catalog.has(f"plurk.help.{name}", locale)
    await table.text("u", ".lang en")
    assert (await table.text("u", ".help atk")).startswith(
        ".atk / .attack / .攻擊 / .攻击\nAttack and roll damage\n.atk <target>")


def test_the_three_catalogs_have_the_same_keys() -> None:
    def keys(locale: str) -> set[str]:
        def flatten(table: dict[str, Any], prefix: str = "") -> set[str]:
            out: set[str] = set()
            for key, value in table.items():
                out |= flatten(value, f"{prefix}{key}.") if isinstance(value, dict) \
                    else {prefix + key}
            return out
        return flatten(tomllib.loads((LOCALES / locale / "battle.toml").read_text("utf-8")))

    assert keys("zh-Hant") == keys("zh-Hans") == keys("en")


async def test_english_replies(table: Table) -> None:
    await table.text("gm", ".lang en")
    await prepare(table)
    out = (await table.say("gm", ".battle start", dice=START_DICE))[0]
    assert out.text.splitlines()[0] == "⚔ Battle! Initiative (DEX checks, highest first):"
    assert await table.text("p2", ".act attack") == "Bob: attack costs 2 BP (4 → 2)"
    assert await table.text("p1", ".act attack") == \
        "⚠ It is Bob's turn; only their player or a GM can act for them."


# --------------------------------------------------------------------------- review fixes


async def fatal_events(core: Core) -> list[dict[str, Any]]:
    return (await stored(core))["docs"]["plurk.fatal"][0]["events"]


async def test_pl12_a_renamed_investigator_stays_linked_to_its_sheet(table: Table) -> None:
    """PL-12 / PL-13: `.pc rename` mid-battle keeps the combatant on its sheet (linked
    by Character.id): hits reach the sheet, sheet changes reach the battle, the fatal
    event is the renamed sheet's and intervention settles it; the sheet cannot enter
    the battle a second time under its new name."""
    await started(table)
    await table.say("p1", ".pc rename Anna")
    hit = await table.text("p2", ".atk Ann 1d6", dice=[4])  # Bob's turn
    assert "Ann 受到 4 點傷害，體力 12 → 8" in hit
    assert await sheet_hp(table.core, "Anna") == 8
    assert await table.text("p1", ".hp") == "Anna 的體力：8"
    await table.say("p1", ".st 體力 7")
    assert by_name(await state(table))["Ann"]["hp"] == 7
    fatal = await table.text("gm", ".dmg Ann 20")
    assert "☠ 致命事件 #1：Anna 的體力將從 7 降到 0（損失 20），尚未套用。" in fatal
    event = (await fatal_events(table.core))[0]
    assert (event["character"], event["owner"], event["source"]) == ("Anna", "p1", "battle")
    assert await sheet_hp(table.core, "Anna") == 7
    assert await table.text("p1", ".intervene") == (
        "✨ Anna 發動常世干預，花費 5 點因果點數（12 → 7），取消了體力損失 20。\n"
        "常世干預：Ann 在戰鬥中的體力恢復為 7。")
    assert by_name(await state(table))["Ann"]["hp"] == 7
    before = await stored(table.core)
    assert await table.text("p1", ".battle join", dice=[]) == (
        "⚠ 戰鬥中已經有名為「Ann」的角色（名字不能重複）。")
    assert await stored(table.core) == before


async def test_pl16_attacking_oneself_is_refused_like_parrying_oneself(table: Table) -> None:
    """PL-16: the current actor cannot attack itself (as it cannot parry itself);
    nothing is rolled or spent."""
    await started(table)
    before = await stored(table.core)
    assert await table.text("p2", ".atk Bob 1d6", dice=[]) == "⚠ Bob 不能攻擊自己。"
    assert await table.text("p2", ".atk bob 1d6", dice=[]) == "⚠ Bob 不能攻擊自己。"
    assert await stored(table.core) == before


async def test_pl12_a_fallen_investigator_gets_no_second_fatal_event(table: Table) -> None:
    """PL-12: one fall, one fatal event. A hit while #1 is pending is reported (the
    sheet waits), and a hit on someone already at 0 HP opens none."""
    await started(table)
    await table.text("gm", ".dmg Ann 15")
    assert await table.text("gm", ".dmg Ann 5") == "\n".join([
        "💥 對 Ann 造成 5 點原始傷害（來源：GM）", "Ann 受到 5 點傷害，體力 0 → 0",
        "☠ Ann 的致命事件 #1 還沒處理（.fatal）：這次的 5 點傷害不另開致命事件，"
        "角色卡不變，請 GM 裁定。"])
    assert [e["id"] for e in await fatal_events(table.core)] == [1]
    assert await sheet_hp(table.core, "Ann") == 12
    await table.text("p1", ".accept")
    assert await sheet_hp(table.core, "Ann") == 0
    # issue 24: the accepted fatal event left Ann dead — no target any more
    assert await table.text("gm", ".dmg Ann 3") == "⚠ Ann 已死亡，不能成為目標。"
    assert await fatal_events(table.core) == []


async def test_pl13_when_nobody_can_act_pass_says_so(table: Table) -> None:
    """PL-13: with everyone at 0 HP the turn does not "return" to a fallen combatant."""
    await started(table)
    for line in (".dmg Bob 10", ".dmg Ann 12", ".dmg Ghoul 17", ".dmg Thug 9"):
        await table.say("gm", line)  # each falls on its own turn: it passes (issue 24)
    assert await table.text("gm", ".pass") == (
        "Thug 結束回合。\n⚠ 沒有人能行動了（全員倒下或昏迷，第 1 輪）。"
        "GM 可用 .battle wake 喚醒、.hp 治療，或 .battle end 結束戰鬥。")


async def test_enemy_values_have_minimums_and_leave_names_the_character(table: Table) -> None:
    """PL-13 set-up: an enemy starts with hp ≥ 1 (armor, BP, durability ≥ 0);
    `.battle leave` names the character that withdrew, not the user id."""
    await prepare(table)
    before = await stored(table.core)
    assert await table.text("gm", ".enemy add 貓 hp=-5") == "⚠ 「hp=-5」不行：hp 至少要 1。"
    assert await table.text("gm", ".enemy add 貓 體力=0") == "⚠ 「體力=0」不行：體力 至少要 1。"
    assert await table.text("gm", ".enemy add 貓 hp=3 armor=-1") == (
        "⚠ 「armor=-1」不行：armor 至少要 0。")
    assert await stored(table.core) == before
    assert await table.text("p1", ".battle leave") == "Ann 取消參戰。"


async def test_battle_names_prefer_the_exact_spelling_then_refuse_ambiguity(
        table: Table) -> None:
    """PL-16 targets: 艾莉絲 and 艾莉丝 both fight — each spelling hits its own; a
    spelling that only folds onto two combatants is refused with the candidates."""
    await table.text("gm", ".gm")
    for user, name, stats in (("p1", "艾莉絲", "靈巧 5 體力 12"),
                              ("p2", "艾莉丝", "靈巧 2 體力 10"),
                              ("p3", "阿髮", "體力 5"), ("p4", "阿发", "體力 5")):
        await table.text(user, f".pc new {name}")
        await table.text(user, f".st {stats}")
        await table.text(user, ".battle join")
    await table.text("gm", ".enemy add Ghoul 靈巧=3 hp=15")
    await table.say("gm", ".battle start", dice=[10, 5, 9, 3, 1])
    assert (await table.text("gm", ".dmg 艾莉丝 3")).endswith("艾莉丝 受到 3 點傷害，體力 10 → 7")
    assert (await stored(table.core))["sheets"]["艾莉絲"]["體力"] == 12
    assert await sheet_hp(table.core, "艾莉丝") == 7
    before = await stored(table.core)
    assert await table.text("gm", ".dmg 阿發 3") == (
        "⚠ 「阿發」可能是好幾位參戰者：阿髮 / 阿发。請寫出完整的名字。")
    assert await stored(table.core) == before


async def test_pl12_battles_and_fatal_events_stored_without_sheet_ids_still_work(
        table: Table) -> None:
    """PL-12: state written before sheets were linked by id (no `sheets` in the battle,
    no `character_id` in a fatal event) is still read by owner and name."""
    await started(table)
    await table.text("gm", ".dmg Ann 15")
    async with sessions(table.core) as session, session.begin():
        for row in await session.scalars(select(ChannelState)):
            if row.key == "plurk.battle":
                row.data = {k: v for k, v in row.data.items() if k != "sheets"}
            elif row.key == "plurk.fatal":
                row.data = {**row.data, "events": [
                    {k: v for k, v in e.items() if k != "character_id"}
                    for e in row.data["events"]]}
    assert "sheets" not in (await stored(table.core))["docs"]["plurk.battle"][0]
    assert "Bob 受到 3 點傷害，體力 10 → 7" in await table.text("gm", ".dmg Bob 3")
    assert await sheet_hp(table.core, "Bob") == 7
    assert (await table.text("p1", ".intervene")).endswith(
        "常世干預：Ann 在戰鬥中的體力恢復為 12。")
    assert await sheet_hp(table.core, "Ann") == 12


# --------------------------------------------------------------------------- issue 12


async def test_parry_reads_durability_from_the_sheet(table: Table) -> None:
    """PL-16: `.parry Thug` takes the weapon durability from the sheet (武器耐久), the
    parry absorbs with it and the sheet keeps what is left; a weapon entry
    (`短刀耐久`) is named by its weapon."""
    await table.text("p1", ".pc new Ann")
    await table.text("p1", ".st 武器耐久 4")
    await started(table)
    await table.text("p2", ".pass")
    assert await table.text("p1", ".parry Thug") == "\n".join([
        "🛡 Ann 宣告對 Thug 招架（武器耐久 4，取自角色卡「武器耐久」）。",
        "Ann：招架 花費 1 BP（5 → 4）"])
    await table.text("p1", ".pass")
    await table.text("gm", ".pass")  # Ghoul
    out = (await table.say("gm", ".atk Ann 1d6+1", dice=[2]))[0]  # Thug: 3
    assert out.text.splitlines()[1] == \
        "招架吸收 3（武器耐久 4 → 1）；Ann 受到 0 點傷害，體力 12 → 12"
    assert (await stored(table.core))["sheets"]["Ann"]["武器耐久"] == 1
    # a weapon entry, picked by name
    await table.text("p2", ".st 短刀耐久 3 棍耐久 2")
    await table.text("gm", ".pass")  # Thug → round 1, Bob
    assert (await table.text("p2", ".parry Thug 短刀")).splitlines()[0] == \
        "🛡 Bob 宣告對 Thug 招架（武器耐久 3，取自角色卡「短刀耐久」）。"


async def test_a_parry_that_cannot_apply_is_refused_and_costs_nothing(
        table: Table) -> None:
    """PL-16: no weapon durability, a monster's own attacks, a parry after an attack
    (and an attack after a parry) in the same round: refused, nothing spent."""
    await started(table)
    before = await stored(table.core)
    assert await table.text("p2", ".parry Thug") == (
        "⚠ Bob 沒有可招架的武器耐久：在角色卡設定（.st 武器耐久 4），"
        "或直接寫出（.parry 敵人 4）。")
    assert await table.text("p2", ".parry Ghoul 4") == (
        "⚠ Ghoul 是怪物：它自己的攻擊無法招架（用人類近身攻擊技能的敵人請定義為 human）。")
    assert await table.text("p2", ".parry Thug 0") == "⚠ Bob 的武器已經損壞（耐久 0），不能招架。"
    assert await table.text("p2", ".parry Thug 短刀") == (
        "⚠ Bob 的角色卡上沒有「短刀」的耐久（例如 .st 短刀耐久 4）。")
    assert await stored(table.core) == before
    # attack or parry, one per round (seed: 攻擊及招架中擇一)
    await table.text("p2", ".act 攻擊")
    before = await stored(table.core)
    assert await table.text("p2", ".parry Thug 3") == \
        "⚠ Bob 這一輪已經攻擊過：同一輪只能在攻擊與招架中擇一，不能再招架。"
    assert await table.text("p2", ".act 招架") == \
        "⚠ Bob 這一輪已經攻擊過：同一輪只能在攻擊與招架中擇一，不能再招架。"
    assert await stored(table.core) == before
    await table.text("p2", ".pass")
    await table.text("p1", ".parry Thug 4")
    before = await stored(table.core)
    assert await table.text("p1", ".atk Thug 1d6", dice=[]) == \
        "⚠ Ann 這一輪已宣告對 Thug 招架：同一輪只能在攻擊與招架中擇一。"
    assert await stored(table.core) == before


async def test_a_missed_hit_check_deals_no_damage(table: Table) -> None:
    """An attack resolves its hit check first: rolled by `.atk` (`武器`) or the
    `.ra 武器` just made (linked, used once). A miss spends the attack BP and
    rolls no damage die."""
    await table.text("p2", ".pc new Bob")
    await table.text("p2", ".st 武器 3")
    await started(table)
    assert await table.text("p2", ".atk Thug 1d6 武器", dice=[5]) == "\n".join([
        "⚔ Bob 攻擊 Thug：命中檢定 武器 d20=5+3 = 8，閾值 11，未命中，不擲傷害",
        "Bob：攻擊 花費 2 BP（4 → 2）"])
    assert by_name(await state(table))["Thug"]["hp"] == 9
    # the check just made: a failed .ra 武器 is the miss of the next .atk
    await table.say("p2", ".ra 武器", dice=[4])
    out = (await table.say("p2", ".atk Thug 1d6", dice=[]))[0]
    assert out.text.splitlines()[0] == (
        "⚔ Bob 攻擊 Thug：命中檢定（沿用剛才的 武器 檢定）d20=4+3 = 7，閾值 11，未命中，不擲傷害")
    assert out.data["hit"] is None and out.data["check"]["success"] is False
    assert by_name(await state(table))["Thug"]["hp"] == 9
    # a hit rolls damage; the used check is not linked again
    await table.text("p2", ".pass")
    await table.text("p1", ".pass")
    await table.text("gm", ".pass")
    await table.text("gm", ".pass")
    outs = await table.say("p2", ".atk Thug 1d6 武器+1 >=12", dice=[9, 4])
    assert outs[0].text.splitlines()[:3] == [
        "⚔ Bob 攻擊 Thug：命中檢定 武器 d20=9+4 = 13，閾值 12，命中",
        "傷害 1d6 = [4] = 4",
        "Thug 被擊中（受傷）"]
    assert gm_copy(outs).text.splitlines()[2] == "Thug 受到 4 點傷害，體力 9 → 5"


async def test_melee_beyond_reach_is_refused(table: Table) -> None:
    """Melee reaches the adjacent cells on the field (PL-15): C4 → H8 is refused
    before any die; a ranged kind or a GM-given reach goes through."""
    await started(table)
    await table.text("gm", ".place Bob C4")
    await table.text("gm", ".place Thug H8")
    before = await stored(table.core)
    assert await table.text("p2", ".atk Thug 1d6", dice=[]) == (
        "⚠ Thug 在 H8，離 Bob（C4）5 格：近戰只搆得到 1 格。"
        "先 .move 靠近，或用遠程攻擊（kind=弓、槍、投擲鈍器、投擲利器）。")
    assert await table.text("p2", ".atk Thug 1d6 kind=利器 reach=2", dice=[]) == (
        "⚠ Thug 在 H8，離 Bob（C4）5 格：近戰只搆得到 2 格。"
        "先 .move 靠近，或用遠程攻擊（kind=弓、槍、投擲鈍器、投擲利器）。")
    assert await stored(table.core) == before
    out = gm_copy(await table.say("p2", ".atk Thug 1d6 kind=弓", dice=[3]))
    assert out.data["hit"]["taken"] == 3


async def test_impale_is_checked_against_the_hit_and_the_weapon_stays(
        table: Table) -> None:
    """PL-18: only a critical hit impales (the dice rolled twice); declaring impale on
    an ordinary hit is refused; the impaling weapon stays in the target until the
    GM rules it retrieved — meanwhile no edged attack and no parry with it."""
    await table.text("p2", ".pc new Bob")
    await table.text("p2", ".st 武器 3")
    await started(table)
    before = await stored(table.core)
    assert await table.text("p2", ".atk Ghoul 1d8 武器 impale", dice=[12]) == \
        "⚠ 只有命中檢定滿骰（d20=20）才會貫穿；這次是 d20=12。"
    assert await stored(table.core) == before
    out = gm_copy(await table.say("p2", ".atk Ghoul 1d8 武器 kind=利器", dice=[20, 5, 3]))
    assert out.text.splitlines()[:4] == [
        "⚔ Bob 攻擊 Ghoul：命中檢定 武器 d20=20+3 = 23，閾值 11，命中（滿骰）",
        "傷害 1d8（貫穿，骰子擲兩次）= [5, 3] = 8",
        "護甲 2 − 穿透 0 → 減傷 2；Ghoul 受到 6 點傷害，體力 15 → 9",
        "🗡 貫穿：Bob 的武器留在 Ghoul 體內；取回前不能用它攻擊或招架"
        "（取回時 GM 用 .battle retrieve Bob）。"]
    assert by_name(await state(table))["Bob"]["stuck_in"] == "Ghoul"
    assert "｜武器卡在 Ghoul" in await table.text("gm", ".battle")
    before = await stored(table.core)
    assert await table.text("p2", ".atk Ghoul 1d8 kind=利器", dice=[]) == \
        "⚠ Bob 的武器還卡在 Ghoul 體內，要先取回。"
    assert await stored(table.core) == before
    assert await table.text("gm", ".battle retrieve Bob") == "Bob 從 Ghoul 身上取回了武器。"
    assert by_name(await state(table))["Bob"]["stuck_in"] is None


async def test_surprise_round_from_a_secret_perception_check(table: Table) -> None:
    """PL-14: `.battle start sneak=enemy` — the enemies' 潛行 against each
    investigator's 觀察 (secret: the rolls go to the GM only); won, the enemies act
    first. Dice: per watcher 潛行 d20 then 觀察 d20, then initiative."""
    await table.text("p1", ".pc new Ann")
    await table.text("p1", ".st 觀察 4")
    await prepare(table)
    outs = await table.say("gm", ".battle start sneak=enemy",
                           dice=[15, 5, 12, 3, 10, 13, 12, 4, 2, 9])
    channel = [o for o in outs if o.to == "channel"]
    secret = [o for o in outs if o.to == "private"]
    assert channel[0].text.splitlines()[:2] == [
        "🤫 敵方突襲成功！", "⚔ 戰鬥開始！先攻（靈巧檢定，高者先）："]
    assert "潛行" not in channel[0].text
    assert channel[0].data == {"kind": "plurk.battle", "event": "start"}  # no numbers
    assert [c["name"] for c in secret[0].data["battle"]["combatants"]] == [
        "Ghoul", "Thug", "Bob", "Ann"]
    assert secret[0].data["surprise"] is None  # the GM's copy of the start: no rolls
    assert [(o.user, o.text) for o in secret[1:]] == [("gm", "\n".join([
        "🤫 先制檢定（暗骰，敵方潛行）：",
        "Ghoul 潛行 d20=15+0 = 15 對 Ann 觀察 d20=5+4 = 9：沒察覺",
        "Ghoul 潛行 d20=12+0 = 12 對 Bob 觀察 d20=3+0 = 3：沒察覺"]))]


async def test_a_noticed_surprise_gives_the_usual_order(table: Table) -> None:
    """PL-14: one watcher who notices (a draw counts as noticed) spoils the surprise."""
    await prepare(table)
    outs = await table.say("gm", ".battle start sneak=enemy", dice=[15, 5, 7, 7, *START_DICE])
    assert outs[0].text.splitlines()[0] == "🤫 敵方的突襲被察覺了：照常依先攻行動。"
    assert [c["name"] for c in outs[1].data["battle"]["combatants"]] == ORDER
    assert outs[2].text.splitlines()[2] == "Ghoul 潛行 d20=7+0 = 7 對 Bob 觀察 d20=7+0 = 7：察覺了"


async def test_negative_dex_bp_rounds_toward_zero(table: Table) -> None:
    """PL-13: BP max = 靈巧 ÷ 2 (小數捨去, toward zero) + 3: 靈巧 −3 → −1 + 3 = 2."""
    await table.text("gm", ".gm")
    outs = await table.say("gm", ".enemy add Rat 靈巧=-3 hp=2")
    assert outs[0].text == "已定義敵人：Rat（數值已私訊 GM）"
    assert gm_copy(outs).text == \
        "已定義敵人：Rat（敵方）靈巧 -3 體質 0 體力 2 護甲 0 BP 2，非人形"
    await table.text("gm", ".enemy add Bat 靈巧=-7 hp=2")  # −3.5 → −3: BP 0
    await table.text("gm", ".enemy add Cat 靈巧=-1 hp=2")  # −0.5 → 0: BP 3
    out = gm_copy(await table.say("gm", ".battle start", dice=[10, 3, 5]))
    assert {c["name"]: c["bp_max"] for c in out.data["battle"]["combatants"]} == {
        "Rat": 2, "Bat": 0, "Cat": 3}


async def test_markers_stay_when_someone_is_placed_and_move_shows_the_line(
        table: Table) -> None:
    """PL-15: a marker is given once and kept — placing Goblin (same initial as
    Ghoul) changes nobody's — and is a lowercase letter or symbol, never a column
    letter or a row digit; `.move` shows the board lines that changed."""
    await started(table)
    await table.text("gm", ".place Ghoul D4")
    await table.say("gm", ".enemy add Goblin 靈巧=0 hp=3", dice=[1])
    board = await table.text("gm", ".place Goblin E4")
    assert board.splitlines()[6] == " 4 . . . g c . . ."
    assert board.splitlines()[-2] == "圖例：g=Ghoul@D4、c=Goblin@E4"
    await table.text("gm", ".place Bob A1")
    board = await table.text("gm", ".field")
    assert board.splitlines()[-2] == "圖例：b=Bob@A1、g=Ghoul@D4、c=Goblin@E4"
    assert await table.text("p2", ".move B2") == "\n".join([
        "Bob 從 A1 移動到 B2（1 格）。", "   A B C D E F G H",
        " 1 . . . . . . . .", " 2 . b . . . . . .", "Bob：移動 花費 1 BP（4 → 3）"])


async def test_swapped_attack_arguments_are_recognised(table: Table) -> None:
    """`.atk 1d6 Thug` is `.atk Thug 1d6`."""
    await started(table)
    assert (await table.text("p2", ".atk 1d6 Thug", dice=[4])).splitlines()[:2] == [
        "⚔ Bob 攻擊 Thug：傷害 1d6 = [4] = 4", "Thug 被擊中（受傷）"]


async def test_a_second_enemy_of_the_same_name_is_numbered(table: Table) -> None:
    """`.enemy add 狂信者` twice defines 狂信者 and 狂信者2 (the first is never
    replaced); during a battle a third one enters as 狂信者3; `.battle end` keeps the
    definitions for the next fight, `.battle end clear` forgets them."""
    await table.text("gm", ".gm")
    await table.text("gm", ".enemy add 狂信者 靈巧=1 hp=6")
    outs = await table.say("gm", ".enemy add 狂信者 靈巧=2 hp=8")
    assert outs[0].text == \
        "已經有「狂信者」了：這個新增為 狂信者2。\n已定義敵人：狂信者2（數值已私訊 GM）"
    assert gm_copy(outs).text == (
        "已經有「狂信者」了：這個新增為 狂信者2。\n"
        "已定義敵人：狂信者2（敵方）靈巧 2 體質 0 體力 8 護甲 0 BP 4，非人形")
    assert (await table.text("gm", ".enemy")).splitlines()[1:] == ["・狂信者", "・狂信者2"]
    await table.say("gm", ".battle start", dice=[10, 3])
    assert await table.text("gm", ".battle add 狂信者", dice=[5]) == (
        "加入戰鬥：2. 狂信者3 6\n▶ 第 0 輪，輪到 狂信者")
    await table.text("gm", ".battle end")
    assert await table.text("gm", ".battle") == \
        "目前沒有進行中的戰鬥。已參戰：（無）；敵人：狂信者、狂信者2、狂信者3。"
    await table.say("gm", ".battle start", dice=[10, 3, 5])
    assert await table.text("gm", ".battle end clear") == \
        "⚔ 戰鬥結束（共到第 0 輪）。狂信者 毫髮無傷、狂信者3 毫髮無傷、狂信者2 毫髮無傷"
    assert await table.text("gm", ".battle") == \
        "目前沒有進行中的戰鬥。已參戰：（無）；敵人：（無）。"


async def test_a_turn_announcement_names_the_player_to_notify(table: Table) -> None:
    """Issue 12, item 7: the reply that says whose turn it is carries that player's id
    for the adapters to mention (and only that reply)."""
    await table.text("gm", ".gm")
    await table.text("alice", ".st 靈巧 2 體力 8")
    await table.text("bob", ".st 靈巧 1 體力 8")
    await table.text("alice", ".battle join")
    await table.text("bob", ".battle join")
    start = await table.say("gm", ".battle start", dice=[15, 3])
    assert [(o.to, o.notify) for o in start] == [("channel", ("alice",))]
    passed = await table.say("alice", ".pass")
    assert [(o.to, o.notify) for o in passed] == [("channel", ("bob",))]
    shown = await table.say("bob", ".battle")
    assert [o.notify for o in shown] == [()]
