"""A play-tester's findings on ap20 / ap20+v6 (issue 24, second table): each a
behaviour a player met, fixed, and held here.

The table of ``test_commands``: GM `gm`; `p1` plays 艾莉絲 (生命 18), `p2` 鮑伯 (生命
22); the GM's 哥布林. Order: 艾莉絲 18, 鮑伯 15, 哥布林 10.
"""

from __future__ import annotations

from tests.bot.systems.ap20.test_commands import data, started
from tests.support import Table


async def test_the_actor_leaving_ends_its_turn_like_next(table: Table) -> None:
    await started(table)
    await table.text("gm", ".init set 鮑伯 hp=0")
    outs = await table.say("p1", ".init remove 艾莉絲")
    assert outs[0].text == (
        "艾莉絲 離開戰鬥。\n（跳過：鮑伯（倒下））\n▶ 輪到 哥布林")
    assert outs[0].data["turn"]["skipped"] == ["鮑伯"]
    assert (await table.text("p1", ".init")).splitlines()[0] == "⚔ 第 1 輪，輪到 哥布林"


async def test_the_next_actor_is_pinged_when_the_actor_leaves(table: Table) -> None:
    await started(table)
    outs = await table.say("gm", ".init remove 艾莉絲")
    assert outs[0].text == "艾莉絲 離開戰鬥。\n▶ 輪到 鮑伯（行動力 6/6）"
    assert outs[0].notify == ("p2",)
    # someone else leaving leaves the turn where it is
    assert await table.text("gm", ".init remove 哥布林") == "哥布林 離開戰鬥。"


async def test_refusals_for_the_gms_fighter_say_it_is_the_gms(table: Table) -> None:
    await started(table)
    assert await table.text("p1", ".init remove 哥布林") == (
        "⚠ 哥布林 是 GM 的角色：只有 GM 能讓 哥布林 離開戰鬥。")
    assert await table.text("p1", ".init remove 鮑伯") == (
        "⚠ 只有 鮑伯 的玩家或 GM 能讓 鮑伯 離開戰鬥。")
    assert await table.text("p1", ".atk 鮑伯 by=哥布林") == (
        "⚠ 哥布林 是 GM 的角色：只有 GM 能替 哥布林 行動。")


async def test_in_a_fight_a_players_hp_is_the_gms(table: Table) -> None:
    await started(table)
    await table.text("gm", ".init set 艾莉絲 hp=0")
    refused = ("⚠ 戰鬥中 艾莉絲 的生命由 GM 用 .init set 艾莉絲 hp=N 設定，或由攻擊與傷害改變；"
               "不能用 .st。")
    assert await table.text("p1", ".st 生命 18") == refused
    assert await table.text("p1", ".st 生命+5") == refused
    assert await table.text("p1", ".st 生命上限 30") == refused
    assert "生命:0" in await table.text("p1", ".st")
    assert (await table.text("p1", ".init")).splitlines()[1].endswith("｜生命 0｜倒下")
    # other entries stay the player's
    assert await table.text("p1", ".st 體質 1") == "艾莉絲 的數值已更新：體質:1"


async def test_hp_by_st_stays_within_the_maximum(table: Table) -> None:
    await table.text("gm", ".gm")
    await table.text("gm", ".system ap20")
    await table.text("p1", ".pc new 艾莉絲")
    await table.text("p1", ".st 生命 18 生命上限 18")
    assert await table.text("p1", ".st 生命+100") == "艾莉絲 的數值已更新：生命:18→18（上限 18）"
    assert await table.text("p1", ".st 生命-30") == "艾莉絲 的數值已更新：生命:18→0（最低 0）"
    assert await table.text("p1", ".st 生命 12") == "艾莉絲 的數值已更新：生命:0→12"
    # in a fight: the fight's maximum, for whoever may set it (the GM's own character)
    await table.text("gm", ".pc new 卡蘿")
    await table.text("gm", ".st 生命 10")
    await table.text("gm", ".init join =3")
    assert await table.text("gm", ".st 生命+100") == "卡蘿 的數值已更新：生命:10→10（上限 10）"
    assert (await table.text("gm", ".init")).splitlines()[1].endswith("｜生命 10")


async def test_a_number_before_the_stat_is_refused(table: Table) -> None:
    await table.text("gm", ".system ap20")
    await table.text("p1", ".st 敏捷 14")
    assert await table.text("p1", ".ra 2 敏捷") == (
        "⚠ 用法：.ra <屬性> [DC] [+2] [adv|dis] [by=<名>]")
    assert await table.text("p1", ".save 12 敏捷") == (
        "⚠ 用法：.save <屬性> <DC> [+2] [adv|dis] [by=<名>]")
    assert (await table.text("p1", ".ra 敏捷 2", [5])).startswith("🎲 ")


async def test_a_typed_bonus_is_named_and_失能_at_0_hp_is_said_once(table: Table) -> None:
    await started(table)
    text, _ = await data(table, "p1", ".atk 鮑伯 +2", [10])
    assert text.splitlines()[0] == (
        "⚔ 艾莉絲→鮑伯：d20=10 +命中5+破甲1+加值2 = 18 ≥ 防禦 5 → 命中")
    assert await table.text("gm", ".init set 鮑伯 hp=0 +失能") == (
        "已更新：2. 鮑伯（我方）先攻 15｜行動力 5/6｜生命 0｜倒下")
    assert await table.text("gm", ".init set 鮑伯 hp=5") == (
        "已更新：2. 鮑伯（我方）先攻 15｜行動力 5/6｜生命 5｜倒下｜失能")


async def test_an_unknown_facing_lists_the_facing_words(table: Table) -> None:
    await started(table, "ap20+v6")
    await table.text("gm", ".place 艾莉絲 B2")
    assert await table.text("p1", ".face up") == (
        "⚠ 看不懂方向「up」：寫 北 東北 東 東南 南 西南 西 西北、N NE E SE S SW W NW、"
        "度數（0–359），或參戰者的名字（艾莉絲 / 鮑伯 / 哥布林）。")
    assert await table.text("p1", ".face 東") == "艾莉絲 轉向 90°→（原 0°）"
