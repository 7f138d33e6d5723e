"""Engine creation and schema upgrades.

SQLite is the embedded default: WAL so readers never block the writer, and
`synchronous=FULL` so a commit that a reply announces is on disk before the
reply leaves. Any other SQLAlchemy async URL (PostgreSQL via asyncpg) works
unchanged. The schema is always brought to the newest alembic revision on
start, so an operator never runs a migration by hand unless they want to
(`trpgbot db upgrade`).
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

import migrations

MIGRATIONS_DIR = Path(migrations.__file__).parent


def make_engine(url: str) -> AsyncEngine:
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url, connect_args={"timeout": 30})

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi_conn, _record) -> None:  # type: ignore[no-untyped-def]
            cursor = dbapi_conn.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_async_engine(url, pool_pre_ping=True)


def sessionmaker(engine: AsyncEngine) -> async_sessionmaker:
    return async_sessionmaker(engine, expire_on_commit=False)


def alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    return cfg


def _upgrade(connection: Connection) -> None:
    cfg = alembic_config()
    cfg.attributes["connection"] = connection
    command.upgrade(cfg, "heads")


async def upgrade(engine: AsyncEngine) -> None:
    """Bring the schema to the newest revision of every migration branch."""
    async with engine.begin() as conn:
        await conn.run_sync(_upgrade)
