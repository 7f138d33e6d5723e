"""`ace` nightmare mark (AE-14) through a real Core: slots, stacking, long items, the
actions a store or a take costs, the kill count, and the mark as character state that
follows its sheet."""

from __future__ import annotations

from bot.core import Core
from tests.support import Table


async def setup(table: Table) -> None:
    await table.text("gm", ".gm")
    await table.text("gm", ".system ace")
    await table.text("alice", ".pc new 艾莉絲")
    await table.text("alice", ".st 力量6 敏捷5 體質5 精神力5")


async def test_slots_stack_and_a_full_slot_refuses_one_more(table: Table) -> None:
    await setup(table)
    assert await table.text("alice", ".store 太刀 佔格=2") == (
        "🔖 艾莉絲 存入 太刀×1（現有1）｜印記 2/6格｜花費：標準動作")
    assert await table.text("alice", ".store 恢復食物 x3 每格=10") == (
        "🔖 艾莉絲 存入 恢復食物×3（現有3）｜印記 3/6格｜花費：標準動作")
    assert await table.text("alice", ".store 繃帶 3") == (
        "🔖 艾莉絲 存入 繃帶×3（現有3）｜印記 6/6格｜花費：標準動作")
    assert await table.text("alice", ".store 恢复食物 7") == (
        "🔖 艾莉絲 存入 恢復食物×7（現有10）｜印記 6/6格｜花費：標準動作")
    # the food's slot is full (10): one more needs a slot the mark does not have
    assert await table.text("alice", ".store 恢復食物") == (
        "⚠ 印記放不下 恢復食物：需要 1 格，只剩 0 格（共 6 格）。")
    assert await table.text("alice", ".store 恢復食物 每格=5") == (
        "⚠ 恢復食物 已以每格10、佔1格存放，不能改。")
    assert await table.text("alice", ".take 恢復食物 4") == (
        "🔖 艾莉絲 取出 恢復食物×4（剩6）｜印記 6/6格｜花費：迅捷動作+標準動作")
    assert await table.text("alice", ".take 太刀") == (
        "🔖 艾莉絲 取出 太刀×1（剩0）｜印記 4/6格｜花費：迅捷動作+標準動作")
    assert await table.text("alice", ".take 太刀") == "⚠ 印記裡沒有「太刀」。"
    assert await table.text("alice", ".take 繃帶 5") == "⚠ 印記裡只有 3 個 繃帶，不能取出 5 個。"
    assert await table.text("alice", ".mark") == (
        "🔖 艾莉絲 的夢魘印記 Lv1：4/6格｜恢復食物×6（1格）、繃帶×3（3格）｜殺戮值0")


async def test_level_and_kills_are_the_gms(table: Table) -> None:
    await setup(table)
    assert await table.text("alice", ".mark level 2") == "⚠ 只有本頻道的 GM 可以這麼做。"
    assert await table.text("gm", ".mark level 2 艾莉絲") == (
        "🔖 艾莉絲 的夢魘印記 Lv2：0/12格｜空｜殺戮值0")
    assert await table.text("gm", ".mark kills +3 艾莉絲") == (
        "🔖 艾莉絲 的夢魘印記 Lv2：0/12格｜空｜殺戮值3")
    await table.text("alice", ".store 長槍 佔格=3 3")
    assert await table.text("gm", ".mark level 1 艾莉絲") == "⚠ 已用 9 格，等級 1 只有 6 格。"
    assert await table.text("gm", ".mark level 6 艾莉絲") == "⚠ 印記等級必須在 1–5 之間。"
    assert await table.text("bob", ".mark 艾莉絲") == "⚠ 只有該角色的玩家或 GM 可以這麼做。"
    assert (await table.text("gm", ".mark @alice")).startswith("🔖 艾莉絲 的夢魘印記 Lv2：9/12格")


async def test_each_character_has_its_own_mark_and_it_follows_the_sheet(
        table: Table, core: Core) -> None:
    await setup(table)
    await table.text("alice", ".store 太刀 佔格=2")
    await table.text("alice", ".pc new 替身")
    assert await table.text("alice", ".mark") == "🔖 替身 的夢魘印記 Lv1：0/6格｜空｜殺戮值0"
    await table.text("alice", ".pc switch 艾莉絲")
    await table.text("alice", ".pc rename 艾莉絲 愛麗絲")
    assert await table.text("alice", ".mark") == (
        "🔖 愛麗絲 的夢魘印記 Lv1：2/6格｜太刀×1（長物，2格）｜殺戮值0")
    # `.campaign bind` moves the sheets, and the marks with them
    await table.text("gm", ".campaign bind 夢魘")
    other = Table(core, "thread-2")
    await other.text("gm", ".campaign bind 夢魘")
    assert await other.text("alice", ".mark") == (
        "🔖 愛麗絲 的夢魘印記 Lv1：2/6格｜太刀×1（長物，2格）｜殺戮值0")


async def test_english_mark(table: Table) -> None:
    await setup(table)
    await table.text("gm", ".lang en")
    assert await table.text("alice", ".store ration 3 per=10") == (
        "🔖 艾莉絲 stores ration x3 (now 3) | mark 1/6 slots | costs: a standard action")
    assert await table.text("alice", ".take ration") == (
        "🔖 艾莉絲 takes out ration x1 (2 left) | mark 1/6 slots | "
        "costs: a swift action+a standard action")
