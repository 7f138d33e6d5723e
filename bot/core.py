"""The core: what an adapter talks to.

It opens the store (the schema upgraded to the newest revision), the writer that
commits every command's work (:mod:`bot.store.writer`) and the dispatcher that runs
the commands (:mod:`bot.dispatcher`: normalise → dedupe → route → run in a unit of
work); and it offers the adapters their services: the outbox (what was committed
but not yet accepted by a platform, and its acknowledgements), a private message a
platform refused, the platforms' id rules, and the reads autocomplete needs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, TypeVar

from sqlalchemy import Connection, delete
from sqlalchemy.ext.asyncio import AsyncEngine

from bot import decks, systems
from bot.config import Settings
from bot.context import Services
from bot.dispatcher import Dispatcher, Handled
from bot.gamelog.book import LogBook
from bot.messages import Incoming, Outgoing
from bot.rate_limit import RateLimiter
from bot.records import Gm
from bot.routes import router as routes
from bot.store import db
from bot.store import statements as sql
from bot.store.models import utc_now
from bot.store.outbox import Claims, process_name
from bot.store.working_set import TableState
from bot.store.writer import ConnectionLink, Replayed, Unit, Writer
from bot.unit_of_work import UnitOfWork
from rules.dice.source import DiceSource, SystemSource
from rules.kits.game_system import GameSystem

log = logging.getLogger(__name__)

ACK_DELAY = 0.2
"""Seconds a delivered reply may stay in the outbox, so that deletions share a commit."""

T = TypeVar("T")


class ReadLink:
    """A unit of work's way to the database outside any command (a read)."""

    def __init__(self, connection: Any) -> None:
        self.connection = connection

    async def read(self, statement: Any) -> Any:
        return await self.connection.execute(statement)

    async def write_now(self, statement: Any, params: dict[str, Any] | None = None) -> Any:
        raise RuntimeError("a read outside any command writes nothing")


