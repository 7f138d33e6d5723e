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
        "艾莉絲 離開戰鬥。\n（跳過：鮑伯（倒下））\n▶ 輪到 哥布林（行動力 6/6）")
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
