"""Group commit: one writer per database commits the work of many commands at once.

Every command runs on the writer's one connection, inside the one transaction of the
current *batch*, one command at a time. A command's work is a :class:`Unit`: the
changes its unit of work comes to (:meth:`bot.unit_of_work.UnitOfWork.changes`),
the message id it claims and its replies. Nothing of it is written while it runs —
only the few writes that need an id at once, in a savepoint of its own — so a
command that fails leaves its batch-mates untouched and nothing to undo.

The batch is committed as soon as no command is waiting to run on the writer (or
when it holds ``cap`` commands, or ``window`` seconds after its first command): the
message ids of all its commands in one ``INSERT … ON CONFLICT DO NOTHING RETURNING``
(a command whose id was recorded before is a replay: its work is dropped and
:class:`Replayed` raised in it), then the changes, the changes of one shape as one
``executemany``, then the replies into the outbox in one statement, and the COMMIT.
:meth:`Writer.run` returns only once the commit that holds the command's work has
returned, so a reply is never released before its change is durable; then the
working set (:mod:`bot.store.working_set`) takes the committed values. Commands
queue for the writer in arrival order (an ``asyncio.Lock`` is FIFO), and the commands
that arrive while a batch commits (its fsync) form the next.

Each batch starts by checking that no other connection wrote since the last one —
SQLite's ``PRAGMA data_version`` (it changes when another connection commits),
PostgreSQL's ``store_epoch`` row, read ``FOR UPDATE`` (every writer bumps it in a
batch that changed something; the row lock also keeps two processes' batches from
interleaving) — and drops the working set if one did. On SQLite every batch opens
with ``BEGIN IMMEDIATE`` (:func:`bot.store.db.make_engine`): the write lock is taken
once per batch, and savepoints work.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, NestedTransaction, RootTransaction, insert, text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.messages import Outgoing
from bot.store import statements as sql
from bot.store.connection import Runner, frozen, runner_for
from bot.store.models import utc_now
from bot.store.outbox import new_claim, process_name
from bot.store.working_set import TABLES, WorkingSet

log = logging.getLogger(__name__)

T = TypeVar("T")
SETTLE_TURNS = 8
"""Loop turns a commit waits at most for commands still on their way to the writer."""
EPOCH_LOCK = text("SELECT n FROM store_epoch WHERE id = 1 FOR UPDATE")
EPOCH_BUMP = text("UPDATE store_epoch SET n = n + 1 WHERE id = 1 RETURNING n")


class BatchFailed(Exception):
    """The commit of a batch failed: none of its commands' work is stored."""


class Replayed(Exception):
    """The command's message id was recorded before (a platform delivered the same
    event twice): its work is dropped and nothing is answered."""


@dataclass
class Unit:
    """One command's work, committed with its batch."""

    changes: list[sql.Change] = field(default_factory=list)
    claim: tuple[str, str] | None = None
    """(platform, message id) recorded with the work; None: no id to record."""
    platform: str = ""
    replies: list[Outgoing] = field(default_factory=list)
    """Stored in the outbox by the commit, which fills in each one's outbox id."""
    settle: Callable[[], None] | None = None
    """Run once the commit returned (the working set takes the committed values)."""
    moved: bool = False
    """Sheets, documents or bindings moved between tables: the working set is dropped."""
    sync: Callable[[Connection], Any] | None = None
    """Statements of the store itself (the outbox's leases) run at the commit; its
    result is the unit's :attr:`result`."""
    result: Any = None
    wrote: bool = False
    """The command wrote at once (in its savepoint): its batch changed something even
    without :attr:`changes`."""
    account: str = ""
    """The bot account its replies are stored for (``Incoming.account``; empty: any)."""


