"""Shared fixtures: a real Core on a real SQLite file in a temporary directory."""

from __future__ import annotations

import os
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


POSTGRES_URL = os.environ.get("TRPGBOT_TEST_POSTGRES_URL")


async def _reset_postgres(url: str) -> None:
    """Drop every table so each test starts from an empty schema (alembic rebuilds it)."""
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(url)
    async with engine.begin() as conn:
        await conn.execute(text("DROP SCHEMA public CASCADE"))
        await conn.execute(text("CREATE SCHEMA public"))
    await engine.dispose()


@pytest.fixture(params=["sqlite", "postgres"])
async def any_settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    """Settings for SQLite and, when TRPGBOT_TEST_POSTGRES_URL is set (CI), PostgreSQL."""
    if request.param == "sqlite":
        return make_settings(tmp_path)
    if not POSTGRES_URL:
        if os.environ.get("TRPGBOT_REQUIRE_POSTGRES"):  # CI: never a silent skip
            pytest.fail("TRPGBOT_REQUIRE_POSTGRES is set but TRPGBOT_TEST_POSTGRES_URL is not")
        pytest.skip("TRPGBOT_TEST_POSTGRES_URL is not set (.ci/postgres.sh sets it up)")
    await _reset_postgres(POSTGRES_URL)
    return make_settings(tmp_path, database_url=POSTGRES_URL)
