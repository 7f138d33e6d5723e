"""Group commit: one writer per database commits the changes of many commands at once.

Every state-changing command runs on the writer's one session, inside the one
transaction of the current *batch*: on the fast path (:meth:`GroupWriter.fast`) its
changes stay in memory until the batch's one flush, just before the COMMIT, and a
failure is undone in memory; a command that needs SQL of its own earlier runs in a
SAVEPOINT (:meth:`GroupWriter.savepoint`). Either way a command that fails leaves its
batch-mates' changes in place. The batch's replies go into the outbox in one
statement (:meth:`GroupWriter.store_replies`). The batch is committed as soon as no
command is waiting to run on the writer (or when it holds ``cap`` commands, or
``window`` seconds after its first command when a window is set);
:meth:`GroupWriter.run` returns only once the commit that holds the command's change
has returned, so a reply is never released before its change is durable. Commands
queue for the writer in arrival order (an ``asyncio.Lock`` is FIFO), and the
commands that arrive while a batch commits (its fsync) form the next.

The session lives as long as the writer and keeps what it loaded
(``expire_on_commit=False``): with :class:`bot.store.cache.WorkingSet` it is the
process's working set. Each batch starts by checking that no other connection wrote
since the last one — SQLite's ``PRAGMA data_version`` (it changes when another
connection commits), PostgreSQL's ``store_epoch`` row, read ``FOR UPDATE`` (every
writer bumps it in the transaction that changes a cached table; the row lock also
keeps two processes' batches from interleaving, so a batch's reads stay current
until it commits) — and drops the working set if one did.

On SQLite the writer's connection opens every batch with ``BEGIN IMMEDIATE``: it
takes the database's write lock once per batch instead of every command's
connection racing for it, and savepoints work (the driver's own implicit BEGIN is
turned off, see :func:`bot.store.db.make_engine`); its statements run in the event
loop's thread (:mod:`bot.store.inline`). On PostgreSQL it is one connection of its
own; savepoints are native.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any, TypeVar

from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.orm import Session

from bot.messages import Outgoing
from bot.store.cache import TABLES, WorkingSet
from bot.store.inline import InlineConnection
from bot.store.ops import claim_row, claim_sql, outbox_ids, outbox_sql
from bot.store.outbox import new_claim, process_name

log = logging.getLogger(__name__)

T = TypeVar("T")

EPOCH_LOCK = text("SELECT n FROM store_epoch WHERE id = 1 FOR UPDATE")
EPOCH_BUMP = text("UPDATE store_epoch SET n = n + 1 WHERE id = 1 RETURNING n")


class BatchFailed(Exception):
    """The commit of a batch failed: none of its commands' changes is stored."""


