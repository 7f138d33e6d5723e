"""Two bot processes on one database (two Cores here): the per-channel lock of one
process does not cover the other, so the version columns of the state documents and
of the character sheets must keep a concurrent change from overwriting another —
on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio

from bot.config import Settings
from bot.core import Core
from bot.messages import Incoming
from tests.support import Table


async def test_concurrent_spends_from_two_processes_cannot_both_pass(
    any_settings: Settings,
) -> None:
    first, second = await Core.open(any_settings), await Core.open(any_settings)
    try:
        table = Table(first)
        await table.text("gm", ".gm")
        await table.text("gm", ".ap set 3")
        spends = [core.handle(Incoming("console", "table", user, ".ap spend 移動",
                                       display_name=user))
                  for core, user in ((first, "alice"), (second, "bob"))]
        texts = [outs[0].text for outs in await asyncio.gather(*spends)]
        spent = [text for text in texts if "3 → 1" in text]
        assert len(spent) == 1, texts
        # the other one is refused: not enough AP (it ran after), or the conflict reply
        # (it ran at the same time) — never the internal-error reply
        [other] = [text for text in texts if text not in spent]
        assert other in (CONFLICT, "⚠ 行動點數不足：移動 需要 2，只剩 1。"), texts
        [shown] = await Table(second).say("carol", ".ap")
        assert shown.data is not None and shown.data["points"] == 1
    finally:
        await first.close()
        await second.close()


CONFLICT = "⚠ 同時有其他指令修改了相同資料，這次的指令沒有生效，請再試一次。"


async def test_item7_concurrent_sheet_writes_are_never_lost(any_settings: Settings) -> None:
    """600 acknowledged `.st 力量+1` once left 496 stored: every acknowledged change
    must be stored, and every other one refused with the conflict reply."""
    first, second = await Core.open(any_settings), await Core.open(any_settings)
    try:
        await Table(first).text("alice", ".st 力量 0")
        rounds = 40
        writes = [core.handle(Incoming("console", "table", "alice", ".st 力量+1",
                                       display_name="alice"))
                  for _ in range(rounds) for core in (first, second)]
        texts = [outs[0].text for outs in await asyncio.gather(*writes)]
        acknowledged = [t for t in texts if t.startswith("alice 的數值已更新：力量:")]
        assert all(t in acknowledged or t == CONFLICT for t in texts), set(texts)
        assert len(acknowledged) >= rounds  # each process's own lock orders its share
        stored = await Table(second).text("alice", ".st show")
        assert stored == f"alice：力量:{len(acknowledged)}"
    finally:
        await first.close()
        await second.close()


async def test_item7_different_stats_on_one_sheet_do_not_overwrite_each_other(
    any_settings: Settings,
) -> None:
    first, second = await Core.open(any_settings), await Core.open(any_settings)
    try:
        await Table(first).text("alice", ".st 力量 0 敏捷 0")
        rounds = 30
        writes = [core.handle(Incoming("console", "table", "alice", f".st {stat}+1",
                                       display_name="alice"))
                  for _ in range(rounds) for core, stat in ((first, "力量"), (second, "敏捷"))]
        texts = [outs[0].text for outs in await asyncio.gather(*writes)]
        strength = sum(t.startswith("alice 的數值已更新：力量:") for t in texts)
        dexterity = sum(t.startswith("alice 的數值已更新：敏捷:") for t in texts)
        assert strength + dexterity + texts.count(CONFLICT) == len(texts), set(texts)
        assert await Table(second).text("alice", ".st show") == (
            f"alice：屬性 力量:{strength}｜其他 敏捷:{dexterity}")
    finally:
        await first.close()
        await second.close()
