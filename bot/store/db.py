"""Engine creation and schema upgrades.

SQLite is the embedded default: WAL so readers never block the writer, and
`synchronous=FULL` so a commit that a reply announces is on disk before the
reply leaves. Any other SQLAlchemy async URL (PostgreSQL via asyncpg) works
unchanged. The schema is always brought to the newest alembic revision on
start, so an operator never runs a migration by hand unless they want to
(`trpgbot db upgrade`).

No log level may show what the database holds (hidden check results, kept
private texts, GM secrets): the engine is created with `hide_parameters=True`,
so SQLAlchemy's SQL log and its error messages never carry bound values, and
`quiet_sql_loggers` holds the loggers that print values or rows (the drivers'
at WARNING, SQLAlchemy's engine at INFO at most verbose) whatever the root
level — `TRPGBOT_LOG_LEVEL=DEBUG` included.
"""

from __future__ import annotations

import logging
import re
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, create_engine, event, inspect, make_url, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.store.models import metadata

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS_DIR = Path(str(files("migrations")))
"""The alembic scripts, found as package data: ``bot`` imports no migration module,
and the migrations import nothing of ``bot`` (their environment is handed the
schema, :func:`alembic_config`) — no import circle between the two."""

DRIVER_LOGGERS = ("aiosqlite", "asyncpg")
"""The SQL drivers' loggers: aiosqlite logs every statement with its parameters at
DEBUG. Held at WARNING."""

SQLALCHEMY_ENGINE_LOGGERS = ("sqlalchemy", "sqlalchemy.engine", "sqlalchemy.engine.Engine")
"""SQLAlchemy's statement log: at INFO the SQL (parameters hidden by
``hide_parameters``), at DEBUG every result row too (hidden checks, kept private
texts). Never more verbose than INFO."""


def quiet_sql_loggers() -> None:
    """Hold the loggers that would print stored values, whatever the root level is
    or later becomes (idempotent; never lowers a level, never turns SQL logging on)."""
    for name in DRIVER_LOGGERS:
        logger = logging.getLogger(name)
        if logger.level < logging.WARNING:  # NOTSET (0) included
            logger.setLevel(logging.WARNING)
    for name in SQLALCHEMY_ENGINE_LOGGERS:
        logger = logging.getLogger(name)
        if name == "sqlalchemy" and logger.level == logging.NOTSET:
            logger.setLevel(logging.WARNING)  # SQLAlchemy's own default
        elif logging.NOTSET < logger.level < logging.INFO:
            logger.setLevel(logging.INFO)


PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", "PRAGMA foreign_keys=ON")
"""Run on every SQLite connection as it opens."""


def make_engine(url: str) -> AsyncEngine:
    """The pooled engine of ``url``: reads outside the writer, the schema upgrade, the
    command line and tests."""
    quiet_sql_loggers()
    if url.startswith("sqlite"):
        _sqlite_path(url)  # its folder made
        engine = create_async_engine(url, connect_args={"timeout": 30},
                                     hide_parameters=True)
        _sqlite_events(engine.sync_engine, writer=False)
        return engine
    return create_async_engine(url, pool_pre_ping=True, hide_parameters=True)


def make_writer_engine(url: str) -> Engine | AsyncEngine:
    """The writer's own engine (:mod:`bot.store.writer`), one connection. On SQLite a
    synchronous engine (the stdlib driver), which the writer uses from one thread of its
    own (:mod:`bot.store.connection`), every transaction opened with ``BEGIN
    IMMEDIATE`` by SQLAlchemy instead of the driver's implicit BEGIN before the first
    write (which breaks SAVEPOINTs and would let a batch that read first fail to take
    the write lock later) — the recipe SQLAlchemy documents for the sqlite3 driver."""
    quiet_sql_loggers()
    if url.startswith("sqlite"):
        sync_url = make_url(url).set(drivername="sqlite+pysqlite")
        memory = _sqlite_path(url) is None
        engine = create_engine(sync_url, connect_args={"timeout": 30},
                               hide_parameters=True,
                               **({} if memory else {"pool_size": 1, "max_overflow": 0}))
        _sqlite_events(engine, writer=True)
        return engine
    return create_async_engine(url, pool_pre_ping=True, hide_parameters=True,
                               pool_size=1, max_overflow=0)


def _sqlite_path(url: str) -> Path | None:
    """The database file of a SQLite URL (its folder made), None in memory (``sqlite://``
    or ``:memory:``)."""
    path = make_url(url).database
    if not path or path == ":memory:":
        return None
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    return Path(path)


def _sqlite_events(engine: Engine, writer: bool) -> None:
    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn: Any, _record: object) -> None:
        cursor = dbapi_conn.cursor()
        for pragma in PRAGMAS:
            cursor.execute(pragma)
        cursor.close()
        if writer:
            dbapi_conn.isolation_level = None  # no implicit BEGIN: ours below

    if writer:
        @event.listens_for(engine, "begin")
        def _begin(conn: Connection) -> None:
            conn.exec_driver_sql("BEGIN IMMEDIATE")


def alembic_config() -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.attributes["target_metadata"] = metadata
    return cfg


_REVISION = re.compile(r'^(down_revision|revision)\s*=\s*["\']?([\w]+)?["\']?', re.MULTILINE)


@cache
def head_revisions() -> frozenset[str]:
    """The newest revision of every migration branch, read from the migration files
    (alembic itself costs ~10 MB and a third of a second to import: it is loaded only
    when the stored schema is behind)."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (MIGRATIONS_DIR / "versions").glob("*.py"):
        for name, value in _REVISION.findall(path.read_text("utf-8")):
            if value and value != "None":
                (revisions if name == "revision" else parents).add(value)
    return frozenset(revisions - parents)


def _stored_revisions(connection: Connection) -> frozenset[str]:
    if not inspect(connection).has_table("alembic_version"):
        return frozenset()
    return frozenset(connection.execute(text("SELECT version_num FROM alembic_version"))
                     .scalars())


UPGRADE_LOCK = 7_362_025
"""PostgreSQL advisory lock held by a schema upgrade until its transaction ends."""


def _upgrade(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        # several bot processes may start at once on one PostgreSQL (docs/scaling.md):
        # one upgrades while the others wait, then find the schema at its newest
        # (SQLite needs none: one process per file, and its writes are serialised)
        connection.execute(text(f"SELECT pg_advisory_xact_lock({UPGRADE_LOCK})"))
    if _stored_revisions(connection) == head_revisions():
        return
    from alembic import command

    cfg = alembic_config()
    cfg.attributes["connection"] = connection
    command.upgrade(cfg, "heads")


async def upgrade(engine: AsyncEngine) -> None:
    """Bring the schema to the newest revision of every migration branch."""
    async with engine.begin() as conn:
        await conn.run_sync(_upgrade)
