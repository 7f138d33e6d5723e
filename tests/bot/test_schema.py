"""The store's schema (bot/store/db.py): the migrations build exactly the tables the
models declare, on either database — alembic's autogenerate finds nothing to add."""

from __future__ import annotations

import io

from alembic import command
from sqlalchemy import Connection

from adapters.config import Settings
from bot.store import db


async def test_the_migrations_build_the_schema_the_models_declare(
        any_settings: Settings) -> None:
    engine = db.make_engine(any_settings.resolved_database_url())
    try:
        await db.upgrade(engine)

        def check(connection: Connection) -> None:
            cfg = db.alembic_config()
            cfg.attributes["connection"] = connection
            cfg.stdout = io.StringIO()  # not sys.stdout: a runner may have closed it
            command.check(cfg)  # raises when the models and the migrations differ
            assert cfg.stdout.getvalue() == "No new upgrade operations detected.\n"
        async with engine.connect() as connection:
            await connection.run_sync(check)
    finally:
        await engine.dispose()
