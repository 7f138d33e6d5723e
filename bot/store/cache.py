"""The working set: what the group-commit writer keeps in memory between commands.

The writer's one session lives as long as the process (``expire_on_commit=False``);
its identity map keeps the rows it loaded, current as of the last commit. This
module adds what an identity map cannot do: look rows up by their natural keys
(the channel ``(platform, key)``, the binding of a platform channel — including
"not bound" —, the active sheet of ``(table, owner)``), hold them strongly, and
bound their number (least recently used tables leave first, with everything held
for them).

It is never wrong, because every change passes where it can see it:

- **Changes of this process** go through the writer's session. Before a flush the
  natural-key entries a changed row could move out of are dropped (a sheet made
  inactive, a binding removed, a state row moved by `.campaign bind`); the rows
  themselves stay current in the identity map.
- **A command that fails** (its savepoint rolled back) leaves the rows it touched
  expired or gone: every table one of them belongs to is dropped whole
  (:meth:`WorkingSet.forget_touched`), and read again when next used.
- **Bulk statements** (an UPDATE or DELETE outside a flush, e.g.
  ``session.execute(update(Character)…)``) on a cached table bypass the identity
  map's bookkeeping: the whole working set is dropped after the command.
- **A row handed out is always live**: one that is expired, or no longer in the
  session, counts as not cached and is read again (a safety net under the rules
  above).
- **JSON changed in place** (``row.data["x"] = 1`` instead of assigning a new dict —
  the ORM cannot see it, so it is never written) would leave the copy in memory
  unlike the stored one: every document and sheet a command gets through
  :class:`bot.context.Context` is fingerprinted when handed out and checked when
  the command ends; one changed but not written is dropped (and a warning logged:
  it is a bug of the handler). A row an undone attempt created is out of the session
  by then, never handed out again: it is not checked.
- **Other connections and processes** are noticed at the start of every batch
  (:mod:`bot.store.group`: SQLite's ``PRAGMA data_version``, PostgreSQL's
  ``store_epoch`` row), and the whole working set is dropped.
- **A failed commit** rolls the batch back: the whole working set is dropped.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import event, inspect
from sqlalchemy.orm import Session
from sqlalchemy.orm.util import identity_key

from bot.store.models import (
    Channel,
    ChannelBinding,
    ChannelGM,
    ChannelState,
    Character,
    CharacterState,
    GameLog,
)

log = logging.getLogger(__name__)

CACHED = (Channel, ChannelGM, ChannelBinding, Character, ChannelState, CharacterState,
          GameLog)
"""Row classes the working set may hold (or index) — a change to one matters."""
CACHED_TABLES = frozenset(cls.__tablename__ for cls in CACHED)

TABLES = 2_000
"""Tables kept by default (each: its channel row, GMs, state documents, active
sheets — a few kB); the least recently used one leaves first."""

BINDINGS_PER_TABLE = 4
"""Platform-channel bindings remembered per table kept (most name no campaign)."""

_SHEET_KEYS = ("channel_id", "owner", "active")


@dataclass(eq=False)
class Entry:
    """One table in memory: its channel row (GMs loaded), the active sheet of each
    owner looked up (None: none active), and every row held for it."""

    key: tuple[str, str]
    channel: Channel
    active: dict[str, Character | None] = field(default_factory=dict)
    held: set[Any] = field(default_factory=set)


class WorkingSet:
    def __init__(self, session: Session, tables: int = TABLES) -> None:
        self.session = session
        self.limit = max(2, tables)
        self.tables: OrderedDict[tuple[str, str], Entry] = OrderedDict()
        self.by_id: dict[int, Entry] = {}
        self.sheets: dict[int, Entry] = {}
        """Character id → the table whose entry holds that sheet."""
        self.bindings: OrderedDict[tuple[str, str], str | None] = OrderedDict()
        self.touched: set[Any] = set()
        """Cached-kind rows flushed since the command began."""
        self.wrote = False
        """The current command sent an INSERT, UPDATE or DELETE."""
        self.changed = False
        """A cached-kind table was written in the current batch (PostgreSQL's epoch)."""
        self.bulk = False
        """An UPDATE or DELETE outside a flush hit a cached table in this command."""
        self._flushing = False
        self.fast = False
        """The current command runs on the fast path (:meth:`bot.store.group.GroupWriter.fast`): its
        changes stay in memory until the batch's one flush; SQL that would write them
        earlier raises :class:`NeedsSavepoint` instead."""
        self.base: set[Any] = set()
        """States of the rows pending in the session when the command began (its
        batch-mates')."""
        self.lent: list[tuple[Any, str, str]] = []
        """(row, JSON attribute, fingerprint) handed out to the current command."""
        self._warned: set[tuple[str, str]] = set()
        self.hits = 0
        self.misses = 0
        self.cleared = 0
        event.listen(session, "before_flush", self._before_flush)
        event.listen(session, "after_flush_postexec", self._after_flush)

    # --- look-ups -------------------------------------------------------------------
    def _live(self, row: Any) -> bool:
        state = inspect(row)
        return state.session_id == self.session.hash_key and not state.expired_attributes

    def channel(self, platform: str, key: str) -> Channel | None:
        entry = self.tables.get((platform, key))
        if entry is None or not self._live(entry.channel):
            self.misses += 1
            return None
        self.tables.move_to_end(entry.key)
        self.hits += 1
        return entry.channel

    def keep_channel(self, channel: Channel) -> None:
        """Hold ``channel`` (persistent, GMs loaded) under its natural key."""
        key = (channel.platform, channel.channel_key)
        entry = self.tables.get(key)
        if entry is not None and entry.channel is channel:
            self.tables.move_to_end(key)
            return
        if entry is not None:
            self._drop(entry)
        entry = Entry(key, channel)
        self.tables[key] = entry
        self.by_id[channel.id] = entry

    def binding(self, platform: str, channel: str) -> tuple[bool, str | None]:
        """(known, campaign) of a platform channel; campaign None: not bound."""
        key = (platform, channel)
        if key in self.bindings and not self._pending(ChannelBinding):
            self.bindings.move_to_end(key)
            return True, self.bindings[key]
        return False, None

    def keep_binding(self, platform: str, channel: str, campaign: str | None) -> None:
        if self._pending(ChannelBinding):
            return
        self.bindings[(platform, channel)] = campaign
        if len(self.bindings) > self.limit * BINDINGS_PER_TABLE:
            self.bindings.popitem(last=False)

    def active(self, channel_id: int, owner: str) -> tuple[bool, Character | None]:
        """(known, sheet): the active sheet of ``owner`` at the table, if looked up
        before and nothing pending in the session could have changed it."""
        entry = self.by_id.get(channel_id)
        if entry is None or owner not in entry.active or self._pending(Character):
            return False, None
        sheet = entry.active[owner]
        if sheet is not None and not self._live(sheet):
            return False, None
        return True, sheet

    def keep_active(self, channel_id: int, owner: str, sheet: Character | None) -> None:
        entry = self.by_id.get(channel_id)
        if entry is None or self._pending(Character):
            return
        entry.active[owner] = sheet
        if sheet is not None:
            entry.held.add(sheet)
            self.sheets[sheet.id] = entry

    def row(self, cls: type[Any], pk: tuple[Any, ...]) -> Any:
        """The loaded row ``cls`` with primary key ``pk`` from the identity map (no
        SQL), or None when it is not there or not fully loaded."""
        obj = self.session.identity_map.get(identity_key(cls, pk))
        if obj is None or inspect(obj).expired_attributes:
            return None
        return obj

    def hold(self, channel_id: int, row: Any) -> None:
        """Keep ``row`` (a state document) in memory as long as its table is kept."""
        entry = self.by_id.get(channel_id)
        if entry is not None:
            entry.held.add(row)
            if isinstance(row, CharacterState):
                self.sheets[row.character_id] = entry

    def _pending(self, cls: type[Any]) -> bool:
        """Whether the current command has a change of a ``cls`` row pending (its
        batch-mates' pending rows belong to other tables: each table's commands wait for
        the commit of the one before, see :meth:`bot.core.Core.handle`)."""
        return any(isinstance(obj, cls) for obj in self.own_pending())

    def own_pending(self) -> list[Any]:
        """Rows the current command added, changed or deleted in memory, not flushed."""
        return [obj for state in self._pending_states() - self.base
                if (obj := state.obj()) is not None]

    def _pending_states(self) -> set[Any]:
        """The states of every row pending in the session — the sets the session keeps
        itself (its ``new``/``dirty``/``deleted`` build objects and an identity set on
        each call, and a batch holds up to 200 commands' rows: set operations in C keep
        a command's cost flat however full its batch is)."""
        session = self.session
        return session.identity_map._modified | session._new.keys() \
            | session._deleted.keys()

    # --- commands -------------------------------------------------------------------
    def lend(self, row: Any, attr: str) -> None:
        """``row`` is handed to a handler: remember its JSON ``attr`` as it is now."""
        self.lent.append((row, attr, _fingerprint(row.__dict__.get(attr))))

    def _check_lent(self) -> None:
        """Drop every lent row whose JSON was changed in place and not written."""
        lent, self.lent = self.lent, []
        session = self.session
        for row, attr, before in lent:
            values = row.__dict__
            if attr not in values:
                continue
            state = inspect(row)
            if state.session_id != session.hash_key:
                # no longer in the session: a row an undone attempt of this command
                # created (the fast path's, before it ran again in a savepoint; a
                # conflict's, before its retry), taken out by the undo with the value it
                # was assigned — never handed out again, so its copy cannot be wrong
                continue
            if row in self.touched or state.modified or state.pending:
                continue  # written by this command's flush, or by the batch's
            if _fingerprint(values[attr]) == before:
                continue
            kind = (type(row).__name__, attr)
            if kind not in self._warned:
                self._warned.add(kind)
                log.warning("%s.%s was changed in place and not stored; assign a new "
                            "value instead (the copy in memory is dropped)", *kind)
            if not self._forget_table_of(row):
                self.clear()
            elif inspect(row).session_id == self.session.hash_key:
                self.session.expire(row, [attr])

    def begin_command(self) -> None:
        self.touched = set()
        self.lent = []
        self.wrote = self.bulk = self._flushing = self.fast = False
        self.base = self._pending_states()

    def clean(self) -> bool:
        """Nothing written and nothing pending since the command began."""
        return not (self.wrote or self.own_pending())

    def end_command(self) -> None:
        """After a command (released or rolled back): drop what a bulk statement may
        have made wrong, and the tables past the bound."""
        if self.lent:
            self._check_lent()
        if self.bulk:
            self.clear()
        self.touched = set()
        self.base = set()
        self.wrote = self.bulk = self.fast = False
        while len(self.tables) > self.limit:
            self._drop(next(iter(self.tables.values())), expunge=True)

    def pending_rows(self) -> set[Any]:
        """Rows the current command changed in memory or flushed (taken before a
        rollback expires them)."""
        return self.touched | set(self.own_pending())

    def undo(self) -> None:
        """After a fast-path command failed: forget its changes, which are still in
        memory only (nothing of it was flushed) — its new rows leave the session, its
        changed and deleted ones are read again when next used — and drop every table
        they belong to."""
        own = self.own_pending()
        self.forget_touched(self.touched | set(own))  # while their keys can be read
        session = self.session
        for row in own:
            if row not in session:
                continue  # gone with another (expiring a channel expunges its new GMs)
            if row in session.dirty and row not in session.deleted:
                session.expire(row)
            else:
                session.expunge(row)

    def forget_touched(self, rows: set[Any]) -> None:
        """After a savepoint rollback: drop every table one of ``rows`` belongs to
        (its rows are expired or gone, its negative entries may be wrong), or
        everything when that cannot be told."""
        for row in rows:
            if not isinstance(row, CACHED):
                continue
            if isinstance(row, ChannelBinding):
                self._forget_binding(row)
            elif not self._forget_table_of(row):
                self.clear()
                return

    def _forget_table_of(self, row: Any) -> bool:
        """Drop the tables ``row`` belongs to (before and after a change); False when
        its keys cannot be read without loading it."""
        values = row.__dict__  # never loads: a rolled-back row may be expired
        committed = inspect(row).committed_state
        if isinstance(row, Channel):
            if "id" in values and values["id"] in self.by_id:
                self._drop(self.by_id[values["id"]])
            key = (values.get("platform"), values.get("channel_key"))
            if key in self.tables:
                self._drop(self.tables[key])
            return "id" in values or (None not in key)
        column = "character_id" if isinstance(row, CharacterState) else "channel_id"
        index = self.sheets if isinstance(row, CharacterState) else self.by_id
        if column not in values:
            return False
        for value in (values[column], committed.get(column)):
            if isinstance(value, int) and value in index:
                self._drop(index[value])
        return True

    def _forget_binding(self, row: ChannelBinding) -> None:
        values = row.__dict__
        if "platform" in values and "channel_key" in values:
            self.bindings.pop((values["platform"], values["channel_key"]), None)
        else:
            self.bindings.clear()

    # --- dropping -------------------------------------------------------------------
    def _drop(self, entry: Entry, expunge: bool = False) -> None:
        """Forget ``entry``; ``expunge`` (between commands only) also takes its rows
        out of the session, so that their memory goes at once."""
        if self.tables.get(entry.key) is entry:
            del self.tables[entry.key]
        channel_id = entry.channel.__dict__.get("id")
        if channel_id is not None and self.by_id.get(channel_id) is entry:
            del self.by_id[channel_id]
        for row in entry.held:
            row_id = row.__dict__.get("id" if isinstance(row, Character) else "character_id")
            if isinstance(row, (Character, CharacterState)) \
                    and self.sheets.get(row_id) is entry:
                del self.sheets[row_id]
        if expunge:
            session = self.session
            for row in (entry.channel, *entry.held):
                state = inspect(row)
                if state.session_id == session.hash_key and not state.modified \
                        and row not in session.new:
                    session.expunge(row)  # cascades to the channel's GMs

    def clear(self) -> None:
        """Drop everything (another process wrote, a batch failed, a bulk statement):
        the session forgets every row, so no query returns an old copy."""
        self.cleared += 1
        self.tables.clear()
        self.by_id.clear()
        self.sheets.clear()
        self.bindings.clear()
        session = self.session
        if not (session.new or session.dirty or session.deleted):
            session.expunge_all()

    # --- what the session and its connection see ------------------------------------
    def _before_flush(self, session: Session, _context: Any, _instances: Any) -> None:
        """Drop the natural-key entries a flushed change could make wrong."""
        if self.fast and self.own_pending():
            raise NeedsSavepoint("a fast-path command flushes its own changes")
        self._flushing = True
        for group, how in ((session.new, "new"), (session.dirty, "dirty"),
                           (session.deleted, "deleted")):
            for row in group:
                if not isinstance(row, CACHED):
                    continue
                self.touched.add(row)
                if isinstance(row, ChannelBinding):
                    self._forget_binding(row)
                elif isinstance(row, Character):
                    self._sheet_moves(row, how)
                elif isinstance(row, (ChannelState, CharacterState)) and how != "new":
                    if how == "deleted" or _moved(row, _STATE_KEYS):
                        self._forget_table_of(row)
                elif isinstance(row, Channel) and how != "new" and (
                        how == "deleted" or _moved(row, ("platform", "channel_key"))):
                    self._forget_table_of(row)

    def _after_flush(self, _session: Session, _context: Any) -> None:
        self._flushing = False

    def _sheet_moves(self, row: Character, how: str) -> None:
        if how == "dirty" and not _moved(row, _SHEET_KEYS):
            return  # its stats changed: still the active sheet of the same owner
        values = row.__dict__
        committed = inspect(row).committed_state
        for channel_id, owner in (
                (values.get("channel_id"), values.get("owner")),
                (committed.get("channel_id", values.get("channel_id")),
                 committed.get("owner", values.get("owner")))):
            entry = self.by_id.get(channel_id) if isinstance(channel_id, int) else None
            if entry is None:
                continue
            if isinstance(owner, str):
                entry.active.pop(owner, None)
            else:
                entry.active.clear()

    def statement(self, sql: str) -> None:
        """Every statement the writer's connection runs (an engine event)."""
        verb = sql[:7].upper()
        if verb.startswith(("SELECT", "SAVEPOI", "RELEASE", "ROLLBAC", "PRAGMA", "BEGIN")):
            return
        words = sql.split(None, 3)
        if verb.startswith("INSERT"):
            table = words[2] if len(words) > 2 else ""
        elif verb.startswith("UPDATE"):
            table = words[1] if len(words) > 1 else ""
        elif verb.startswith("DELETE"):
            table = words[2] if len(words) > 2 else ""
        else:
            return
        self.wrote = True
        table = table.strip('"')
        if self.fast and not self._flushing and table != "processed_messages":
            raise NeedsSavepoint(f"a fast-path command writes {table}")
        if table in CACHED_TABLES:
            self.changed = True
            if not self._flushing and not verb.startswith("INSERT"):
                self.bulk = True


class NeedsSavepoint(Exception):
    """A fast-path command is about to write SQL of its own (a flush it asked for, an
    autoflush before a query, a bulk statement): raised before anything is written,
    so that the command can be run again the old way, in a savepoint."""


_STATE_KEYS = ("channel_id", "character_id", "key")


def _fingerprint(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr)


def _moved(row: Any, keys: tuple[str, ...]) -> bool:
    """Whether one of ``keys`` (the columns a natural key is made of) has changed."""
    attrs = inspect(row).attrs
    return any(attrs[key].history.has_changes() for key in keys if key in attrs)
