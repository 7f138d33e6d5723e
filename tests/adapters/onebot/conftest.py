"""Fixtures of the QQ adapter tests: nonebot set up the way ``serve`` sets it up."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from nonebug import NONEBOT_INIT_KWARGS, NONEBOT_START_LIFESPAN

from adapters.config import Settings
from adapters.onebot.server import nonebot_init_kwargs
from tests.adapters.onebot.harness import RunningBot, onebot_settings, start_bot, stop_bot


def pytest_configure(config: pytest.Config) -> None:
    """nonebug initialises nonebot once per session: with the driver ``serve`` uses,
    and without running nonebot's lifespan (``serve`` runs it under uvicorn)."""
    config.stash[NONEBOT_INIT_KWARGS] = nonebot_init_kwargs(Settings(_env_file=None))
    config.stash[NONEBOT_START_LIFESPAN] = False


@pytest.fixture
async def running_bot(tmp_path: Path) -> AsyncIterator[RunningBot]:
    running = await start_bot(onebot_settings(tmp_path))
    yield running
    await stop_bot(running)