class Core:
    def __init__(
        self, settings: Settings, engine: AsyncEngine, dice: DiceSource | None = None,
        group_commit: bool | None = None,
    ) -> None:
        self.settings = settings
        self.engine = engine
        """The pooled engine of reads outside the writer (and of tests)."""
        if group_commit is None:
            group_commit = settings.group_commit
        claimant = process_name()
        self.writer = Writer(db.make_writer_engine(
            engine.url.render_as_string(hide_password=False)),
            cap=200 if group_commit else 1, claimant=claimant)
        self.claims = Claims(claimant, self.store_sync)
        """Who sends the replies this core stored or took (bot/store/outbox.py)."""
        self.router = routes()  # every rule system's declared commands
        self.catalog = systems.catalog(settings.messages_file)
        self.dice: DiceSource = dice if dice is not None else SystemSource()
        self.default_system = settings.default_system
        self.platforms = settings.platforms()  # each platform's locale and user-id rule
        self._bot_ids: dict[str, set[str]] = {}
        self.logbook = LogBook()
        self.services = Services(self.catalog, self.is_user_id, self.system_of_id,
                                 self.default_system, self.logbook, self.router.commands,
                                 self.router.find, systems.get, systems.layers,
                                 decks.load(settings.resolved_decks_dir()))
        rate = settings.rate
        self.dispatcher = Dispatcher(
            self.writer, engine, self.router, self.services, self.dice, self.platform_locale,
            RateLimiter(rate.burst, rate.refill_seconds) if rate.burst > 0 else None,
            self.platforms.rate_limited)
        self._acked: set[int] = set()
        self._ack_flush: asyncio.Task[None] | None = None
        self._closing = asyncio.Event()  # cuts the acks' grouping wait short at close

    @classmethod
    async def open(cls, settings: Settings, dice: DiceSource | None = None,
                   group_commit: bool | None = None) -> Core:
        """Create the engine, upgrade the schema to the newest revision, return a core.
        ``group_commit`` (default: on) commits the work of concurrent commands
        together (:mod:`bot.store.writer`); off, every command commits alone."""
        engine = db.make_engine(settings.resolved_database_url())
        await db.upgrade(engine)
        return cls(settings, engine, dice, group_commit)

    async def close(self) -> None:
        self._closing.set()  # a waiting ack flush runs now: closing waits no ACK_DELAY
        if self._ack_flush is not None:
            # never cancelled: cut off inside its transaction, the driver's connection
            # would be left closing in the background and the process could not exit
            await self._ack_flush
        await self.flush_acks()  # through the writer while it is open
        await self.claims.close()  # what is left is the next start's to send
        await self.writer.close()
        await self.flush_acks()  # what a failed deletion left, on the pooled engine
        await self.engine.dispose()

    # --- commands -------------------------------------------------------------------
    async def handle(self, incoming: Incoming, dice: DiceSource | None = None) -> list[Outgoing]:
        """Run one message (:meth:`bot.dispatcher.Dispatcher.handle`). Its stored
        replies are this core's to send: their claims are renewed from now on, and
        :meth:`holds` answers for them from memory."""
        started = time.monotonic()  # their lease began after this
        outs = await self.dispatcher.handle(incoming, dice)
        if any(out.outbox_id is not None for out in outs):
            self.claims.claimed(started)
        return outs

    async def table_key(self, platform: str, channel: str) -> str:
        return await self.dispatcher.table_key(platform, channel)

    def watch_commands(self, watcher: Callable[[Handled], None]) -> None:
        """Call ``watcher`` after each command that ran at its table (the operator's
        metrics: `trpgbot run` registers them, so the core imports no metrics library)."""
        self.dispatcher.watchers.append(watcher)

    # --- locale ------------------------------------------------------------------
    def platform_locale(self, platform: str) -> str:
        return self.platforms.locale(platform)

    def cached_locale(self, platform: str, channel: str) -> str:
        """The channel's locale without I/O (for refusals that must cost nothing)."""
        return self.dispatcher.cached_locale(platform, channel)

    def remember_locale(self, platform: str, channel: str, locale: str | None) -> None:
        self.dispatcher.remember_locale(platform, channel, locale)

    # --- who is who ----------------------------------------------------------------
    def set_bot_id(self, platform: str, user: str) -> None:
        """One of the bot's own user ids on ``platform`` (an adapter tells it once
        connected; a platform may connect several accounts: docs/scaling.md)."""
        self._bot_ids.setdefault(platform, set()).add(user)

    def is_user_id(self, platform: str, user: str) -> bool:
        """Whether ``user`` can be a real person on ``platform`` (its adapter's rule,
        bot/platforms.py), and the bot is never one of the people it sends secrets to."""
        if user in self._bot_ids.get(platform, ()):
            return False
        return self.platforms.is_user_id(platform, user)

    # --- services for adapters -----------------------------------------------------
    async def store_sync(self, work: Callable[[Connection], T]) -> T:
        """Run statements of the store (the outbox's leases) in the writer's next
        batch; their result once it is committed. After the writer closed, in a
        transaction of their own."""
        if self.writer.closed:
            async with self.engine.begin() as connection:
                return await connection.run_sync(work)
        unit = Unit(sync=work)

        async def job(_link: ConnectionLink) -> tuple[None, Unit]:
            return None, unit
        await self.writer.run(job)
        result: T = unit.result
        return result

    async def private_delivery_failed(self, platform: str, outgoing: Outgoing) -> list[Outgoing]:
        """Keep an undeliverable private message for `.gm pending`; tell the channel
        who could not be reached — never what the message said."""
        assert outgoing.to == "private" and outgoing.user is not None
        user = outgoing.user
        dispatcher = self.dispatcher

        table = await dispatcher.table_key(platform, outgoing.channel)

        async def keep(link: ConnectionLink) -> tuple[tuple[str, dict[str, str]], Unit]:
            uow = UnitOfWork(link, await dispatcher.state(link, platform, outgoing.channel,
                                                          table))
            uow.keep_pending(user, outgoing.text)
            unit = dispatcher.unit(uow, Incoming(platform, outgoing.channel, "", ""), [])
            if outgoing.outbox_id is not None:  # kept for `.gm pending` instead
                unit.changes.append((sql.delete_outbox(), {"_id": outgoing.outbox_id}))
            channel = uow.channel
            return (channel.locale or self.platform_locale(platform),
                    {gm.user: gm.display_name for gm in channel.gms}), unit
        async with dispatcher.lock(platform, table):  # the table's commands wait
            locale, names = await self.writer.run(keep)
        who = names.get(user) or user
        text = self.catalog.text(locale, "core.gm.delivery_failed", user=who)
        return [Outgoing("channel", outgoing.channel, text)]

    async def delivered(self, outgoing: Outgoing) -> None:
        """The platform accepted ``outgoing`` (or refused it for good): it leaves the
        outbox. Deletions are grouped — one commit within :data:`ACK_DELAY` seconds for
        every reply acknowledged meanwhile — so a reply costs no commit of its own; a
        crash inside that window sends a reply twice rather than never."""
        if outgoing.outbox_id is None:
            return
        self._acked.add(outgoing.outbox_id)
        if self._ack_flush is None or self._ack_flush.done():
            self._ack_flush = asyncio.create_task(self._flush_acks_soon())

    async def _flush_acks_soon(self) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._closing.wait(), ACK_DELAY)
        await self.flush_acks()

    async def flush_acks(self) -> None:
        """Delete every acknowledged reply from the outbox now."""
        ids, self._acked = self._acked, set()
        if not ids:
            return

        def forget(connection: Connection) -> None:
            connection.execute(delete(sql.OUTBOX).where(sql.OUTBOX.c.id.in_(ids)))
        try:
            await self.store_sync(forget)
        except Exception:
            self._acked |= ids  # tried again with the next batch
            log.exception("could not remove %d delivered replies from the outbox", len(ids))

    async def outbox_depth(self) -> tuple[int, float | None]:
        """How many replies wait in the outbox (every platform, every process) and the
        age in seconds of the oldest (None: none waits) — what the operator's health
        check and metrics show. Raises when the store does not answer."""
        async with self.engine.connect() as connection:
            count, oldest = (await connection.execute(sql.outbox_depth())).one()
        return count, (utc_now() - oldest).total_seconds() if oldest is not None else None

    async def undelivered(self, platform: str, account: str = "") -> list[Outgoing]:
        """Replies of ``platform`` committed but not yet accepted by it (a stop or a crash
        came in between), oldest first, that no live process sends and that ``account``
        sends (the bot account that received their command, or any for a row of none:
        ``Incoming.account``) — each is claimed by this core now (bot/store/outbox.py)
        and stays stored until :meth:`delivered`. Another account's rows wait for it."""
        return [replace(Outgoing.from_record(message), outbox_id=row_id)
                for row_id, message in await self.claims.take(platform, account)
                if row_id not in self._acked]

    async def holds(self, outgoing: Outgoing) -> bool:
        """Whether this core may send ``outgoing`` now: not stored, or its outbox row is
        still claimed by this core (:meth:`bot.store.outbox.Claims.holds`). An adapter
        asks before each send."""
        return outgoing.outbox_id is None or await self.claims.holds(outgoing.outbox_id)

    async def claim_message(self, platform: str, message_id: str) -> bool:
        """Record a platform message id without running a command (an adapter answers
        it itself, e.g. Plurk's unreadable-dice notice); False if already recorded."""
        async def claim(_link: ConnectionLink) -> tuple[None, Unit]:
            return None, Unit(claim=(platform, message_id), platform=platform)
        try:
            await self.writer.run(claim)
        except Replayed:
            return False
        return True

    async def read_table(self, platform: str, channel: str,
                         work: Callable[[UnitOfWork], Awaitable[T]]) -> T | None:
        """``work`` on the table ``channel`` plays at, read outside any command (the
        `trpgbot log export` command line, autocomplete); None when that table was
        never used."""
        table = await self.table_key(platform, channel)
        async with self.engine.connect() as connection:
            link = ReadLink(connection)
            row = (await link.read(sql.table_of_key(platform, table))).first()
            if row is None:
                return None
            gms = [Gm(g.user, g.display_name) for g in await link.read(sql.gms_of(row.id))]
            return await work(UnitOfWork(link, TableState(sql.table_record(row, gms))))

    async def stat_names(self, platform: str, channel: str, user: str) -> list[str]:
        """Stat names on the user's active sheet plus the system's (for autocomplete)."""
        async def read(uow: UnitOfWork) -> tuple[str, list[str]]:
            sheet = await uow.active_sheet(user)
            return uow.channel.system, list(sheet.stats) if sheet is not None else []
        found = await self.read_table(platform, channel, read)
        system, names = found if found is not None else (self.default_system, [])
        names.extend(s.name for s in self.system_of_id(system).stats if s.name not in names)
        return names

    async def verb_command(self, platform: str, channel: str, verb: str) -> str:
        """The command an adapter verb (``check``, ``initiative``) runs in ``channel``:
        its system's own; else another system's, whose use then explains itself."""
        async def read(uow: UnitOfWork) -> str:
            return uow.channel.system
        system = await self.read_table(platform, channel, read)
        plugin = systems.get(system or self.default_system)
        if plugin is not None and verb in plugin.verbs:
            return plugin.verbs[verb]
        return next((m.verbs[verb] for m in systems.declared().values() if verb in m.verbs),
                    verb)

    def system_of_id(self, system: str | None) -> GameSystem:
        found = systems.get(system) if system is not None else None
        return (found or systems.require(self.default_system)).game
