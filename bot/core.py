"""The core: one entry point for every adapter.

`handle` normalises the text, finds the command, runs its handler inside one
database transaction while holding the channel's lock, commits, and only then
returns the messages to send — so a reply never announces a change that could
still be lost, and two commands on one channel never interleave.

With group commit (the default, :mod:`bot.store.group`) that transaction is the
writer's batch — the command's changes kept in memory until the batch flushes them,
or in a SAVEPOINT of its own when it needs SQL earlier: the commands that finish
while a batch is being committed share the next commit, and each command's replies
are returned when the commit that holds its change returns.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Literal, TypeVar, overload

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

import bot.handlers  # noqa: F401  (registers the common commands)
from bot import router, systems
from bot.config import Settings
from bot.context import Context
from bot.dice_replay import DiceReplay
from bot.errors import CommandError
from bot.gamelog import book as log_book
from bot.gamelog.book import Line, LogBook
from bot.i18n import Catalog, rule_key
from bot.messages import Incoming, Outgoing
from bot.normalize import (
    has_lone_surrogate,
    normalize,
    one_line,
    shown,
    strip_prefix,
    visible,
)
from bot.platform_dice import PlatformDiceSource, emoticons_to_dice
from bot.store import db
from bot.store.cache import NeedsSavepoint, WorkingSet
from bot.store.group import BatchFailed, GroupWriter
from bot.store.models import (
    Channel,
    ChannelBinding,
    Character,
    OutboxMessage,
    PendingPrivate,
    campaign_key,
)
from bot.store.ops import claim_row, outbox_ids
from bot.store.outbox import Claims, new_claim, process_name
from rules.dice.source import DiceSource, SystemSource
from rules.errors import RuleError
from rules.kits.game_system import GameSystem

log = logging.getLogger(__name__)

MAX_INPUT = 1000
"""Characters of one command line; longer lines are refused before any work."""
MAX_REPLY = 2000
"""Characters of one reply; the core shortens anything longer (adapters split further)."""
ACK_DELAY = 0.2
"""Seconds a delivered reply may stay in the outbox, so that deletions share a commit."""
ANSWERED_MEMORY = 10_000
"""Message ids the core remembers as answered (a resend comes soon after, if at all)."""
MAX_SAID = 4000
"""Characters of one chat message kept in a game log (longer ones are cut)."""

T = TypeVar("T")


@dataclass
class Run:
    """One command on its way through :meth:`Core._run`: what it is, and what became
    known while it ran (its command once resolved, its table's language)."""

    body: str
    early: tuple[router.Command, str] | None
    incoming: Incoming
    source: DiceSource
    table: str
    command: router.Command | None = None
    locale: str | None = None
    read_locale: str | None = None
    """The table's language as stored when the command read its channel (before its
    handler ran): what a refusal speaks, though nothing of the run is kept."""
    dice: DiceReplay = field(init=False)
    """What the handler rolls with: ``source``, remembered for a second run."""

    def again(self) -> None:
        """Before running the command a second time (its first run was undone): the
        same dice again."""
        self.locale = None
        self.dice.again()

    def __post_init__(self) -> None:
        self.dice = DiceReplay(self.source)
        if self.early is not None:
            self.command = self.early[0]

    @property
    def name(self) -> str:
        return self.command.names[0] if self.command is not None else self.body[:20]


class Replay(Exception):
    """The message id was recorded before: the command's work is rolled back and
    nothing is answered (an adapter delivered the same event twice)."""


class Core:
    def __init__(
        self, settings: Settings, engine: AsyncEngine, dice: DiceSource | None = None,
        group_commit: bool | None = None,
    ) -> None:
        self.settings = settings
        self.engine = engine
        self.sessions = db.sessionmaker(engine)
        if group_commit is None:
            group_commit = settings.group_commit
        claimant = process_name()
        self.writer: GroupWriter | None = GroupWriter(db.make_engine(
            engine.url.render_as_string(hide_password=False), writer=True),
            claimant=claimant) if group_commit else None
        self.claims = Claims(claimant, self._transaction)
        """Who sends the replies this core stored or took (bot/store/outbox.py)."""
        systems.plugins()  # every rule system's commands registered before routing
        self.catalog = Catalog(settings.messages_file)
        self.dice: DiceSource = dice if dice is not None else SystemSource()
        self.default_system = settings.default_system
        self.platforms = settings.platforms()  # each platform's locale and user-id rule
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}
        self._locales: dict[tuple[str, str], str] = {}
        self._bot_ids: dict[str, str] = {}
        self._tables: dict[tuple[str, str], str] = {}
        self._answered: OrderedDict[tuple[str, str], None] = OrderedDict()
        self.logbook = LogBook()
        self._acked: set[int] = set()
        self._ack_flush: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, settings: Settings, dice: DiceSource | None = None,
                   group_commit: bool | None = None) -> Core:
        """Create the engine, upgrade the schema to the newest revision, return a core.
        ``group_commit`` (default: on) commits the changes of concurrent commands
        together (:mod:`bot.store.group`); off, every command commits alone."""
        engine = db.make_engine(settings.resolved_database_url())
        await db.upgrade(engine)
        return cls(settings, engine, dice, group_commit)

    async def close(self) -> None:
        if self._ack_flush is not None:
            # never cancelled: cut off inside its transaction, the driver's connection
            # would be left closing in the background and the process could not exit
            await self._ack_flush
        await self.flush_acks()  # through the writer while it is open
        await self.claims.close()  # what is left is the next start's to send
        if self.writer is not None:
            await self.writer.close()
        await self.flush_acks()  # what a failed deletion left, on the pooled engine
        await self.engine.dispose()

    # --- locale ------------------------------------------------------------------
    def platform_locale(self, platform: str) -> str:
        return self.platforms.locale(platform)

    def cached_locale(self, platform: str, channel: str) -> str:
        """The channel's locale without I/O (for refusals that must cost nothing)."""
        return self._locales.get((platform, channel)) or self.platform_locale(platform)

    def remember_locale(self, platform: str, channel: str, locale: str | None) -> None:
        self._locales[(platform, channel)] = locale or self.platform_locale(platform)

    # --- the entry point -----------------------------------------------------------
    async def handle(self, incoming: Incoming, dice: DiceSource | None = None) -> list[Outgoing]:
        if self._was_answered(incoming):
            return []  # a platform's resend: not even its handler runs again
        said = incoming  # chatter keeps its line breaks: the game log shows them
        incoming = one_line(incoming)
        # an adapter marks chatter that looks like a command (a Plurk post without the
        # bot's mention): it is chatter, whatever its text
        body = None if incoming.kind == "chatter" else strip_prefix(normalize(incoming.text))
        if body is None:
            return await self._chatter(shown(said))
        incoming, body = shown(incoming), visible(body)
        locale = self.cached_locale(incoming.platform, incoming.channel)
        if len(body) > MAX_INPUT:
            return [self._error(incoming, locale, "core.error.input_too_long",
                                limit=MAX_INPUT, length=len(body))]
        if any(map(has_lone_surrogate, (body, incoming.display_name, incoming.user,
                                        incoming.channel))):
            return [self._error(incoming, locale, "core.error.bad_text")]
        if incoming.platform_dice:
            body = emoticons_to_dice(body)
        if not router.is_command(body):
            close = router.near_miss(body)  # `.hlep`: a typo of a command, not chatter
            if close is None:
                return await self._chatter(said)
            return [self._error(incoming, locale, "core.error.did_you_mean",
                                typed=body.split()[0][:20], command=close)]
        early = router.unambiguous(body)  # the same command whatever the channel plays
        if early is not None:
            try:
                self._check_before_work(early[0], early[1], incoming)
            except (CommandError, RuleError) as exc:
                return [self._refusal(incoming, locale, exc, private=early[0].hidden)]
            except Exception:
                log.exception("precheck of a %s command failed", early[0].names[0])
                return [self._error(incoming, locale, "core.error.internal")]
        source = dice if dice is not None else self.dice
        if incoming.platform_dice:
            source = PlatformDiceSource(incoming.platform_dice, source)
        while True:
            # `.campaign bind` may move this channel to another table while we wait for
            # the lock: `_run` reads the binding again under it and answers None when it
            # moved, so an acknowledged change is always written where the next reads
            table = self._tables.get((incoming.platform, incoming.channel))
            if table is None:
                table = await self.table_key(incoming.platform, incoming.channel)
            lock = self._locks.setdefault((incoming.platform, table), asyncio.Lock())
            async with lock:
                outs = await self._run(body, early, incoming, source, table)
            if outs is not None:
                return outs

    @staticmethod
    def _check_before_work(cmd: router.Command, args: str, incoming: Incoming) -> None:
        """Refusals that need no state: a hidden command with public emoticon dice, and
        the command's own limits (its precheck) — before any die is rolled."""
        if cmd.hidden and incoming.platform_dice:
            # the emoticon dice of the post were rolled in public: a hidden roll or
            # check that used (or even named) them would quote a public value
            raise CommandError("core.error.hidden_platform_dice")
        if cmd.precheck is not None:
            cmd.precheck(args)

    @staticmethod
    def _command_at(body: str, channel: Channel) -> tuple[router.Command, str]:
        """The command ``body`` runs at this table, or a refusal naming the systems that
        have it (`.atk` typed in a channel that plays another system)."""
        found = router.resolve(body, channel.system)
        if found is None:
            owners = router.owners_of(body)
            name = next(iter(owners.values())).names[0] if owners else body[:20]
            raise CommandError("core.error.other_system", command=f".{name}",
                               owners=list(owners), system=channel.system)
        return found

    async def _run(
        self, body: str, early: tuple[router.Command, str] | None, incoming: Incoming,
        source: DiceSource, table: str,
    ) -> list[Outgoing] | None:
        """Run the command at ``table`` — in a savepoint of the group-commit writer's
        batch, or in a transaction of its own; None (nothing done) when the channel no
        longer plays there. Replies are returned only once their change is committed."""
        run = Run(body, early, incoming, source, table)
        try:
            if self.writer is not None:
                outs = await self.writer.run(lambda session: self._grouped(session, run))
            else:
                outs = await self._alone(run)
        except (StaleDataError, IntegrityError):
            # another process changed or created the same row first: nothing was
            # written by this command, which the player may simply repeat
            return [self._error(incoming, self.cached_locale(
                incoming.platform, incoming.channel), "core.error.conflict")]
        except BatchFailed:  # the commit of the batch failed: nothing of it was stored
            return [self._error(incoming, self.cached_locale(
                incoming.platform, incoming.channel), "core.error.internal")]
        except Exception:
            log.exception("a %s command failed", run.name)
            return [self._error(incoming, self.cached_locale(
                incoming.platform, incoming.channel), "core.error.internal")]
        if run.locale is not None:  # committed: the channel's language may be remembered
            self.remember_locale(incoming.platform, incoming.channel, run.locale)
            if run.command is not None and run.command.rebinds:
                self._tables.pop((incoming.platform, incoming.channel), None)
        if outs is not None:
            self._answer_recorded(incoming)
        return outs

    def _was_answered(self, incoming: Incoming) -> bool:
        return incoming.message_id is not None \
            and (incoming.platform, incoming.message_id) in self._answered

    def _answer_recorded(self, incoming: Incoming) -> None:
        """The message's id is committed: a resend of it is dropped before any work.
        Bounded (:data:`ANSWERED_MEMORY`); older ids are still found by the store's
        unique key, after running the command again and rolling it back."""
        if incoming.message_id is None:
            return
        self._answered[(incoming.platform, incoming.message_id)] = None
        if len(self._answered) > ANSWERED_MEMORY:
            self._answered.popitem(last=False)

    async def _alone(self, run: Run) -> list[Outgoing] | None:
        """The command in a transaction of its own; a refusal rolls it back and records
        the message id and the refusal in another."""
        try:
            async with self.sessions() as session, session.begin():
                await db.claim_epoch(session)
                outs = await self._work(session, run)
                return outs if outs is None else await self._store(session, run.incoming, outs)
        except Replay:
            return []
        except (CommandError, RuleError) as exc:
            run.locale = None
            return await self._record_only(run.incoming, self._refusal_of(run, exc))

    async def _grouped(self, session: AsyncSession, run: Run) -> list[Outgoing] | None:
        """The command in the writer's batch: first on its fast path (no savepoint and no
        flush of its own; its changes are written by the batch's flush, and a failure is
        undone in memory), and run again in a savepoint of its own if it needs SQL that
        writes before that (a new row whose id it needs, a bulk statement). A refusal
        after a change undoes it, and the message id and the refusal ride in the same
        batch. A conflict with another process (a stale row) is tried once more, the
        rows read again."""
        writer = self.writer
        assert writer is not None
        cache = writer.cache
        fast, conflicts = True, 0
        while True:
            try:
                refused = False
                async with writer.fast() if fast else writer.savepoint(session):
                    try:
                        outs = await self._work(session, run)
                    except (CommandError, RuleError) as exc:
                        if not cache.clean():
                            raise  # undone, then recorded below
                        run.locale = None
                        outs, refused = [self._refusal_of(run, exc)], True
                    if outs is None:
                        return None
                    if not cache.clean():
                        return await self._store(session, run.incoming, outs,
                                                 flush=not fast)
                # it changed nothing (a read, or refused before any change): its id and
                # replies need no savepoint
                return await writer.unguarded(
                    self._store_clean(session, run.incoming, outs, refused), (Replay,))
            except NeedsSavepoint:
                fast = False
                run.again()
            except Replay:
                return []
            except (CommandError, RuleError) as exc:
                run.locale = None
                try:
                    async with writer.savepoint(session):
                        return await self._store(session, run.incoming,
                                                 [self._refusal_of(run, exc)], refused=True)
                except Replay:
                    return []
            except (StaleDataError, IntegrityError):
                conflicts += 1
                if conflicts == 2:
                    raise
                run.again()
                log.info("a %s command met a concurrent change: tried again", run.name)

    async def _work(self, session: AsyncSession, run: Run) -> list[Outgoing] | None:
        """The command's work inside the transaction (or savepoint) it was given: its
        replies, not stored yet (:meth:`_store`); None when the channel no longer plays
        at ``run.table``."""
        incoming = run.incoming
        if await self._table_in(session, incoming) != run.table:
            return None
        channel = await self.channel_row(session, incoming.platform, run.table)
        run.read_locale = channel.locale or self.platform_locale(incoming.platform)
        if run.early is None:
            # known before its checks, so that a hidden command's refusal stays private
            run.command, args = self._command_at(run.body, channel)
            self._check_before_work(run.command, args, incoming)
        else:
            run.command, args = run.early
        self._refresh_gm_name(channel, incoming)
        ctx = Context(self, session, channel, incoming, run.dice, args,
                      run.command.names[0],
                      channel.locale or self.platform_locale(incoming.platform),
                      cache=self._cache_for(session))
        outs = await run.command.handler(ctx)
        if isinstance(run.source, PlatformDiceSource) and run.source.used:
            outs = self._mark_platform_dice(outs, run.source, ctx.locale)
        run.locale = channel.locale or self.platform_locale(incoming.platform)
        outs = [self._bounded(out) for out in outs]
        return await self._logged(session, channel, incoming, outs, run.locale)

    def _refusal_of(self, run: Run, exc: CommandError | RuleError) -> Outgoing:
        locale = run.read_locale or self.cached_locale(run.incoming.platform,
                                                       run.incoming.channel)
        return self._refusal(run.incoming, locale, exc,
                             private=run.command is not None and run.command.hidden)

    # --- the game log ---------------------------------------------------------------
    async def _logged(self, session: AsyncSession, channel: Channel, incoming: Incoming,
                      outs: list[Outgoing], locale: str) -> list[Outgoing]:
        """Record the command and its replies in the table's running log, if any; a
        log that reaches its cap stops, and the table is told so."""
        book = self.logbook
        if book.idle(channel.platform, channel.channel_key):
            return outs
        row = await book.active(session, channel.platform, channel.channel_key, channel.id)
        if row is None:
            return outs
        names = {incoming.user: incoming.display_name,
                 **{gm.user: gm.display_name for gm in channel.gms}}
        lines = [self._said(incoming), *log_book.lines_of(outs, names)]
        if book.record(session, row, lines):
            return outs
        return [*outs, self._log_full(incoming, row.name, locale)]

    @staticmethod
    def _said(incoming: Incoming) -> Line:
        return Line("said", incoming.user, incoming.display_name or incoming.user,
                    incoming.text[:MAX_SAID])

    def _log_full(self, incoming: Incoming, name: str, locale: str) -> Outgoing:
        return Outgoing("channel", incoming.channel, self.catalog.text(
            locale, "core.log.full", name=name, lines=log_book.MAX_LINES))

    async def _chatter(self, incoming: Incoming) -> list[Outgoing]:
        """A message that is no command: recorded when its table logs, else nothing —
        and no database read while the table is known to log nothing."""
        if incoming.is_private or any(map(has_lone_surrogate, (
                incoming.text, incoming.display_name, incoming.user, incoming.channel))):
            return []
        key = (incoming.platform, incoming.channel)
        table = self._tables.get(key) or await self.table_key(*key)
        for _ in range(3):  # the table is read again under its lock: follow a move
            if self.logbook.idle(incoming.platform, table):
                return []
            async with self._locks.setdefault((incoming.platform, table), asyncio.Lock()):
                try:
                    outs = await self._transaction(
                        partial(self._log_chatter, incoming=incoming, table=table),
                        changes=True)
                except Replay:
                    return []
                except Exception:
                    log.exception("a message could not be added to the game log")
                    return []
            if isinstance(outs, str):
                table = outs
                continue
            self._answer_recorded(incoming)
            return outs
        return []

    async def _log_chatter(self, session: AsyncSession, *, incoming: Incoming,
                           table: str) -> list[Outgoing] | str:
        """The chatter recorded in ``table``'s running log, if any; the table the channel
        plays at instead when it no longer plays at ``table`` (bound or unbound since
        ``table`` was remembered — in this process or another): nothing is written."""
        actual = await self._table_in(session, incoming)
        if actual != table:
            return actual
        channel = await self.channel_row(session, incoming.platform, table, create=False)
        if channel is None:
            self.logbook.remember(incoming.platform, table, None)
            return []
        row = await self.logbook.active(session, incoming.platform, table, channel.id)
        if row is None:
            return []
        if self.logbook.record(session, row, [self._said(incoming)]):
            return await self._store(session, incoming, [])
        locale = channel.locale or self.platform_locale(incoming.platform)
        return await self._store(session, incoming,
                                 [self._log_full(incoming, row.name, locale)])

    async def _transaction(self, work: Callable[[AsyncSession], Awaitable[T]],
                           changes: bool = False) -> T:
        """``work`` in a savepoint of the writer's batch (group commit), or in a
        transaction of its own; returns once it is committed. ``changes``: it may
        change a table the working set keeps (other processes are told, see
        :func:`bot.store.db.claim_epoch`)."""
        if self.writer is None or self.writer.closed:
            async with self.sessions() as session, session.begin():
                if changes:
                    await db.claim_epoch(session)
                return await work(session)

        writer = self.writer

        async def nested(session: AsyncSession) -> T:
            async with writer.savepoint(session):
                return await work(session)
        return await writer.run(nested)

    def _cache_for(self, session: AsyncSession) -> WorkingSet | None:
        """The working set, when ``session`` is the writer's (whose rows it holds)."""
        writer = self.writer
        return writer.cache if writer is not None and session is writer.session else None

    # --- helpers of handle ---------------------------------------------------------
    async def _claim(self, session: AsyncSession, incoming: Incoming) -> None:
        """Record the platform message id once the command's work is done: one
        ``INSERT … ON CONFLICT DO NOTHING`` (no read first); no row inserted means it
        was processed before, and :class:`Replay` rolls the command back."""
        if incoming.message_id is not None:
            await session.run_sync(self._claim_now, incoming)

    def _claim_now(self, session: Session, incoming: Incoming) -> None:
        if incoming.message_id is None:
            return
        writer = self.writer
        if writer is not None and session is writer.session.sync_session:
            inserted = writer.claim(session, incoming.platform, incoming.message_id)
        else:
            inserted = claim_row(session, incoming.platform, incoming.message_id)
        if not inserted:
            raise Replay(incoming.message_id)

    async def _store(self, session: AsyncSession, incoming: Incoming,
                     outs: list[Outgoing], refused: bool = False,
                     flush: bool = True) -> list[Outgoing]:
        """End a command that changed something: its changes flushed (unless it is on the
        writer's fast path, where the batch flushes them), its message id recorded
        (:class:`Replay` when it was recorded before: the caller undoes everything), and
        its replies into the outbox. A refusal is stored only when it has an id (without
        one, nothing is kept). One greenlet for the three."""
        if refused and incoming.message_id is None:
            return outs
        return await session.run_sync(self._store_now, incoming, outs, flush)

    def _store_now(self, session: Session, incoming: Incoming,
                   outs: list[Outgoing], flush: bool = True) -> list[Outgoing]:
        if flush:
            session.flush()
        self._claim_now(session, incoming)
        return self._to_outbox_now(session, incoming.platform, outs)

    async def _store_clean(self, session: AsyncSession, incoming: Incoming,
                           outs: list[Outgoing], refused: bool) -> list[Outgoing]:
        """End a command that changed nothing, outside any savepoint: the message id
        first (a replay then wrote nothing to undo), then the replies."""
        if refused and incoming.message_id is None:
            return outs
        return await session.run_sync(self._store_clean_now, incoming, outs)

    def _store_clean_now(self, session: Session, incoming: Incoming,
                         outs: list[Outgoing]) -> list[Outgoing]:
        self._claim_now(session, incoming)
        return self._to_outbox_now(session, incoming.platform, outs)

    async def _record_only(self, incoming: Incoming, refusal: Outgoing) -> list[Outgoing]:
        """After a refused command, still remember its id (so a replay is not answered
        again) and keep the refusal in the outbox, in one transaction."""
        if incoming.message_id is None:
            return [refusal]
        try:
            async with self.sessions() as session, session.begin():
                return await self._store(session, incoming, [refusal])
        except Replay:
            return []

    def _to_outbox_now(self, session: Session, platform: str,
                       outs: list[Outgoing]) -> list[Outgoing]:
        """Store the replies in the command's own transaction (the transactional outbox):
        a reply lives in the database from the commit that holds its change until the
        adapter says the platform accepted it (:meth:`delivered`), so neither a stop nor
        a crash between the two can lose it. On the group-commit writer's session they
        are inserted with the batch's other replies, just before its COMMIT."""
        if not outs:
            return outs
        self.claims.claimed()  # renewed from now on: this core sends them
        writer = self.writer
        if writer is not None and session is writer.session.sync_session:
            return writer.store_replies(platform, outs)
        claim = new_claim(self.claims.claimant)
        ids = outbox_ids(session, [{"platform": platform, "message": out.to_record(), **claim}
                                   for out in outs])
        return [replace(out, outbox_id=row_id) for out, row_id in zip(outs, ids, strict=True)]

    @staticmethod
    def _refresh_gm_name(channel: Channel, incoming: Incoming) -> None:
        """A GM added by id (`.gm add @123`) gets their display name once they speak."""
        for gm in channel.gms:
            if gm.user == incoming.user and incoming.display_name \
                    and gm.display_name != incoming.display_name:
                gm.display_name = incoming.display_name

    async def table_key(self, platform: str, channel: str) -> str:
        """The table a platform channel plays at: its own, or its campaign's (`.campaign`)."""
        async with self.sessions() as session:
            return await self._table_in(session, Incoming(platform, channel, "", ""))

    async def _table_in(self, session: AsyncSession, incoming: Incoming) -> str:
        """:meth:`table_key` inside a transaction; remembered as the channel's likely
        table, which saves a read before the lock (it is checked again under it)."""
        cache = self._cache_for(session)
        known, campaign = cache.binding(incoming.platform, incoming.channel) \
            if cache is not None else (False, None)
        if not known:
            campaign = await session.scalar(select(ChannelBinding.campaign).where(
                ChannelBinding.platform == incoming.platform,
                ChannelBinding.channel_key == incoming.channel))
            if cache is not None:
                cache.keep_binding(incoming.platform, incoming.channel, campaign)
        table = campaign_key(campaign) if campaign else incoming.channel
        self._tables[(incoming.platform, incoming.channel)] = table
        return table

    @overload
    async def channel_row(self, session: AsyncSession, platform: str, key: str,
                          create: Literal[True] = True) -> Channel: ...

    @overload
    async def channel_row(self, session: AsyncSession, platform: str, key: str,
                          create: bool) -> Channel | None: ...

    async def channel_row(self, session: AsyncSession, platform: str, key: str,
                          create: bool = True) -> Channel | None:
        """The stored table `(platform, key)` (from the working set when ``session`` is
        the writer's), created with the defaults on first use unless ``create`` is
        false."""
        cache = self._cache_for(session)
        if cache is not None:
            cached = cache.channel(platform, key)
            if cached is not None:
                return cached
        channel = await session.scalar(
            select(Channel).where(Channel.platform == platform, Channel.channel_key == key)
        )
        if channel is None:
            if not create:
                return None
            channel = Channel(platform=platform, channel_key=key,
                              system=self.default_system, gms=[])
            session.add(channel)
            await session.flush()
        if cache is not None:
            cache.keep_channel(channel)
        return channel

    def _refusal(self, incoming: Incoming, locale: str, exc: Exception, *,
                 private: bool) -> Outgoing:
        """The refusal of a command; ``private`` (a hidden command's) goes to the one who
        asked only — even its wording names what was checked in secret."""
        if isinstance(exc, RuleError):
            key = rule_key(exc.code)
            if not self.catalog.has(key, locale):
                out = self._error(incoming, locale, "core.error.rule", code=exc.code)
            else:
                out = self._error(incoming, locale, key, **exc.params)
        else:
            assert isinstance(exc, CommandError)
            out = self._error(incoming, locale, exc.key, **exc.params)
        if private:
            return replace(out, to="private", user=incoming.user, secret=True)
        return out

    def _error(self, incoming: Incoming, locale: str, key: str, /, **params: Any) -> Outgoing:
        text = self.catalog.text(locale, key, **params)
        return self._bounded(Outgoing("channel", incoming.channel,
                                      self.catalog.text(locale, "core.error.prefix", text=text)))

    def _mark_platform_dice(
        self, outs: list[Outgoing], source: PlatformDiceSource, locale: str
    ) -> list[Outgoing]:
        """Tell the readers which values were the player's own emoticon dice (PL-1)."""
        used = ", ".join(f"{d.token or f'(dice{d.faces})'} {d.value}" for d in source.used)
        note = self.catalog.text(locale, "core.roll.platform_dice", dice=used)
        return [replace(o, text=f"{o.text}\n{note}") for o in outs]

    @staticmethod
    def _bounded(out: Outgoing) -> Outgoing:
        """At most :data:`MAX_REPLY` characters, and no invisible format character: a
        name stored before they were removed from input cannot reorder a reply."""
        text = visible(out.text)
        if len(text) > MAX_REPLY:
            text = text[: MAX_REPLY - 1] + "…"
        return out if text == out.text else replace(out, text=text)

    # --- who is who ----------------------------------------------------------------
    def set_bot_id(self, platform: str, user: str) -> None:
        """The bot's own user id on ``platform`` (an adapter tells it once connected)."""
        self._bot_ids[platform] = user

    def is_user_id(self, platform: str, user: str) -> bool:
        """Whether ``user`` can be a real person on ``platform`` (its adapter's rule,
        bot/platforms.py), and the bot is never one of the people it sends secrets to."""
        if user == self._bot_ids.get(platform):
            return False
        return self.platforms.is_user_id(platform, user)

    # --- services for adapters -----------------------------------------------------
    async def private_delivery_failed(self, platform: str, outgoing: Outgoing) -> list[Outgoing]:
        """Keep an undeliverable private message for `.gm pending`; tell the channel
        who could not be reached — never what the message said."""
        assert outgoing.to == "private" and outgoing.user is not None
        user = outgoing.user

        async def keep(session: AsyncSession) -> tuple[str, dict[str, str]]:
            table = await self._table_in(session, Incoming(platform, outgoing.channel, "", ""))
            channel = await self.channel_row(session, platform, table)
            session.add(PendingPrivate(channel_id=channel.id, user=user, text=outgoing.text))
            if outgoing.outbox_id is not None:  # kept for `.gm pending` instead
                await session.execute(delete(OutboxMessage).where(
                    OutboxMessage.id == outgoing.outbox_id))
            return (channel.locale or self.platform_locale(platform),
                    {gm.user: gm.display_name for gm in channel.gms})
        locale, names = await self._transaction(keep, changes=True)
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
        await asyncio.sleep(ACK_DELAY)
        await self.flush_acks()

    async def flush_acks(self) -> None:
        """Delete every acknowledged reply from the outbox now."""
        ids, self._acked = self._acked, set()
        if not ids:
            return

        async def forget(session: AsyncSession) -> None:
            await session.execute(delete(OutboxMessage).where(OutboxMessage.id.in_(ids)))
        try:
            await self._transaction(forget)
        except Exception:
            self._acked |= ids  # tried again with the next batch
            log.exception("could not remove %d delivered replies from the outbox", len(ids))

    async def undelivered(self, platform: str) -> list[Outgoing]:
        """Replies of ``platform`` committed but not yet accepted by it (a stop or a crash
        came in between), oldest first, that no live process sends: each is claimed by
        this core now (bot/store/outbox.py) and stays stored until :meth:`delivered`."""
        return [replace(Outgoing.from_record(message), outbox_id=row_id)
                for row_id, message in await self.claims.take(platform)
                if row_id not in self._acked]

    async def holds(self, outgoing: Outgoing) -> bool:
        """Whether this core may send ``outgoing`` now: not stored, or its outbox row is
        still claimed by this core (:meth:`bot.store.outbox.Claims.holds`). An adapter
        asks before each send."""
        return outgoing.outbox_id is None or await self.claims.holds(outgoing.outbox_id)

    async def claim_message(self, platform: str, message_id: str) -> bool:
        """Record a platform message id without running a command (an adapter answers
        it itself, e.g. Plurk's unreadable-dice notice); False if already recorded."""
        async def claim(session: AsyncSession) -> bool:
            await self._claim(session, Incoming(platform, "", "", "", message_id=message_id))
            return True
        try:
            return await self._transaction(claim)
        except Replay:
            return False

    async def stat_names(self, platform: str, channel: str, user: str) -> list[str]:
        """Stat names on the user's active sheet plus the system's (for autocomplete)."""
        table = await self.table_key(platform, channel)
        async with self.sessions() as session:
            row = await session.scalar(
                select(Channel).where(Channel.platform == platform,
                                      Channel.channel_key == table))
            names: list[str] = []
            if row is not None:
                sheet = await session.scalar(select(Character).where(
                    Character.channel_id == row.id, Character.owner == user,
                    Character.active.is_(True)))
                if sheet is not None:
                    names.extend(sheet.stats)
            system = self.system_of(row)
        names.extend(s.name for s in system.stats if s.name not in names)
        return names

    async def verb_command(self, platform: str, channel: str, verb: str) -> str:
        """The command an adapter verb (``check``, ``initiative``) runs in ``channel``:
        its system's own; else another system's, whose use then explains itself."""
        table = await self.table_key(platform, channel)
        async with self.sessions() as session:
            system = await session.scalar(select(Channel.system).where(
                Channel.platform == platform, Channel.channel_key == table))
        plugin = systems.get(system or self.default_system)
        if plugin is not None and verb in plugin.verbs:
            return plugin.verbs[verb]
        return next((p.verbs[verb] for p in systems.plugins().values() if verb in p.verbs),
                    verb)

    def system_of(self, channel: Channel | None) -> GameSystem:
        found = systems.get(channel.system) if channel is not None else None
        return (found or systems.plugins()[self.default_system]).game
