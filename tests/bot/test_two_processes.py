"""Two bot processes on one database (two Cores here): the per-channel lock of one
process does not cover the other, so the version column of the state documents must
keep a concurrent spend from passing the limit — on SQLite and on PostgreSQL."""

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
        # the other one is refused: not enough AP, or a conflict to retry
        assert all(text.startswith("⚠") for text in texts if text not in spent), texts
        [shown] = await Table(second).say("carol", ".ap")
        assert shown.data is not None and shown.data["points"] == 1
    finally:
        await first.close()
        await second.close()
