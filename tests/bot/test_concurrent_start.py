"""Several bot processes started at once on one empty PostgreSQL (docs/scaling.md,
compose's ``bot`` and ``bot-2``): one upgrades the schema, the others wait for it and
find it done — none fails creating a table the other created meanwhile."""

from __future__ import annotations

import asyncio

from adapters.config import Settings
from bot.core import Core
from tests.support import Table


async def test_processes_starting_at_once_all_open_the_store(any_settings: Settings) -> None:
    cores = await asyncio.gather(*(Core.open(any_settings) for _ in range(3)),
                                 return_exceptions=True)
    opened = [core for core in cores if isinstance(core, Core)]
    try:
        assert len(opened) == 3, [c for c in cores if not isinstance(c, Core)]
        assert await Table(opened[0]).text("alice", ".st 力量 5") == "alice 的數值已更新：力量:5"
        assert await Table(opened[2]).text("alice", ".st show") == "alice：力量:5"
    finally:
        for core in opened:
            await core.close()
