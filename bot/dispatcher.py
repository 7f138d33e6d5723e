"""The way of one command: normalise → dedupe → route → run its handler in a unit of
work → commit.

:meth:`Dispatcher.handle` normalises the text, drops a platform's resend, finds the
command, and runs its handler on the writer (:mod:`bot.store.writer`) while holding
its table's lock, with a :class:`bot.unit_of_work.UnitOfWork` over the table; the
handler's changes, the message id and the replies are committed together, and only
then are the replies returned — so a reply never announces a change that could still
be lost, and two commands on one table never interleave.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from bot import systems
from bot.context import Context, Services
from bot.controls import CONTROLS, silenced
from bot.dice_replay import DiceReplay
from bot.documents import DamagedDocument
from bot.errors import CommandError
from bot.gamelog import book as log_book
from bot.gamelog.book import Line
from bot.i18n import Catalog, rule_key
from bot.kits.acting import NICKNAMES
from bot.messages import Incoming, Outgoing
from bot.normalize import has_lone_surrogate, normalize, one_line, shown, strip_prefix, visible
from bot.platform_dice import PlatformDiceSource, emoticons_to_dice
from bot.rate_limit import GO, SILENT, RateLimiter
from bot.records import Gm, Table, campaign_key
from bot.router import Command, Router
from bot.store import statements as sql
from bot.store.working_set import TableState
from bot.store.writer import BatchFailed, ConnectionLink, Replayed, Unit, Writer
from bot.unit_of_work import UnitOfWork
from rules.dice.source import DiceSource
from rules.errors import RuleError

Answer = Callable[[str], list[Outgoing]]
"""An answer given before any work, rendered once the channel's language is known."""

log = logging.getLogger(__name__)

MAX_INPUT = 1000
"""Characters of one command line; longer lines are refused before any work."""
MAX_REPLY = 2000
"""Characters of one reply; the core shortens anything longer (adapters split further)."""
ANSWERED_MEMORY = 10_000
"""Message ids remembered as answered (a resend comes soon after, if at all)."""
MAX_SAID = 4000
"""Characters of one chat message kept in a game log (longer ones are cut)."""
LOCKS = 10_000
"""Table locks kept; an idle one beyond this is dropped (it is made again when needed)."""


@dataclass
class Run:
    """One command on its way through the dispatcher: what it is, and what became known
    while it ran (its command once resolved, its table's language)."""

    body: str
    early: tuple[Command, str] | None
    incoming: Incoming
    source: DiceSource
    table: str
    command: Command | None = None
    locale: str | None = None
    read_locale: str | None = None
    """The table's language as stored when the command read it (before its handler
    ran): what a refusal speaks, though nothing of the run is kept."""
    system: str | None = None
    """The system its table plays, once read."""
    dice: DiceReplay = field(init=False)

    def __post_init__(self) -> None:
        self.dice = DiceReplay(self.source)
        if self.early is not None:
            self.command = self.early[0]

    @property
    def name(self) -> str:
        return self.command.names[0] if self.command is not None else self.body[:20]

    def again(self) -> None:
        """Before running the command a second time (its first run was undone): the
        same dice again."""
        self.locale = None
        self.dice.again()


@dataclass(frozen=True)
class Handled:
    """A command that ran at its table (answered or refused), as whoever watches the
    bot sees it (the operator's metrics, adapters/metrics.py): where, which system, how
    long since it arrived — nothing of what was said or who said it."""

    platform: str
    system: str
    seconds: float


class Moved(Exception):
    """The channel no longer plays at the table it was routed to (`.campaign bind`
    since): nothing was done; route again."""

    def __init__(self, table: str) -> None:
        super().__init__(table)
        self.table = table


