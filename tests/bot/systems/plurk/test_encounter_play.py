"""Issue 24 at a plurk table, the play-test's findings: `.st` within the fight's bounds,
a hidden attack the target's player learns of, enemy numbers kept from the channel,
the fallen passing their own turn, and the texts that name what they mean."""

from __future__ import annotations

from tests.bot.systems.plurk.test_battle import by_name, gm_copy, started, state
from tests.support import Table


async def test_st_keeps_the_fights_hp_cap_and_the_gm_only_revival(table: Table) -> None:
    await started(table)
    assert await table.text("p1", ".st 體力+100") == \
        "⚠ Ann 在這場戰鬥的體力上限是 12，不能設為 112。"
    assert await table.text("p1", ".st 體力 50") == \
        "⚠ Ann 在這場戰鬥的體力上限是 12，不能設為 50。"
    await table.text("gm", ".dmg Bob 30")
    await table.text("p2", ".accept")
    assert await table.text("p2", ".st 體力 10") == \
        "⚠ Bob 已在戰鬥中死亡：只有 GM 能讓 Bob 回來（.init set Bob alive hp=…）。"
    fighters = by_name(await state(table))
    assert (fighters["Ann"]["hp"], fighters["Bob"]["hp"]) == (12, 0)
