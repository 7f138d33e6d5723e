"""The unit of work of one command: everything it reads and changes, by typed methods.

A handler never sees a database: it reads the table (``uow.channel``), its sheets,
documents and logs here and changes them here; the dispatcher commits the whole unit
— its changes, its message id and its replies — at once (:mod:`bot.store.writer`).

What a command reads comes from the writer's working set (:mod:`bot.store.working_set`)
or, the first time, from the database; the command gets copies. When it ends,
:meth:`UnitOfWork.changes` compares its copies with what was read and turns every
difference into a write — a sheet changed in place is written as surely as one
assigned — and :meth:`UnitOfWork.settle` brings the working set up to date once the
commit returned. A command that fails leaves nothing behind: nothing it changed was
written or kept. Documents are typed values (:class:`bot.documents.Doc`), read with
:meth:`load` and written with :meth:`save`.

The few writes that need an id from the database at once (a new sheet, a new game
log, a campaign's new table) run in a savepoint of the command's own, opened on the
first of them (:class:`bot.store.writer.Link`).
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

from sqlalchemy import insert, select

from bot.documents import DamagedDocument, Doc
from bot.gamelog import book
from bot.gamelog.book import Line
from bot.records import CAMPAIGN_PREFIX, Gm, Log, LogLine, Sheet, Table, campaign_key
from bot.store import statements as sql
from bot.store.models import utc_now
from bot.store.working_set import (
    Stored,
    TableState,
    copy_json,
    copy_log,
    copy_sheet,
    copy_table,
)

T = TypeVar("T")


class SheetClash(Exception):
    """Moving a table into a campaign would give a player two sheets of one name."""

    def __init__(self, names: list[str]) -> None:
        super().__init__(", ".join(names))
        self.names = names


class Link(Protocol):
    """How a unit of work reaches the database (the writer's connection, inside its
    batch: :class:`bot.store.writer.ConnectionLink`): reads, and the writes that
    cannot wait for the batch's end."""

    async def read(self, statement: Any) -> Any: ...

    async def write_now(self, statement: Any,
                        params: dict[str, Any] | None = None) -> Any: ...