class ConnectionLink:
    """A command's way to the writer's connection: reads at once; the writes that
    cannot wait (a new row whose id the command needs) in a savepoint of its own,
    opened on the first of them. Each is one trip to the connection
    (:mod:`bot.store.connection`); a result comes back read to its end."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner
        self.savepoint: NestedTransaction | None = None

    async def read(self, statement: Any) -> Any:
        return (await self.runner(lambda c: c.execute(statement).freeze()))()

    async def write_now(self, statement: Any, params: dict[str, Any] | None = None) -> Any:
        def write(connection: Connection) -> Any:
            if self.savepoint is None:
                self.savepoint = connection.begin_nested()
            return frozen(connection.execute(statement, params or {}))
        result = await self.runner(write)
        return result() if result is not None else None


class Writer:
    def __init__(self, engine: Engine | AsyncEngine, cap: int = 200, window: float = 0.0,
                 tables: int = TABLES, claimant: str | None = None) -> None:
        self.engine = engine
        self.runner = runner_for(engine)
        self.claimant = claimant or process_name()
        """Who the replies this writer stores are claimed by (bot/store/outbox.py)."""
        self.cache = WorkingSet(tables)
        self.dialect = engine.dialect.name
        self.cap = max(1, cap)
        self.window = window
        self._mutex = asyncio.Lock()
        self.closed = False
        self._transaction: RootTransaction | None = None
        self._epoch: Any = None
        self._last_reply: int | None = None
        """The largest outbox id, once read (SQLite; None: read it again)."""
        self._units: list[tuple[Unit, asyncio.Future[None]]] = []
        self._claimed: set[tuple[str, str]] = set()
        """Message ids claimed by the current batch (a resend within it is a replay)."""
        self._committer: asyncio.Task[None] | None = None
        self.commits = 0
        """Batches committed so far (for tests and the benchmark)."""
        self.committed = 0
        """Commands those batches held."""

    @property
    def sync_engine(self) -> Engine:
        """The engine whose events see every statement of the writer."""
        return self.runner.sync_engine

    async def run(self, work: Callable[[ConnectionLink], Awaitable[tuple[T, Unit]]]) -> T:
        """Run ``work`` on the writer's connection in the current batch; return its
        result once the batch holding its :class:`Unit` is committed. An exception of
        ``work`` undoes what it wrote (its savepoint) and is raised here at once;
        :class:`Replayed` when its message id was recorded before; a failed commit
        raises :class:`BatchFailed` in every command of the batch."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        async with self._mutex:
            await self._begin()
            link = ConnectionLink(self.runner)
            try:
                result, unit = await work(link)
                savepoint = link.savepoint
                if savepoint is not None:
                    unit.wrote = True  # a write at once: other processes must hear of it
                    if await self.runner(partial(self._close_savepoint, savepoint, unit)):
                        raise Replayed(unit.claim[1] if unit.claim else "")
                    unit.claim = None  # recorded in the savepoint
            except BaseException:
                savepoint = link.savepoint
                if savepoint is not None and savepoint.is_active:
                    await self.runner(lambda _c: savepoint.rollback())
                if self._transaction is None or not self._transaction.is_active:
                    await self._fail(BatchFailed("the batch's transaction was lost"))
                elif not self._units:
                    # nothing of the batch to keep: end it now rather than hold the
                    # write lock (the store_epoch row) until the next command comes
                    await self._end_empty_batch()
                raise
            if unit.claim is not None:
                if unit.claim in self._claimed:
                    raise Replayed(unit.claim[1])
                self._claimed.add(unit.claim)
            self._units.append((unit, done))
            if len(self._units) >= self.cap:
                await self._commit()
            elif self._committer is None or self._committer.done():
                self._committer = asyncio.create_task(self._commit_soon())
        await done
        return result

    async def _end_empty_batch(self) -> None:
        transaction, self._transaction = self._transaction, None
        self._claimed = set()
        try:
            if transaction is not None:
                await self.runner(lambda _c: transaction.rollback())
        except Exception:
            log.exception("ending an empty batch")
            await self._reset()

    def _close_savepoint(self, savepoint: NestedTransaction, unit: Unit,
                         connection: Connection) -> bool:
        """A command that wrote at once records its message id in the same savepoint:
        a replay undoes its writes with it. True: a replay."""
        if self._claim(connection, [unit]):
            savepoint.rollback()
            return True
        savepoint.commit()
        return False

    async def _begin(self) -> None:
        """The batch's transaction open; the working set dropped if another connection
        committed since this writer's last batch."""
        if self._transaction is not None:
            return
        try:
            seen = await self.runner(self._open_batch)
        except BaseException:
            await self._reset()
            raise
        if seen is None or (self._epoch is not None and seen != self._epoch):
            self.cache.clear()
            self._last_reply = None
        self._epoch = seen

    def _open_batch(self, connection: Connection) -> Any:
        self._transaction = connection.begin()  # IMMEDIATE on SQLite
        if self.dialect == "sqlite":
            return connection.exec_driver_sql("PRAGMA data_version").scalar()
        if self.dialect == "postgresql":
            return connection.execute(EPOCH_LOCK).scalar()
        return None  # no way to tell: nothing is kept from one batch to the next

    async def _commit_soon(self) -> None:
        """Commit once no command is on its way to the writer: every command that the
        event loop can run now joins this batch first (the replies of the last commit
        bring their channels' next commands a few loop turns later), one arriving after
        waits for the next. A lone command costs one loop turn."""
        await asyncio.sleep(self.window)
        for _ in range(SETTLE_TURNS):
            queued = len(self._units)
            await asyncio.sleep(0)
            if len(self._units) == queued and not self._mutex.locked():
                break
        async with self._mutex:
            await self._commit()

    async def _commit(self) -> None:
        """Commit the current batch (the writer's lock held) and release its commands."""
        units, self._units = self._units, []
        self._claimed = set()
        transaction, self._transaction = self._transaction, None
        if transaction is None:
            return
        try:
            replayed = await self.runner(partial(
                self._commit_batch, transaction, [unit for unit, _ in units]))
        except Exception as exc:
            log.exception("the commit of %d commands failed", len(units))
            await self._fail(exc, units)
            return
        self.commits += 1
        self.committed += len(units)
        live = [unit for unit, _ in units if unit.claim not in replayed]
        try:
            if any(unit.moved for unit in live):
                self.cache.clear()
            else:
                for unit in live:
                    if unit.settle is not None:
                        unit.settle()
        except Exception:
            # the batch is stored: its commands must still end; the working set may hold
            # half of it, so it is dropped and the next commands read the store
            log.exception("the working set could not take a committed batch; dropped")
            self.cache.clear()
        for unit, future in units:
            if future.done():
                continue
            if unit.claim is not None and unit.claim in replayed:
                future.set_exception(Replayed(unit.claim[1]))
            else:
                future.set_result(None)

    def _commit_batch(self, transaction: RootTransaction, units: list[Unit],
                      connection: Connection) -> set[tuple[str, str] | None]:
        """The batch's statements and its COMMIT, in one trip to the connection: the
        message ids recorded before (replays)."""
        replayed = self._claim(connection, units)
        live = [unit for unit in units if unit.claim not in replayed]
        self._apply(connection, [c for unit in live for c in unit.changes])
        for unit in live:
            if unit.sync is not None:
                unit.result = unit.sync(connection)
        self._insert_replies(connection, live)
        if self.dialect == "postgresql" and any(unit.changes or unit.wrote for unit in live):
            self._epoch = connection.execute(EPOCH_BUMP).scalar()
        transaction.commit()
        return replayed

    def _claim(self, connection: Connection, units: list[Unit],
               ) -> set[tuple[str, str] | None]:
        """Record the batch's message ids; the ones recorded before (replays)."""
        claims = [unit.claim for unit in units if unit.claim is not None]
        if not claims:
            return set()
        now = utc_now()
        rows = connection.execute(sql.claim(self.dialect), [
            {"platform": platform, "message_id": message_id, "processed_at": now}
            for platform, message_id in claims])
        inserted = {(row.platform, row.message_id) for row in rows}
        return {claim for claim in claims if claim not in inserted}

    @staticmethod
    def _apply(connection: Connection, changes: list[sql.Change]) -> None:
        """The changes in their order, each run of one statement as one executemany."""
        start = 0
        while start < len(changes):
            statement = changes[start][0]
            end = start + 1
            while end < len(changes) and changes[end][0] is statement:
                end += 1
            connection.execute(statement, [params for _, params in changes[start:end]])
            start = end

    def _insert_replies(self, connection: Connection, units: list[Unit]) -> None:
        """Every reply of the batch into the outbox in one statement; each unit's list
        gets its replies back with their outbox ids."""
        now, claim = utc_now(), new_claim(self.claimant)
        rows = [{"platform": unit.platform, "account": unit.account or None,
                 "message": out.to_record(), "created_at": now, **claim}
                for unit in units for out in unit.replies]
        if not rows:
            return
        if self.dialect == "sqlite":
            # SQLite cannot return the new ids in the order of the rows of one INSERT
            # (SQLAlchemy would send one INSERT per row): the batch holds the write lock,
            # so the ids after the largest are this batch's to give (the largest read
            # again whenever another connection may have written)
            if self._last_reply is None:
                self._last_reply = connection.execute(sql.last_reply_id()).scalar()
            first = self._last_reply or 0
            for n, row in enumerate(rows, start=first + 1):
                row["id"] = n
            connection.execute(insert(sql.OUTBOX), rows)
            self._last_reply = first + len(rows)
            ids = iter([row["id"] for row in rows])
        else:
            ids = iter(connection.execute(sql.insert_replies(), rows).scalars().all())
        for unit in units:
            unit.replies[:] = [out.stored_as(next(ids)) for out in unit.replies]

    async def _reset(self) -> None:
        """After a failure: the transaction rolled back, the connection closed, the
        working set dropped."""
        self._transaction = None
        self._epoch = None
        self._last_reply = None
        self._units = []
        self._claimed = set()
        try:
            await self.runner.close_connection(invalidate=True)
        except Exception:
            log.exception("closing the writer's failed connection")
        self.cache.clear()

    async def _fail(self, exc: BaseException,
                    units: list[tuple[Unit, asyncio.Future[None]]] | None = None) -> None:
        """Fail ``units`` (default: the current batch's) with :class:`BatchFailed`, once
        the working set is dropped (a released command may read it at once)."""
        units = self._units if units is None else units
        await self._reset()
        for _, future in units:
            if not future.done():
                future.set_exception(BatchFailed(str(exc)))

    async def flush(self) -> None:
        """Commit whatever is pending now (at close)."""
        async with self._mutex:
            await self._commit()

    async def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        await self.flush()
        if self._committer is not None and not self._committer.done():
            await self._committer
        self.cache.clear()
        await self.runner.dispose()
