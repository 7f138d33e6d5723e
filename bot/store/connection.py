"""The writer's one connection, and how its work reaches it in as few hops as possible.

The writer's work is written as plain synchronous SQLAlchemy (a function of a
``Connection``), and a *runner* carries a whole function to the connection at once:

- **SQLite**: a synchronous engine (``sqlite://``, the stdlib driver) used by one
  worker thread of its own. A batch's commit — its claims, changes, replies and the
  COMMIT — is one trip to that thread, not one per statement (through aiosqlite, every
  statement is several trips between the event loop and the driver's thread, which cost
  more than the statement itself).
- **Any other database** (PostgreSQL through asyncpg): an ``AsyncConnection`` and its
  ``run_sync`` — the same function, each statement awaited on the driver, which needs
  no thread.

Both are public APIs of SQLAlchemy; the engine's events (pragmas, ``BEGIN
IMMEDIATE``) are :func:`bot.store.db.make_engine`'s.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

T = TypeVar("T")


class Runner:
    """Runs functions of the writer's connection, opening it on first use."""

    sync_engine: Engine
    """The engine whose events see every statement of the writer (tests count them)."""

    async def __call__(self, work: Callable[[Connection], T]) -> T:
        raise NotImplementedError

    async def close_connection(self, invalidate: bool = False) -> None:
        """Close the connection; ``invalidate`` (after a failure): its driver connection
        is closed too, never handed out again in whatever state the failure left it."""
        raise NotImplementedError

    async def dispose(self) -> None:
        raise NotImplementedError


class ThreadRunner(Runner):
    """A synchronous engine's connection, used by one worker thread only."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sync_engine = engine
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="trpgbot-writer")
        self._connection: Connection | None = None

    def _run(self, work: Callable[[Connection], T]) -> T:
        if self._connection is None:
            self._connection = self.engine.connect()
        return work(self._connection)

    async def __call__(self, work: Callable[[Connection], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._thread, self._run, work)

    def _close(self, invalidate: bool) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            if invalidate:
                connection.invalidate()
            connection.close()  # rolls back what is open

    async def close_connection(self, invalidate: bool = False) -> None:
        await asyncio.get_running_loop().run_in_executor(self._thread, self._close,
                                                         invalidate)

    async def dispose(self) -> None:
        await self.close_connection()
        await asyncio.get_running_loop().run_in_executor(self._thread, self.engine.dispose)
        self._thread.shutdown(wait=True)


class AsyncRunner(Runner):
    """An ``AsyncConnection``: each function through ``run_sync``."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.sync_engine = engine.sync_engine
        self._connection: AsyncConnection | None = None

    async def __call__(self, work: Callable[[Connection], T]) -> T:
        if self._connection is None:
            self._connection = await self.engine.connect()
        return await self._connection.run_sync(work)

    async def close_connection(self, invalidate: bool = False) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            if invalidate:
                await connection.invalidate()
            await connection.close()

    async def dispose(self) -> None:
        await self.close_connection()
        await self.engine.dispose()


def runner_for(engine: Engine | AsyncEngine) -> Runner:
    return ThreadRunner(engine) if isinstance(engine, Engine) else AsyncRunner(engine)


def frozen(result: Any) -> Any:
    """A result read to its end inside the connection's function, to be used outside
    it (``Result.freeze``; calling the frozen result gives a new ``Result``)."""
    return result.freeze() if result.returns_rows else None
