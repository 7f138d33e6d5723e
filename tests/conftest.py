"""Shared fixtures: a real Core on a real SQLite file in a temporary directory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.config import Settings
from bot.core import Core
from tests.support import Table


def make_settings(tmp_path: Path, **overrides) -> Settings:
    return Settings(_env_file=None, data_dir=tmp_path, **overrides)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


@pytest.fixture
async def core(settings: Settings) -> AsyncIterator[Core]:
    opened = await Core.open(settings)
    yield opened
    await opened.close()


@pytest.fixture
def table(core: Core) -> Table:
    return Table(core)
