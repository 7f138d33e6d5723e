"""Shared fixtures: a real Core on a real SQLite file in a temporary directory."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.ext.asyncio import create_async_engine

from adapters.config import Settings
from bot.core import Core
from bot.store import db
from tests.support import Table

_TEMPLATES: dict[int, Path] = {}


def _migrated_template() -> Path:
    """An empty SQLite store at the newest schema, built once per process by the same
    upgrade :meth:`Core.open` runs (per process, not per session: a forked mutation-test
    run builds its own, so a broken upgrade still fails its tests). Copying it costs a
    millisecond; running every migration again costs each test ~0.15 s."""
    pid = os.getpid()
    if pid not in _TEMPLATES:
        path = Path(tempfile.mkdtemp(prefix="trpgbot-template-")) / "trpgbot.db"
        engine = create_engine(f"sqlite:///{path.as_posix()}")
        with engine.begin() as connection:
            db._upgrade(connection)
        engine.dispose()
        _TEMPLATES[pid] = path
    return _TEMPLATES[pid]


def make_settings(tmp_path: Path, *, migrated: bool = True, **overrides) -> Settings:
    """Settings on a SQLite file in ``tmp_path``, which starts as a copy of a migrated
    empty store unless the test gives its own database, the file exists already, or
    ``migrated`` is False (a test of the migrations themselves)."""
    settings = Settings(_env_file=None, data_dir=tmp_path, **overrides)
    target = tmp_path / "trpgbot.db"
    if migrated and not settings.database_url and not target.exists():
        tmp_path.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(_migrated_template(), target)
    return settings


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


POSTGRES_LOCK = 7_362_001
"""Advisory lock every PostgreSQL test holds while it runs: tests in several processes
at once (mutation testing runs two) would otherwise drop each other's schema."""


@pytest.fixture(params=["sqlite", "postgres"])
async def any_settings(request: pytest.FixtureRequest,
                       tmp_path: Path) -> AsyncIterator[Settings]:
    """Settings for SQLite and, when TRPGBOT_TEST_POSTGRES_URL is set (CI), PostgreSQL:
    an empty schema (alembic rebuilds it), this process's alone until the test ends."""
    if request.param == "sqlite":
        yield make_settings(tmp_path)
        return
    async with empty_postgres() as url:
        yield make_settings(tmp_path, database_url=url)


@contextlib.asynccontextmanager
async def empty_postgres() -> AsyncIterator[str]:
    """The URL of the test PostgreSQL with an empty schema, this process's alone until
    the block ends; the test is skipped without one (and fails in CI, where
    TRPGBOT_REQUIRE_POSTGRES is set)."""
    if not POSTGRES_URL:
        if os.environ.get("TRPGBOT_REQUIRE_POSTGRES"):  # CI: never a silent skip
            pytest.fail("TRPGBOT_REQUIRE_POSTGRES is set but TRPGBOT_TEST_POSTGRES_URL is not")
        pytest.skip("TRPGBOT_TEST_POSTGRES_URL is not set (.ci/postgres.sh sets it up)")
    engine = create_async_engine(POSTGRES_URL)
    try:
        async with engine.connect() as lock:
            await lock.execute(text(f"SELECT pg_advisory_lock({POSTGRES_LOCK})"))
            await lock.commit()
            async with engine.begin() as conn:
                await conn.execute(text("DROP SCHEMA public CASCADE"))
                await conn.execute(text("CREATE SCHEMA public"))
            yield POSTGRES_URL
    finally:  # closing the lock's connection releases it
        await engine.dispose()
