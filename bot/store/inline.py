"""The group-commit writer's SQLite connection, without a thread hop per statement.

SQLAlchemy's ``sqlite+aiosqlite`` dialect talks to an ``aiosqlite.Connection``,
which runs every call (cursor, execute, fetch, close: three to four per statement)
in a thread of its own and hands the result back through the event loop — ~30
hops per command, each costing more than the statement itself. The writer's one
connection is used by one batch at a time (:mod:`bot.store.group` holds a lock),
and a SQLite statement inside a write transaction never waits for another
connection (WAL: readers do not block the writer, and ``BEGIN IMMEDIATE`` already
holds the write lock), so :class:`InlineConnection` runs statements at once in the
event loop's thread. What may wait runs in a worker thread, the loop staying free:
``BEGIN`` (another process may hold the write lock: SQLite's busy timeout sleeps),
``COMMIT`` (the fsync, and the WAL checkpoint it may run), opening and closing.

It quacks like ``aiosqlite.Connection`` as far as SQLAlchemy's adapter uses it, and
is handed to :func:`sqlalchemy.ext.asyncio.create_async_engine` as
``async_creator`` (:func:`bot.store.db.make_engine` with ``writer=True``).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")
Params = Sequence[Any] | Mapping[str, Any]
"""A statement's parameters as sqlite3 takes them: positional or named."""

_SLOW = ("COMMIT", "END", "VACUUM", "PRAGMA WAL_CHECKPOINT")
"""Statements that may wait for the disk (or for another connection's lock)."""
BUSY_TIMEOUT_MS = 30_000
"""How long a BEGIN waits for another process's write lock (in the worker thread)."""


class InlineCursor:
    __slots__ = ("_cursor", "_owner", "arraysize")

    def __init__(self, owner: InlineConnection, cursor: sqlite3.Cursor) -> None:
        self._owner = owner
        self._cursor = cursor
        self.arraysize = cursor.arraysize

    async def __aenter__(self) -> InlineCursor:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._cursor.close()

    async def execute(self, sql: str, parameters: Params | None = None,
                      ) -> InlineCursor:
        params = () if parameters is None else parameters
        owner = self._owner
        owner.statements += 1
        head = sql.lstrip()[:22].upper()
        if head.startswith("BEGIN"):
            await owner.begin(self._cursor, sql)
        elif head.startswith(_SLOW):
            await owner.offload(self._cursor.execute, sql, params)
        else:
            self._cursor.execute(sql, params)
        return self

    async def executemany(self, sql: str, parameters: Iterable[Params],
                          ) -> InlineCursor:
        self._owner.statements += 1
        self._cursor.executemany(sql, parameters)
        return self

    async def fetchone(self) -> Any:
        return self._cursor.fetchone()

    async def fetchmany(self, size: int | None = None) -> list[Any]:
        return self._cursor.fetchmany(self.arraysize if size is None else size)

    async def fetchall(self) -> list[Any]:
        return self._cursor.fetchall()

    async def close(self) -> None:
        self._cursor.close()

    async def nextset(self) -> None:
        return None

    async def setinputsizes(self, *sizes: Any) -> None:
        return None

    @property
    def description(self) -> Any:
        return self._cursor.description

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    @property
    def lastrowid(self) -> int | None:
        return self._cursor.lastrowid


class InlineConnection:
    """An ``aiosqlite.Connection`` look-alike over one ``sqlite3`` connection."""

    def __init__(self, conn: sqlite3.Connection, pool: ThreadPoolExecutor) -> None:
        self._conn = conn
        self._connection: sqlite3.Connection | None = conn  # aiosqlite's name
        self._pool = pool
        self.statements = 0
        """Statements run so far, SAVEPOINTs and COMMITs included (tests, benchmark)."""
        self.observers: list[Callable[[str], None]] = []
        """Called with each statement :meth:`run` sends — they bypass SQLAlchemy's
        cursor events (tests and the benchmark count statements)."""

    @classmethod
    async def connect(cls, path: str, pragmas: Iterable[str], **kwargs: Any,
                      ) -> InlineConnection:
        """Open ``path`` in the worker thread, run ``pragmas`` there, and leave the
        connection in autocommit mode (every transaction is begun explicitly)."""
        pool = ThreadPoolExecutor(1, thread_name_prefix="sqlite-writer")

        def opened() -> sqlite3.Connection:
            conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None,
                                   **kwargs)
            for pragma in pragmas:
                conn.execute(pragma).close()
            return conn

        try:
            conn = await asyncio.get_running_loop().run_in_executor(pool, opened)
        except BaseException:
            pool.shutdown(wait=False)
            raise
        return cls(conn, pool)

    async def begin(self, cursor: sqlite3.Cursor, sql: str) -> None:
        """``BEGIN IMMEDIATE``: at once when no other connection holds the write lock
        (the usual case), else waiting for it in the worker thread."""
        conn = self._conn
        conn.execute("PRAGMA busy_timeout = 0").close()
        try:
            cursor.execute(sql)
        except sqlite3.OperationalError as exc:
            if conn.in_transaction or ("locked" not in str(exc) and "busy" not in str(exc)):
                raise
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}").close()
            await self.offload(cursor.execute, sql)
        finally:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}").close()

    def run(self, sql: str, parameters: tuple[Any, ...] = ()) -> int:
        """A statement without rows (a SAVEPOINT, an INSERT), at once; its row count."""
        cursor = self._direct(sql, parameters)
        try:
            return cursor.rowcount
        finally:
            cursor.close()

    def one(self, sql: str, parameters: tuple[Any, ...] = ()) -> Any:
        """A statement that returns one value (``INSERT … RETURNING id``), at once."""
        cursor = self._direct(sql, parameters)
        try:
            return cursor.fetchone()[0]
        finally:
            cursor.close()

    def _direct(self, sql: str, parameters: tuple[Any, ...]) -> sqlite3.Cursor:
        self.statements += 1
        for observer in self.observers:
            observer(sql)
        return self._conn.execute(sql, parameters)

    async def offload(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the worker thread (the connection is not used meanwhile:
        the caller awaits it)."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    def cursor(self) -> InlineCursor:
        return InlineCursor(self, self._conn.cursor())

    async def execute(self, sql: str, parameters: Params | None = None,
                      ) -> InlineCursor:
        return await self.cursor().execute(sql, parameters)

    async def commit(self) -> None:
        await self.offload(self._conn.commit)

    async def rollback(self) -> None:
        self._conn.rollback()

    async def close(self) -> None:
        if self._connection is None:
            return
        self._connection = None
        try:
            await self.offload(self._conn.close)
        finally:
            self._pool.shutdown(wait=False)

    def stop(self) -> None:
        """Close at once (SQLAlchemy's terminate, e.g. when the loop is gone)."""
        if self._connection is not None:
            self._connection = None
            self._conn.close()
            self._pool.shutdown(wait=False)

    async def create_function(self, *args: Any, **kwargs: Any) -> None:
        self._conn.create_function(*args, **kwargs)

    @property
    def isolation_level(self) -> str | None:
        return self._conn.isolation_level

    @isolation_level.setter
    def isolation_level(self, value: str | None) -> None:
        # typeshed leaves out "", which sqlite3 accepts and SQLAlchemy's pysqlite sets.
        self._conn.isolation_level = value  # type: ignore[assignment]

    @property
    def in_transaction(self) -> bool:
        return self._conn.in_transaction

    @property
    def total_changes(self) -> int:
        return self._conn.total_changes