class GroupWriter:
    def __init__(self, engine: AsyncEngine, cap: int = 200, window: float = 0.0,
                 tables: int = TABLES, claimant: str | None = None) -> None:
        self.engine = engine
        self.claimant = claimant or process_name()
        """Who the replies this writer stores are claimed by (bot/store/outbox.py)."""
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        self.session: AsyncSession = self.sessions()
        self.cache = WorkingSet(self.session.sync_session, tables)
        event.listen(engine.sync_engine, "before_cursor_execute", self._statement)
        self.dialect = engine.dialect.name
        self.cap = cap
        self.window = window
        self._mutex = asyncio.Lock()
        self.closed = False
        self._batch = False
        self._epoch: Any = None
        self.inline: InlineConnection | None = None
        """The writer's SQLite connection when statements run inline (a file database)."""
        self._waiting: list[asyncio.Future[None]] = []
        self._replies: list[tuple[str, list[Outgoing]]] = []
        """The batch's replies, stored by its commit (:meth:`store_replies`)."""
        self._committer: asyncio.Task[None] | None = None
        self.commits = 0
        """Batches committed so far (for tests and the benchmark)."""
        self.committed = 0
        """Commands those batches held."""

    def _statement(self, _conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        self.cache.statement(statement)

    async def run(self, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
        """Run ``work(session)`` in the current batch and return its result once the batch
        is committed. ``work`` opens a savepoint of its own (:meth:`savepoint`): an
        exception from it rolls back that savepoint only and is raised here at once (the
        command is not part of the batch); a failed commit raises :class:`BatchFailed`
        in every command of the batch."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        async with self._mutex:
            session = self.session
            if not self._batch:
                await self._begin()
            self.cache.begin_command()
            replies = len(self._replies)
            try:
                result = await work(session)
            except BaseException:
                del self._replies[replies:]  # a failed command's replies are not kept
                if not self._usable(session):  # the connection or the batch is gone
                    await self._fail(BatchFailed("the batch's transaction was lost"))
                raise
            finally:
                self.cache.end_command()
            self._waiting.append(done)
            if len(self._waiting) >= self.cap:
                await self._commit()
            elif self._committer is None or self._committer.done():
                self._committer = asyncio.create_task(self._commit_soon())
        await done
        return result

    @asynccontextmanager
    async def fast(self) -> AsyncIterator[None]:
        """One command on the fast path: no SAVEPOINT and no flush of its own — its
        changes stay in the session and are written by the batch's one flush just before
        the COMMIT. Safe because nothing of it reaches the database before the batch
        flush (any SQL that would write earlier raises
        :class:`bot.store.cache.NeedsSavepoint` first; the caller runs the command
        again in :meth:`savepoint`), so a failure is undone in memory
        (:meth:`WorkingSet.undo`), and because its batch-mates' pending rows are other
        tables' (a table's next command waits for this one's commit)."""
        cache = self.cache
        cache.fast = True
        try:
            yield
        except BaseException:
            cache.fast = False
            cache.undo()
            raise
        cache.fast = False

    @asynccontextmanager
    async def savepoint(self, session: AsyncSession) -> AsyncIterator[None]:
        """One command's savepoint: released (its changes flushed) when the block ends;
        on an exception rolled back, and every table whose rows the command touched
        dropped from the working set (they are expired or gone)."""
        nested = await session.begin_nested()
        try:
            yield
            await nested.commit()
        except BaseException:
            rows = self.cache.pending_rows()
            if nested.is_active:
                await nested.rollback()
            self.cache.forget_touched(rows)
            raise

    def claim(self, session: Session, platform: str, message_id: str) -> bool:
        """Record a processed message id in the batch (``INSERT … ON CONFLICT DO
        NOTHING``); False when it was recorded before. On the inline SQLite connection
        the statement SQLAlchemy compiled goes to the driver directly: it is the one
        statement every command sends, and SQLAlchemy's execution around it costs ten
        times the statement (see docs/architecture.md, "Storage performance")."""
        if self.inline is not None:
            sql, params = claim_sql(self.engine.dialect, platform, message_id)
            return self.inline.run(sql, params) == 1
        return claim_row(session, platform, message_id)

    def store_replies(self, platform: str, outs: list[Outgoing]) -> list[Outgoing]:
        """Store ``outs`` in the outbox with the batch: one ``INSERT … RETURNING`` for
        every reply of the batch, run just before its COMMIT, instead of one per command.
        The list returned is the caller's to return: the commit fills in each reply's
        outbox id (it is complete when :meth:`run` returns)."""
        held = list(outs)
        if held:
            self._replies.append((platform, held))
        return held

    def _insert_replies(self, session: Session,
                        replies: list[tuple[str, list[Outgoing]]]) -> None:
        """The batch's replies into the outbox; each list gets its replies back with
        their outbox ids. On the inline SQLite connection each row is one statement
        SQLAlchemy compiled, sent to the driver (a few µs each); elsewhere all rows are
        one ``INSERT … RETURNING`` through SQLAlchemy (insertmanyvalues)."""
        inline = self.inline
        claim = new_claim(self.claimant)
        if inline is not None:
            dialect = self.engine.dialect
            ids = iter([inline.one(*outbox_sql(dialect, platform, out.to_record(), claim))
                        for platform, outs in replies for out in outs])
        else:
            ids = iter(outbox_ids(session, [
                {"platform": platform, "message": out.to_record(), **claim}
                for platform, outs in replies for out in outs]))
        for _platform, outs in replies:
            outs[:] = [replace(out, outbox_id=next(ids)) for out in outs]

    async def unguarded(self, work: Awaitable[T],
                        harmless: tuple[type[BaseException], ...] = ()) -> T:
        """Await ``work``: statements of a command outside any savepoint (one that
        changed nothing stores its message id and replies this way). An exception in
        ``harmless`` left nothing written; any other cannot be undone alone, so it
        fails the whole batch (:class:`BatchFailed`, nothing of it is stored)."""
        try:
            return await work
        except harmless:
            raise
        except Exception as exc:
            log.exception("a statement outside a savepoint failed: the batch is dropped")
            await self._fail(exc)
            raise BatchFailed(str(exc)) from exc

    async def _begin(self) -> None:
        """Open the batch's transaction and drop the working set if another connection
        committed since this writer's last batch."""
        try:
            conn = await self.session.connection()  # BEGIN (IMMEDIATE on SQLite)
            driver = (await conn.get_raw_connection()).driver_connection
            self.inline = driver if isinstance(driver, InlineConnection) else None
            if self.dialect == "sqlite":
                seen = (await conn.exec_driver_sql("PRAGMA data_version")).scalar()
            elif self.dialect == "postgresql":
                seen = (await conn.execute(EPOCH_LOCK)).scalar()
            else:
                seen = None  # no way to tell: nothing is kept from one batch to the next
        except BaseException:
            await self._reset()
            raise
        if seen is None or (self._epoch is not None and seen != self._epoch):
            self.cache.clear()
        self._epoch = seen
        self._batch = True
        self.cache.changed = False

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
        waiting, self._waiting = self._waiting, []
        if not self._batch:
            return
        self._batch = False
        session = self.session
        replies, self._replies = self._replies, []
        try:
            await session.flush()  # the fast-path commands' changes
            if replies:
                await session.run_sync(self._insert_replies, replies)
            if self.dialect == "postgresql" and self.cache.changed:
                self._epoch = (await session.execute(EPOCH_BUMP)).scalar()
            await session.commit()
        except Exception as exc:
            log.exception("the commit of %d commands failed", len(waiting))
            await self._reset()
            for future in waiting:
                if not future.done():
                    future.set_exception(BatchFailed(str(exc)))
        else:
            self.commits += 1
            self.committed += len(waiting)
            for future in waiting:
                if not future.done():
                    future.set_result(None)

    async def _reset(self) -> None:
        """After a failure: the transaction rolled back, the working set dropped."""
        self._batch = False
        self._epoch = None
        self._replies = []
        try:
            await self.session.rollback()
        except Exception:
            log.exception("rolling back a failed batch")
            try:
                await self.session.close()
            except Exception:
                log.exception("closing a failed batch's session")
        self.cache.clear()

    async def _fail(self, exc: BaseException) -> None:
        waiting, self._waiting = self._waiting, []
        for future in waiting:
            if not future.done():
                future.set_exception(BatchFailed(str(exc)))
        await self._reset()

    async def flush(self) -> None:
        """Commit whatever is pending now (at close)."""
        async with self._mutex:
            await self._commit()

    async def close(self) -> None:
        self.closed = True
        await self.flush()
        if self._committer is not None and not self._committer.done():
            await self._committer
        self.cache.clear()
        await self.session.close()
        await self.engine.dispose()