class UnitOfWork:
    def __init__(self, link: Link, state: TableState) -> None:
        self.link = link
        self.state = state
        self.channel = copy_table(state.table)
        """The table the command plays at (assign ``system``, ``locale``; GMs through
        :meth:`add_gm` / :meth:`remove_gm`)."""
        self._sheets: dict[int, Sheet] = {}
        """This command's copies of the table's sheets (made when first handed out)."""
        self._added: dict[int, Sheet] = {}
        """Sheets this command created, as inserted."""
        self._deleted: set[int] = set()
        self._saved: dict[tuple[str, int | None, int], tuple[Doc[Any], dict[str, Any]]] = {}
        self._logs: list[Log] | None = None
        self._new_logs: dict[int, Log] = {}
        self._lines: list[sql.Change] = []
        self._extra: list[sql.Change] = []
        """Writes to tables the working set does not keep (bindings, kept messages)."""
        self._others: dict[int, tuple[Table, Table]] = {}
        """Other tables read (a campaign's): id → (as read, this command's copy)."""
        self._other_docs: dict[tuple[str, int], bool] = {}
        """Whether another table's documents read are stored (an update, not an insert)."""
        self.moved = False
        """Sheets or documents moved to another table (the working set is dropped)."""

    # --- sheets -------------------------------------------------------------------
    async def _stored_sheets(self) -> dict[int, Sheet]:
        state = self.state
        if state.sheets is None:
            rows = await self.link.read(sql.sheets_of(state.table.id))
            state.sheets = {row.id: sql.sheet_record(row) for row in rows}
        return state.sheets

    async def _all(self) -> list[Sheet]:
        stored = await self._stored_sheets()
        for sheet_id, sheet in stored.items():
            if sheet_id not in self._sheets:
                self._sheets[sheet_id] = copy_sheet(sheet)
        return [s for i, s in sorted(self._sheets.items()) if i not in self._deleted
                and s.channel_id == self.channel.id]

    async def sheets(self, owner: str | None = None, table: Table | None = None,
                     ) -> list[Sheet]:
        """``owner``'s sheets at the table (everyone's when None), oldest first;
        ``table``: another table's, read only."""
        if table is not None and table.id != self.channel.id:
            rows = await self.link.read(sql.sheets_of(table.id))
            found = [sql.sheet_record(row) for row in rows]
        else:
            found = await self._all()
        return [s for s in found if owner is None or s.owner == owner]

    async def active_sheets(self) -> list[Sheet]:
        """Every player's active sheet at the table, oldest first."""
        return [s for s in await self._all() if s.active]

    async def active_sheet(self, owner: str) -> Sheet | None:
        return next((s for s in await self._all() if s.active and s.owner == owner), None)

    async def character_before(self, owner: str) -> str | None:
        """The name of ``owner``'s active character as stored before this command — the
        one a line was said as (`.pc switch 鮑伯` is still said by 艾莉絲)."""
        return next((s.name for s in (await self._stored_sheets()).values()
                     if s.active and s.owner == owner
                     and s.channel_id == self.channel.id), None)

    async def sheet(self, sheet_id: int) -> Sheet | None:
        """The sheet ``sheet_id`` if it is at this table."""
        return next((s for s in await self._all() if s.id == sheet_id), None)

    async def add_sheet(self, owner: str, name: str, *, active: bool = True,
                        stats: dict[str, Any] | None = None) -> Sheet:
        await self._all()
        values = {"channel_id": self.channel.id, "owner": owner, "name": name,
                  "active": active, "stats": copy_json(stats or {})}
        result = await self.link.write_now(insert(sql.SHEETS).returning(sql.SHEETS.c.id),
                                           values)
        sheet = Sheet(result.scalar_one(), **values)
        self._added[sheet.id] = copy_sheet(sheet)
        self._sheets[sheet.id] = sheet
        return sheet

    async def delete_sheet(self, sheet: Sheet) -> None:
        """Delete a sheet with its documents (an ace mark…)."""
        self._deleted.add(sheet.id)

    # --- documents ------------------------------------------------------------------
    async def load(self, doc: Doc[T], sheet: Sheet | None = None,
                   table: Table | None = None) -> T:
        """The table's (or ``sheet``'s) document ``doc``; its default when never
        stored. :class:`DamagedDocument` when the stored value does not validate."""
        key = self._key(doc, sheet, table)
        where = self._where(sheet, table)
        saved = self._saved.get(key)
        if saved is not None:
            return doc.read(saved[1], doc.schema, where)
        stored = await self._stored(key)
        if stored is None:
            return doc.default()
        return doc.read(copy_json(stored.data), stored.schema, where)

    def save(self, doc: Doc[T], value: T, sheet: Sheet | None = None,
             table: Table | None = None) -> None:
        """Store ``value`` as ``doc`` when the command commits (a later load of this
        command reads it back)."""
        self._saved[self._key(doc, sheet, table)] = (doc, doc.dump(value))

    def _key(self, doc: Doc[Any], sheet: Sheet | None, table: Table | None,
             ) -> tuple[str, int | None, int]:
        if doc.per_character != (sheet is not None):
            raise TypeError(f"{doc.key}: a sheet's document needs the sheet, and only it")
        return doc.key, sheet.id if sheet is not None else None, (table or self.channel).id

    async def _stored(self, key: tuple[str, int | None, int]) -> Stored | None:
        name, sheet_id, table_id = key
        ours = table_id == self.channel.id
        if ours and (name, sheet_id) in self.state.docs:
            return self.state.docs[(name, sheet_id)]
        statement = sql.sheet_doc_of(sheet_id, name) if sheet_id is not None \
            else sql.doc_of(table_id, name)
        row = (await self.link.read(statement)).first()
        stored = Stored(row.data or {}, row.schema) if row is not None else None
        if not ours:
            self._other_docs[(name, table_id)] = stored is not None
        elif sheet_id not in self._added:
            self.state.docs[(name, sheet_id)] = stored
        return stored

    def _where(self, sheet: Sheet | None, table: Table | None) -> str:
        channel = table or self.channel
        where = f"{channel.platform}:{channel.channel_key}"
        return where if sheet is None else f"{where} (sheet {sheet.name!r})"

    # --- the table's GMs ------------------------------------------------------------
    def add_gm(self, user: str, display_name: str = "") -> None:
        self.channel.gms.append(Gm(user, display_name))

    def remove_gm(self, user: str) -> str | None:
        """Take ``user`` off the GMs; their display name ("" when unknown), or None
        when they were no GM."""
        for gm in self.channel.gms:
            if gm.user == user:
                self.channel.gms.remove(gm)
                return gm.display_name
        return None

    # --- game logs ------------------------------------------------------------------
    async def logs(self) -> list[Log]:
        """The table's game logs, oldest first (assign ``active``, ``exported_at``)."""
        if self._logs is None:
            state = self.state
            if state.logs is None:
                rows = await self.link.read(sql.logs_of(state.table.id))
                state.logs = [sql.log_record(row) for row in rows]
            self._logs = [copy_log(log) for log in state.logs]
        return self._logs

    async def active_log(self) -> Log | None:
        return next((log for log in await self.logs() if log.active), None)

    async def new_log(self, name: str, started_by: str) -> Log:
        logs = await self.logs()
        values = {"channel_id": self.channel.id, "name": name, "active": False,
                  "lines": 0, "chars": 0, "full": False, "started_by": started_by,
                  "created_at": utc_now()}
        result = await self.link.write_now(insert(sql.LOGS).returning(sql.LOGS.c.id), values)
        log = Log(result.scalar_one(), **values)  # type: ignore[arg-type]
        self._new_logs[log.id] = copy_log(log)
        logs.append(log)
        return log

    def record(self, log: Log, lines: list[Line]) -> bool:
        """Add ``lines`` to ``log``; False (nothing added, the log stopped and marked
        full) when they would pass ``book.MAX_LINES`` or ``book.MAX_CHARS``."""
        chars = sum(len(line.text) for line in lines)
        if log.lines + len(lines) > book.MAX_LINES or log.chars + chars > book.MAX_CHARS:
            log.active, log.full = False, True
            return False
        now = utc_now()
        self._lines.extend((sql.INSERT_LINE, {
            "log_id": log.id, "at": now, "kind": line.kind, "user": line.user,
            "name": line.name, "text": line.text, "character": line.character})
            for line in lines)
        log.lines += len(lines)
        log.chars += chars
        return True

    async def log_lines(self, log: Log) -> list[LogLine]:
        rows = await self.link.read(select(sql.LINES).where(
            sql.LINES.c.log_id == log.id).order_by(sql.LINES.c.id))
        return [LogLine(row.at, row.kind, row.user, row.name, row.text, row.character)
                for row in rows]

    async def public_line_counts(self, logs: list[Log]) -> dict[int, int]:
        """Lines of each log's players' copy (no private line), by log id."""
        from sqlalchemy import func

        if not logs:
            return {}
        counted = await self.link.read(
            select(sql.LINES.c.log_id, func.count()).where(
                sql.LINES.c.log_id.in_([log.id for log in logs]),
                sql.LINES.c.kind != "private").group_by(sql.LINES.c.log_id))
        return {log.id: 0 for log in logs} | {log_id: n for log_id, n in counted}

    # --- private messages a platform refused ----------------------------------------
    async def take_pending(self, user: str) -> list[str]:
        """The private messages kept for ``user`` at this table, oldest first, removed."""
        rows = list(await self.link.read(
            select(sql.PENDING.c.id, sql.PENDING.c.text)
            .where(sql.PENDING.c.channel_id == self.channel.id, sql.PENDING.c.user == user)
            .order_by(sql.PENDING.c.id)))
        self._extra.extend((sql.delete_pending(), {"_id": row.id}) for row in rows)
        return [row.text for row in rows]

    def keep_pending(self, user: str, text: str) -> None:
        """Keep a private message the platform refused, for `.gm pending`."""
        self._extra.append((sql.INSERT_PENDING, {  # created_at: the column's default
            "channel_id": self.channel.id, "user": user, "text": text}))

    # --- campaigns ------------------------------------------------------------------
    async def binding(self, platform: str, channel: str) -> str | None:
        """The campaign the platform channel is bound to, if any."""
        return (await self.link.read(sql.binding_of(platform, channel))).scalar()

    async def bind(self, platform: str, channel: str, campaign: str | None) -> None:
        """Bind the platform channel to ``campaign`` (None: unbind)."""
        now = await self.binding(platform, channel)
        key = {"_platform": platform, "_channel": channel}
        if campaign is None:
            if now is not None:
                self._extra.append((sql.delete_binding(), key))
        elif now is None:
            self._extra.append((sql.INSERT_BINDING, {
                "platform": platform, "channel_key": channel, "campaign": campaign}))
        elif now != campaign:
            self._extra.append((sql.update_binding(), {**key, "campaign": campaign}))
        self.moved = True

    async def table(self, platform: str, key: str, default_system: str,
                    create: bool = False) -> Table | None:
        """Another table (a campaign's), created with ``default_system`` if asked."""
        row = (await self.link.read(sql.table_of_key(platform, key))).first()
        if row is None:
            if not create:
                return None
            result = await self.link.write_now(
                insert(sql.CHANNELS).returning(sql.CHANNELS.c.id),
                {"platform": platform, "channel_key": key, "system": default_system})
            found = Table(result.scalar_one(), platform, key, default_system)
        else:
            gms = [Gm(g.user, g.display_name) for g in await self.link.read(sql.gms_of(row.id))]
            found = sql.table_record(row, gms)
        self._others[found.id] = (copy_table(found), found)
        return found

    def copy_gms(self, target: Table) -> None:
        """``target`` gets this table's GMs."""
        target.gms = [Gm(gm.user, gm.display_name) for gm in self.channel.gms]

    async def move_to(self, target: Table) -> int:
        """Bring this table's sheets (and the documents ``target`` lacks) to ``target``;
        the number of sheets moved. :class:`SheetClash`, changing nothing, when a
        player has a sheet of the same name on both sides."""
        ours = await self.sheets()
        theirs = await self.sheets(table=target)
        taken = {(c.owner, c.name) for c in theirs}
        clashes = sorted({c.name for c in ours if (c.owner, c.name) in taken})
        if clashes:
            raise SheetClash(clashes)
        active_owners = {c.owner for c in theirs if c.active}
        for sheet in ours:
            sheet.channel_id = target.id
            sheet.active = sheet.active and sheet.owner not in active_owners
        theirs_keys = set((await self.link.read(select(sql.STATES.c.key).where(
            sql.STATES.c.channel_id == target.id))).scalars())
        our_keys = (await self.link.read(select(sql.STATES.c.key).where(
            sql.STATES.c.channel_id == self.channel.id))).scalars()
        self._extra.extend((sql.move_docs(), {
            "_from": self.channel.id, "_key": key, "channel_id": target.id})
            for key in our_keys if key not in theirs_keys)  # the campaign's own state wins
        self.moved = True
        return len(ours)

    # --- the end of the command -----------------------------------------------------
    def changes(self) -> list[sql.Change]:
        """Every write the command's work comes to, in an order the foreign keys
        accept (a sheet's documents before the sheet)."""
        out: list[sql.Change] = []
        out.extend(self._table_changes(self.state.table, self.channel))
        for before, after in self._others.values():
            out.extend(self._table_changes(before, after))
        stored = self.state.sheets or {}
        for sheet_id, sheet in self._sheets.items():
            if sheet_id in self._deleted:
                continue
            was = self._added.get(sheet_id) or stored.get(sheet_id)
            if was is None or was != sheet:
                out.append((sql.update_sheet(), {
                    "_id": sheet_id, "channel_id": sheet.channel_id, "owner": sheet.owner,
                    "name": sheet.name, "active": sheet.active,
                    "stats": copy_json(sheet.stats)}))
        for (key, doc_sheet, table_id), (doc, data) in self._saved.items():
            if doc_sheet in self._deleted:
                continue
            exists = self._exists(key, doc_sheet, table_id)
            owner = doc_sheet if doc_sheet is not None else table_id
            if exists:
                out.append((sql.update_doc(doc_sheet is not None), {
                    "_owner": owner, "_key": key, "data": data, "schema": doc.schema}))
            else:
                column = "character_id" if doc_sheet is not None else "channel_id"
                out.append((sql.insert_doc(doc_sheet is not None), {
                    column: owner, "key": key, "data": data, "schema": doc.schema,
                    "version": 0}))
        for sheet_id in sorted(self._deleted):
            out.append((sql.delete_sheet_docs(), {"_id": sheet_id}))
            out.append((sql.delete_sheet(), {"_id": sheet_id}))
        if self._logs is not None:
            before_logs = {log.id: log for log in self.state.logs or []} | self._new_logs
            for log in self._logs:
                if before_logs.get(log.id) != log:
                    out.append((sql.update_log(), {
                        "_id": log.id, "active": log.active, "full": log.full,
                        "lines": log.lines, "chars": log.chars,
                        "exported_at": log.exported_at}))
        return [*out, *self._lines, *self._extra]

    def _exists(self, key: str, sheet_id: int | None, table_id: int) -> bool:
        if table_id != self.channel.id:
            return self._other_docs.get((key, table_id), False)
        return self.state.docs.get((key, sheet_id)) is not None

    @staticmethod
    def _table_changes(before: Table, after: Table) -> list[sql.Change]:
        if before == after:  # most commands change nothing of the table
            return []
        out: list[sql.Change] = []
        if (before.system, before.locale, before.default_die) != \
                (after.system, after.locale, after.default_die):
            out.append((sql.update_table(), {"_id": after.id, "system": after.system,
                                             "locale": after.locale,
                                             "default_die": after.default_die}))
        old = {gm.user: gm.display_name for gm in before.gms}
        new = {gm.user: gm.display_name for gm in after.gms}
        for user in old.keys() - new.keys():
            out.append((sql.delete_gm(), {"_table": after.id, "_user": user}))
        for gm in after.gms:
            if gm.user not in old:
                out.append((sql.INSERT_GM, {"channel_id": after.id, "user": gm.user,
                                              "display_name": gm.display_name,
                                              "since": utc_now()}))
            elif old[gm.user] != gm.display_name:
                out.append((sql.rename_gm(), {"_table": after.id, "_user": gm.user,
                                              "display_name": gm.display_name}))
        return out

    def settle(self) -> None:
        """After the commit that holds :meth:`changes`: the working set is what is
        stored now (the writer drops it instead when the command moved a table)."""
        state = self.state
        if state.table != self.channel:
            state.table = copy_table(self.channel)
        if state.sheets is not None:
            for sheet_id, sheet in self._sheets.items():
                if sheet_id in self._deleted or sheet.channel_id != state.table.id:
                    state.sheets.pop(sheet_id, None)
                elif state.sheets.get(sheet_id) != sheet:  # only what changed is copied
                    state.sheets[sheet_id] = copy_sheet(sheet)
        for sheet_id in self._deleted:
            for key in [k for k in state.docs if k[1] == sheet_id]:
                del state.docs[key]
        for (name, owner, table_id), (doc, data) in self._saved.items():
            if table_id == state.table.id and owner not in self._deleted:
                state.docs[(name, owner)] = Stored(copy_json(data), doc.schema)
        if self._logs is not None:
            state.logs = [copy_log(log) for log in self._logs]


__all__ = ["CAMPAIGN_PREFIX", "DamagedDocument", "Gm", "Link", "Log", "LogLine", "Sheet",
           "SheetClash", "Table", "UnitOfWork", "campaign_key"]
