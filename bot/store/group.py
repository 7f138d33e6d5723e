"""Group commit: one writer per database commits the changes of many commands at once.

Every state-changing command runs on the writer's one session, inside the one
transaction of the current *batch*, in a SAVEPOINT of its own: a command that fails
rolls back to its savepoint and leaves its batch-mates' changes in place. The batch
is committed as soon as no command is waiting to run on the writer (or when it
holds ``cap`` commands, or ``window`` seconds after its first command when a window
is set); :meth:`GroupWriter.run` returns only once the commit that holds the
command's change has returned, so a reply is never released before its change is
durable. Commands queue for the writer in arrival order (an ``asyncio.Lock`` is
FIFO), and the commands that arrive while a batch commits (its fsync) form the next.

On SQLite the writer's connection opens every batch with ``BEGIN IMMEDIATE``: it
takes the database's write lock once per batch instead of every command's
connection racing for it, and savepoints work (the driver's own implicit BEGIN is
turned off, see :func:`bot.store.db.make_writer_engine`). On PostgreSQL it is one
connection of its own; savepoints are native.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

log = logging.getLogger(__name__)

T = TypeVar("T")


class BatchFailed(Exception):
    """The commit of a batch failed: none of its commands' changes is stored."""


class GroupWriter:
    def __init__(self, engine: AsyncEngine, cap: int = 200, window: float = 0.0) -> None:
        self.engine = engine
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        self.cap = cap
        self.window = window
        self._mutex = asyncio.Lock()
        self._session: AsyncSession | None = None
        self._waiting: list[asyncio.Future[None]] = []
        self._committer: asyncio.Task[None] | None = None
        self.commits = 0
        """Batches committed so far (for tests and the benchmark)."""
        self.committed = 0
        """Commands those batches held."""

    async def run(self, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
        """Run ``work(session)`` in a savepoint of the current batch and return its result
        once the batch is committed. An exception from ``work`` rolls back its savepoint
        only and is raised here at once (the command is not part of the batch); a failed
        commit raises :class:`BatchFailed` in every command of the batch."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        async with self._mutex:
            session = self._session
            if session is None:
                session = self._session = self.sessions()
            try:
                async with session.begin_nested():
                    result = await work(session)
            except BaseException:
                if not self._usable(session):  # the connection or the batch is gone
                    await self._fail(BatchFailed("the batch's transaction was lost"))
                raise
            finally:
                # the next command reads what this one wrote from the transaction, not
                # from objects a later savepoint rollback could leave half-expired
                session.expunge_all()
            self._waiting.append(done)
            if len(self._waiting) >= self.cap:
                await self._commit()
            elif self._committer is None or self._committer.done():
                self._committer = asyncio.create_task(self._commit_soon())
        await done
        return result

    @staticmethod
    def _usable(session: AsyncSession) -> bool:
        transaction = session.get_transaction()
        return transaction is None or transaction.is_active

    async def _commit_soon(self) -> None:
        # let every command that is ready to run queue for the writer first: it joins
        # this batch (the lock is FIFO), a command arriving after waits for the next one
        await asyncio.sleep(self.window)
        async with self._mutex:
            await self._commit()

    async def _commit(self) -> None:
        """Commit the current batch (the writer's lock held) and release its commands."""
        session, waiting = self._session, self._waiting
        self._session, self._waiting = None, []
        if session is None:
            return
        try:
            if waiting:
                await session.commit()
        except Exception as exc:
            log.exception("the commit of %d commands failed", len(waiting))
            for future in waiting:
                if not future.done():
                    future.set_exception(BatchFailed(str(exc)))
        else:
            self.commits += 1
            self.committed += len(waiting)
            for future in waiting:
                if not future.done():
                    future.set_result(None)
        finally:
            await session.close()

    async def _fail(self, exc: BaseException) -> None:
        session, waiting = self._session, self._waiting
        self._session, self._waiting = None, []
        for future in waiting:
            if not future.done():
                future.set_exception(BatchFailed(str(exc)))
        if session is not None:
            try:
                await session.close()
            except Exception:
                log.exception("closing a failed batch")

    async def flush(self) -> None:
        """Commit whatever is pending now (at close)."""
        async with self._mutex:
            await self._commit()

    async def close(self) -> None:
        await self.flush()
        if self._committer is not None and not self._committer.done():
            await self._committer
        await self.engine.dispose()