class Dispatcher:
    def __init__(self, writer: Writer, reader: AsyncEngine, router: Router,
                 services: Services, dice: DiceSource,
                 platform_locale: Callable[[str], str],
                 limiter: RateLimiter | None = None,
                 rate_limited: Callable[[str], bool] = lambda _platform: False) -> None:
        self.writer = writer
        self.reader = reader
        """A pooled engine for the reads outside the writer's batches."""
        self.services = services
        self.catalog: Catalog = services.catalog
        self.router = router
        self.dice = dice
        self.platform_locale = platform_locale
        self.limiter = limiter
        """The per-user rate limit (None: off), for the platforms ``rate_limited`` names."""
        self.rate_limited = rate_limited
        self._locks: OrderedDict[tuple[str, str], asyncio.Lock] = OrderedDict()
        self._locales: OrderedDict[tuple[str, str], str] = OrderedDict()
        self._answered: OrderedDict[tuple[str, str], None] = OrderedDict()
        self.watchers: list[Callable[[Handled], None]] = []
        """Told of every command that ran at its table (``Core.watch_commands``)."""

    # --- languages ----------------------------------------------------------------
    def cached_locale(self, platform: str, channel: str) -> str:
        """The channel's locale without I/O (for refusals that must cost nothing)."""
        return self._locales.get((platform, channel)) or self.platform_locale(platform)

    def remember_locale(self, platform: str, channel: str, locale: str | None) -> None:
        _bounded_put(self._locales, (platform, channel),
                     locale or self.platform_locale(platform))

    # --- the entry point -----------------------------------------------------------
    async def handle(self, incoming: Incoming, dice: DiceSource | None = None) -> list[Outgoing]:
        started = time.perf_counter()
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
        refusal: Answer | None = None
        if len(body) > MAX_INPUT:
            refusal = partial(self._errors, incoming, "core.error.input_too_long",
                              limit=MAX_INPUT, length=len(body))
        elif any(map(has_lone_surrogate, (body, incoming.display_name, incoming.user,
                                          incoming.channel))):
            # no table can be read for ids that cannot be stored: no controls either
            return [self._error(incoming, locale, "core.error.bad_text")]
        else:
            if incoming.platform_dice:
                body = emoticons_to_dice(body)
            if not self.router.is_command(body):
                close = self.router.near_miss(body)  # `.hlep`: a typo of a command
                if close is None:
                    return await self._chatter(said)
                refusal = partial(self._errors, incoming, "core.error.did_you_mean",
                                  typed=body.split()[0][:20], command=close)
        verdict = self._verdict(incoming)  # before any work, even a refusal
        if verdict == SILENT:
            return []
        if verdict != GO:
            return await self._unless_silenced(incoming, partial(self._rate_notice, incoming))
        if refusal is not None:
            return await self._unless_silenced(incoming, refusal)
        early = self.router.unambiguous(body)  # the same command whatever the channel plays
        if early is not None:
            try:
                self._check_before_work(early[0], early[1], incoming)
            except (CommandError, RuleError) as exc:
                return await self._unless_silenced(incoming, partial(
                    self._refusals, incoming, exc, private=early[0].hidden))
            except Exception:
                log.exception("precheck of a %s command failed", early[0].names[0])
                return [self._error(incoming, locale, "core.error.internal")]
        source = dice if dice is not None else self.dice
        if incoming.platform_dice:
            source = PlatformDiceSource(incoming.platform_dice, source)
        table = await self.table_key(incoming.platform, incoming.channel)
        for _ in range(3):  # `.campaign bind` may move the channel while it waits
            run = Run(body, early, incoming, source, table)
            try:
                async with self.lock(incoming.platform, table):
                    outs = await self._run(run)
            except Moved as moved:
                table = moved.table
                continue
            handled = Handled(incoming.platform, run.system or "unknown",
                              time.perf_counter() - started)
            for watcher in self.watchers:
                watcher(handled)
            return outs
        return [self._error(incoming, locale, "core.error.conflict")]

    def lock(self, platform: str, table: str) -> asyncio.Lock:
        """The table's lock: two commands on one table never interleave. Bounded: the
        least recently used lock nobody holds or waits for leaves first."""
        key = (platform, table)
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
            if len(self._locks) > LOCKS:
                idle = next((k for k, v in self._locks.items() if not v.locked()), None)
                if idle is not None and idle != key:
                    del self._locks[idle]
        self._locks.move_to_end(key)
        return lock

    def _verdict(self, incoming: Incoming) -> str:
        """The rate limit's word on this command (a token of the user's bucket spent):
        ``GO``; else a dropped one — ``NOTICE`` for the first of a flood, ``SILENT``."""
        limiter = self.limiter
        if limiter is None or not self.rate_limited(incoming.platform):
            return GO
        return limiter.take(incoming.platform, incoming.user)

    def _rate_notice(self, incoming: Incoming, locale: str) -> list[Outgoing]:
        assert self.limiter is not None
        return [self._bounded(Outgoing("channel", incoming.channel, self.catalog.text(
            locale, "core.rate.notice", name=incoming.display_name or incoming.user,
            seconds=self.limiter.wait(incoming.platform, incoming.user))))]

    def _errors(self, incoming: Incoming, key: str, locale: str,
                **params: Any) -> list[Outgoing]:
        return [self._error(incoming, locale, key, **params)]

    def _refusals(self, incoming: Incoming, exc: Exception, locale: str, *,
                  private: bool) -> list[Outgoing]:
        return [self._refusal(incoming, locale, exc, private=private)]

    async def _unless_silenced(self, incoming: Incoming, answer: Answer) -> list[Outgoing]:
        """An answer given before any work (a refusal of the text alone, the rate limit's
        notice), in the channel's language — or nothing, when the channel is off or the
        speaker banned (bot/controls.py). Only such answers pay for this look at the
        table, which also tells its language to a process that has not met it yet (a
        first `.hlep` after a start answers an English table in English)."""
        table = await self.table_key(incoming.platform, incoming.channel)

        async def look(link: ConnectionLink) -> tuple[tuple[bool, str | None], Unit]:
            try:
                state = await self.state(link, incoming.platform, incoming.channel, table,
                                         create=False)
            except (LookupError, Moved):
                return (False, None), Unit()
            controls = await UnitOfWork(link, state).load(CONTROLS)
            gms = [gm.user for gm in state.table.gms]
            return (silenced(controls, incoming, gms, None), state.table.locale), Unit()
        try:
            quiet, locale = await self.writer.run(look)
        except Exception:
            log.exception("the group controls of a table could not be read")
            quiet, locale = False, None
        if quiet:
            return []
        if locale is not None:
            self.remember_locale(incoming.platform, incoming.channel, locale)
        return answer(self.cached_locale(incoming.platform, incoming.channel))

    @staticmethod
    def _check_before_work(cmd: Command, args: str, incoming: Incoming) -> None:
        """Refusals that need no state: a hidden command with public emoticon dice, and
        the command's own limits (its precheck) — before any die is rolled."""
        if cmd.hidden and incoming.platform_dice:
            # the emoticon dice of the post were rolled in public: a hidden roll or
            # check that used (or even named) them would quote a public value
            raise CommandError("core.error.hidden_platform_dice")
        if cmd.precheck is not None:
            cmd.precheck(args)

    def _command_at(self, body: str, channel: Table) -> tuple[Command, str]:
        """The command ``body`` runs at this table, or a refusal naming the systems that
        have it (`.atk` typed in a channel that plays another system)."""
        found = self.router.resolve(body, channel.system)
        if found is None:
            owners = self.router.owners_of(body)
            name = next(iter(owners.values()))[0] if owners else body[:20]
            base = channel.system.split("+")[0]
            known = systems.declared()  # the owners' manifests: none of them is imported
            layer = next((o for o in owners if (m := known.get(o)) is not None
                          and base in m.layer_of), None)
            if layer is not None:  # a layer the channel's base plays: say how to add it
                raise CommandError("core.error.other_system_layer", command=f".{name}",
                                   owners=list(owners), system=channel.system, base=base,
                                   layer=layer, name=f".{owners[layer][0]}")
            raise CommandError("core.error.other_system", command=f".{name}",
                               owners=list(owners), system=channel.system)
        return found

    async def _run(self, run: Run) -> list[Outgoing]:
        """Run the command on the writer; its replies once its work is committed. A
        conflict with another process (a row it created first) is tried once more,
        with the same dice, after the working set is dropped."""
        incoming = run.incoming
        try:
            try:
                outs = await self.writer.run(lambda link: self._work(link, run))
            except IntegrityError:
                log.info("a %s command met a concurrent change: tried again", run.name)
                self.writer.cache.clear()
                run.again()
                outs = await self.writer.run(lambda link: self._work(link, run))
        except Replayed:
            return []
        except Moved:
            raise
        except (CommandError, RuleError) as exc:
            return await self._record_only(incoming, self._refusal_of(run, exc))
        except DamagedDocument as exc:  # stored data this code cannot read: refused
            log.error("a %s command met a damaged document: %s", run.name, exc)
            return [self._error(incoming, self._locale_of(run), "core.error.damaged_document",
                                document=exc.key, where=exc.where)]
        except IntegrityError:
            # another process created the same row first: nothing was written by this
            # command, which the player may simply repeat
            return [self._error(incoming, self._locale_of(run), "core.error.conflict")]
        except BatchFailed:  # the commit of the batch failed: nothing of it was stored
            return [self._error(incoming, self._locale_of(run), "core.error.internal")]
        except Exception:
            log.exception("a %s command failed", run.name)
            return [self._error(incoming, self._locale_of(run), "core.error.internal")]
        if run.locale is not None:  # committed: the channel's language may be remembered
            self.remember_locale(incoming.platform, incoming.channel, run.locale)
        self._answer_recorded(incoming)
        return outs

    async def _work(self, link: ConnectionLink, run: Run) -> tuple[list[Outgoing], Unit]:
        """The command's work on the writer's connection: its replies and its unit."""
        incoming = run.incoming
        state = await self.state(link, incoming.platform, incoming.channel, run.table)
        channel = state.table
        run.system = channel.system
        run.read_locale = channel.locale or self.platform_locale(incoming.platform)
        uow = UnitOfWork(link, state)
        found = run.early or self.router.resolve(run.body, channel.system)
        if silenced(await uow.load(CONTROLS), incoming, [gm.user for gm in channel.gms],
                    found[0].names[0] if found else None):
            return [], self.unit(uow, incoming, [])  # off, or banned: not a word, no log
        if run.early is None:
            # known before its checks, so that a hidden command's refusal stays private
            run.command, args = self._command_at(run.body, channel)
            self._check_before_work(run.command, args, incoming)
        else:
            run.command, args = run.early
        self._refresh_gm_name(uow.channel.gms, incoming)
        ctx = Context(uow, self.services, incoming, run.dice, args, run.command.names[0],
                      run.read_locale)
        outs = await run.command.handler(ctx)
        if isinstance(run.source, PlatformDiceSource) and run.source.used:
            outs = self._mark_platform_dice(outs, run.source, ctx.locale)
        run.locale = uow.channel.locale or self.platform_locale(incoming.platform)
        outs = [self._bounded(out) for out in outs]
        outs = await self._logged(uow, incoming, outs, run.locale)
        return outs, self.unit(uow, incoming, outs)

    def unit(self, uow: UnitOfWork, incoming: Incoming, outs: list[Outgoing]) -> Unit:
        """The command's work for the writer; a binding or a move (``uow.moved``) drops
        the working set, a `.campaign show` does not."""
        cache = self.writer.cache

        def settle() -> None:
            uow.settle()
            cache.keep(uow.state)
        claim = (incoming.platform, incoming.message_id) \
            if incoming.message_id is not None else None
        return Unit(uow.changes(), claim, incoming.platform, outs, settle,
                    uow.moved, account=incoming.account)

    async def state(self, link: ConnectionLink, platform: str, channel: str,
                    table: str, create: bool = True) -> TableState:
        """The table ``table`` as the working set (or the database) has it, created with
        the defaults on first use; :class:`Moved` when ``channel`` no longer plays
        there."""
        actual = await self._table_in(link, platform, channel)
        if actual != table:
            raise Moved(actual)
        found = self.writer.cache.table(platform, table)
        if found is not None:
            return found
        row = (await link.read(sql.table_of_key(platform, table))).first()
        if row is None:
            if not create:
                raise LookupError(table)
            system = self.services.default_system
            result = await link.write_now(
                sql.insert_table(), {"platform": platform, "channel_key": table,
                                     "system": system})
            return TableState(Table(result.scalar_one(), platform, table, system))
        gms = [Gm(g.user, g.display_name) for g in await link.read(sql.gms_of(row.id))]
        return TableState(sql.table_record(row, gms))

    async def table_key(self, platform: str, channel: str) -> str:
        """The table a platform channel plays at: its own, or its campaign's (`.campaign`),
        from the working set when it knows (checked again under the table's lock)."""
        known, campaign = self.writer.cache.binding(platform, channel)
        if not known:
            async with self.reader.connect() as connection:
                campaign = (await connection.execute(sql.binding_of(platform, channel))).scalar()
        return campaign_key(campaign) if campaign else channel

    async def _table_in(self, link: ConnectionLink, platform: str, channel: str) -> str:
        known, campaign = self.writer.cache.binding(platform, channel)
        if not known:
            campaign = (await link.read(sql.binding_of(platform, channel))).scalar()
            self.writer.cache.keep_binding(platform, channel, campaign)
        return campaign_key(campaign) if campaign else channel

    def _was_answered(self, incoming: Incoming) -> bool:
        return incoming.message_id is not None \
            and (incoming.platform, incoming.message_id) in self._answered

    def _answer_recorded(self, incoming: Incoming) -> None:
        """The message's id is committed: a resend of it is dropped before any work.
        Bounded (:data:`ANSWERED_MEMORY`); older ids are still found by the store's
        unique key, after running the command again and dropping its work."""
        if incoming.message_id is not None:
            _bounded_put(self._answered, (incoming.platform, incoming.message_id), None)

    async def _record_only(self, incoming: Incoming, refusal: Outgoing) -> list[Outgoing]:
        """After a refused command, still remember its id (so a replay is not answered
        again) and keep the refusal in the outbox, in the next batch."""
        if incoming.message_id is None:
            return [refusal]

        async def record(_link: ConnectionLink) -> tuple[list[Outgoing], Unit]:
            outs = [refusal]
            return outs, Unit(claim=(incoming.platform, incoming.message_id or ""),
                              platform=incoming.platform, replies=outs,
                              account=incoming.account)
        try:
            outs = await self.writer.run(record)
        except Replayed:
            return []
        self._answer_recorded(incoming)
        return outs

    def _refusal_of(self, run: Run, exc: CommandError | RuleError) -> Outgoing:
        return self._refusal(run.incoming, self._locale_of(run), exc,
                             private=run.command is not None and run.command.hidden,
                             system=run.system)

    def _locale_of(self, run: Run) -> str:
        return run.read_locale or self.cached_locale(run.incoming.platform,
                                                     run.incoming.channel)

    @staticmethod
    def _refresh_gm_name(gms: list[Gm], incoming: Incoming) -> None:
        """A GM added by id (`.gm add @123`) gets their display name once they speak."""
        for gm in gms:
            if gm.user == incoming.user and incoming.display_name \
                    and gm.display_name != incoming.display_name:
                gm.display_name = incoming.display_name

    # --- the game log ---------------------------------------------------------------
    async def _logged(self, uow: UnitOfWork, incoming: Incoming, outs: list[Outgoing],
                      locale: str) -> list[Outgoing]:
        """Record the command and its replies in the table's running log, if any; a
        log that reaches its cap stops, and the table is told so."""
        channel = uow.channel
        book = self.services.logbook
        if book.idle(channel.platform, channel.channel_key):
            return outs
        log_row = await uow.active_log()
        book.remember(channel.platform, channel.channel_key,
                      log_row.id if log_row is not None else None)
        if log_row is None:
            return outs
        names = {incoming.user: incoming.display_name,
                 **{gm.user: gm.display_name for gm in channel.gms}}
        said = self._said(incoming, await self._speaker(uow, incoming.user))
        lines = [said, *log_book.lines_of(outs, names)]
        if uow.record(log_row, lines):
            return outs
        return [*outs, self._log_full(incoming, log_row.name, locale)]

    @staticmethod
    async def _speaker(uow: UnitOfWork, user: str) -> str | None:
        """The name a line is said as in the story: the speaker's active character, else
        the nickname replies call them by (`.nn 守密人`) — a keeper without a sheet is
        守密人 in the log as at the table, not their account."""
        return (await uow.character_before(user)
                or (await uow.load(NICKNAMES)).names.get(user))

    @staticmethod
    def _said(incoming: Incoming, character: str | None) -> Line:
        """The speaker's line, named by ``character`` (their active one) in the story."""
        return Line("said", incoming.user, incoming.display_name or incoming.user,
                    incoming.text[:MAX_SAID], character)

    def _log_full(self, incoming: Incoming, name: str, locale: str) -> Outgoing:
        return Outgoing("channel", incoming.channel, self.catalog.text(
            locale, "core.log.full", name=name, lines=log_book.MAX_LINES))

    async def _chatter(self, incoming: Incoming) -> list[Outgoing]:
        """A message that is no command: recorded when its table logs, else nothing —
        and no database read while the table is known to log nothing."""
        if incoming.is_private or any(map(has_lone_surrogate, (
                incoming.text, incoming.display_name, incoming.user, incoming.channel))):
            return []
        table = await self.table_key(incoming.platform, incoming.channel)
        book = self.services.logbook
        for _ in range(3):  # the table is read again under its lock: follow a move
            if book.idle(incoming.platform, table):
                return []
            try:
                async with self.lock(incoming.platform, table):
                    outs = await self.writer.run(
                        partial(self._log_chatter, incoming=incoming, table=table))
            except Moved as moved:
                table = moved.table
                continue
            except Replayed:
                return []
            except Exception:
                log.exception("a message could not be added to the game log")
                return []
            self._answer_recorded(incoming)
            return outs
        return []

    async def _log_chatter(self, link: ConnectionLink, *, incoming: Incoming,
                           table: str) -> tuple[list[Outgoing], Unit]:
        """The chatter recorded in ``table``'s running log, if any."""
        book = self.services.logbook
        try:
            state = await self.state(link, incoming.platform, incoming.channel, table,
                                     create=False)
        except LookupError:
            book.remember(incoming.platform, table, None)
            return [], Unit()
        uow = UnitOfWork(link, state)
        log_row = await uow.active_log()
        book.remember(incoming.platform, table, log_row.id if log_row is not None else None)
        if log_row is None or incoming.channel in (await uow.load(CONTROLS)).off:
            return [], Unit()  # no log, or the bot is off here: the log pauses too
        outs: list[Outgoing] = []
        said = self._said(incoming, await self._speaker(uow, incoming.user))
        if not uow.record(log_row, [said]):
            locale = state.table.locale or self.platform_locale(incoming.platform)
            outs = [self._log_full(incoming, log_row.name, locale)]
        return outs, self.unit(uow, incoming, outs)

    # --- replies ------------------------------------------------------------------
    def _refusal(self, incoming: Incoming, locale: str, exc: Exception, *,
                 private: bool, system: str | None = None) -> Outgoing:
        """The refusal of a command; ``private`` (a hidden command's) goes to the one who
        asked only — even its wording names what was checked in secret."""
        if isinstance(exc, RuleError):
            key = rule_key(exc.code)
            if not self.catalog.has(key, locale):
                out = self._error(incoming, locale, "core.error.rule", code=exc.code)
            else:
                out = self._error(incoming, locale, key, table_system=system, **exc.params)
        else:
            assert isinstance(exc, CommandError)
            out = self._error(incoming, locale, exc.key, table_system=system, **exc.params)
        if private:
            return replace(out, to="private", user=incoming.user, secret=True)
        return out

    def _error(self, incoming: Incoming, locale: str, key: str, /,
               table_system: str | None = None, **params: Any) -> Outgoing:
        """A refusal in the reader's words: at a table playing ``table_system``, its stats
        by their names there (精神力 is ace's SPI, ap20's MP)."""
        text = self.catalog.text_at(table_system, locale, key, **params)
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


def _bounded_put(memory: OrderedDict[Any, Any], key: Any, value: Any) -> None:
    """Remember ``key`` (the newest) in at most :data:`ANSWERED_MEMORY` entries (read at
    each call: a test lowers it)."""
    memory[key] = value
    memory.move_to_end(key)
    if len(memory) > ANSWERED_MEMORY:
        memory.popitem(last=False)
