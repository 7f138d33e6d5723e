"""The unit of work of one command: everything it reads and changes, by typed methods.

A handler never sees a database session: it reads the table (``uow.channel``), its
sheets and its documents here, changes them here, and the dispatcher commits the
whole unit — its changes, its message id and its replies — at once
(:mod:`bot.dispatcher`). The methods are small and typed on purpose: the store
under them (:mod:`bot.store`) may keep rows in memory, group commits or move to
another engine without a handler noticing.

Sheets and the table are returned as records whose attributes a handler may assign
(``sheet.stats = {...}``, ``uow.channel.system = "ace"``); documents are typed
values (:class:`bot.documents.Doc`) read with :meth:`UnitOfWork.load` and written
with :meth:`UnitOfWork.save`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.documents import DamagedDocument, Doc, Document
from bot.store.models import (
    CAMPAIGN_PREFIX,
    Channel,
    ChannelBinding,
    ChannelGM,
    ChannelState,
    Character,
    CharacterState,
    GameLog,
    GameLogLine,
    PendingPrivate,
    campaign_key,
)

if TYPE_CHECKING:
    from bot.store.cache import WorkingSet

T = TypeVar("T")

Table = Channel
"""A table (a channel, or a campaign several channels play at): id, platform,
channel_key, system, locale, default_die, gms."""
Sheet = Character
"""A character sheet: id, channel_id, owner, name, active, stats."""
Gm = ChannelGM
Log = GameLog
"""A game log of the table: id, name, active, full, lines, chars, started_by,
exported_at (assign ``active`` and ``exported_at``)."""
LogLine = GameLogLine
"""One line of a game log: at, kind, user, name, text."""


class SheetClash(Exception):
    """Moving a table into a campaign would give a player two sheets of one name."""

    def __init__(self, names: list[str]) -> None:
        super().__init__(", ".join(names))
        self.names = names


class UnitOfWork:
    def __init__(self, session: AsyncSession, channel: Channel,
                 cache: WorkingSet | None = None) -> None:
        self.session = session
        """The store's own handle (not for handlers: :mod:`bot.gamelog` and the
        dispatcher use it)."""
        self.channel = channel
        self.cache = cache
        self._saves: dict[tuple[str, int | None, int | None],
                          tuple[Doc[Any], dict[str, Any], Sheet | None, Table | None]] = {}
        """Documents saved by the command, written when it ends (a later load reads
        them back)."""

    # --- sheets -------------------------------------------------------------------
    async def sheets(self, owner: str | None = None, table: Table | None = None,
                     ) -> list[Sheet]:
        """``owner``'s sheets at the table (everyone's when None), oldest first."""
        where = [Character.channel_id == (table or self.channel).id]
        if owner is not None:
            where.append(Character.owner == owner)
        return list(await self.session.scalars(
            select(Character).where(*where).order_by(Character.id)))

    async def active_sheets(self) -> list[Sheet]:
        """Every player's active sheet at the table, oldest first."""
        return list(await self.session.scalars(select(Character).where(
            Character.channel_id == self.channel.id, Character.active.is_(True))
            .order_by(Character.id)))

    async def active_sheet(self, owner: str) -> Sheet | None:
        cache = self.cache
        if cache is not None:
            known, sheet = cache.active(self.channel.id, owner)
            if known:
                if sheet is not None:
                    cache.lend(sheet, "stats")
                return sheet
        sheet = await self.session.scalar(select(Character).where(
            Character.channel_id == self.channel.id, Character.owner == owner,
            Character.active.is_(True)))
        if cache is not None:
            cache.keep_active(self.channel.id, owner, sheet)
            if sheet is not None:
                cache.lend(sheet, "stats")
        return sheet

    async def sheet(self, sheet_id: int) -> Sheet | None:
        """The sheet ``sheet_id`` if it is at this table."""
        found = await self.session.get(Character, sheet_id)
        return found if found is not None and found.channel_id == self.channel.id else None

    def add_sheet(self, owner: str, name: str, *, active: bool = True,
                  stats: dict[str, Any] | None = None) -> Sheet:
        sheet = Character(channel_id=self.channel.id, owner=owner, name=name,
                          active=active, stats=dict(stats or {}))
        self.session.add(sheet)
        return sheet

    async def delete_sheet(self, sheet: Sheet) -> None:
        """Delete a sheet with its documents (an ace mark…), which reference it: they
        go first, or the foreign key refuses the sheet's deletion."""
        for row in await self.session.scalars(select(CharacterState).where(
                CharacterState.character_id == sheet.id)):
            await self.session.delete(row)
        await self.session.flush()
        await self.session.delete(sheet)

    # --- documents ------------------------------------------------------------------
    async def load(self, doc: Doc[T], sheet: Sheet | None = None,
                   table: Table | None = None) -> T:
        """The table's (or ``sheet``'s) document ``doc``; its default when never
        stored. :class:`DamagedDocument` when the stored value does not validate."""
        saved = self._saves.get(_doc_key(doc, sheet, table))
        if saved is not None:
            return doc.read(saved[1], doc.schema, self._where(sheet, table))
        row = await self._row(doc.key, doc.schema, doc.per_character, sheet, table)
        where = self._where(sheet, table)
        value = doc.read(row.data, row.schema, where)
        if row.schema != doc.schema and row.data:
            row.data, row.schema = doc.dump(value), doc.schema  # migrated once, stored
        return value

    def save(self, doc: Doc[T], value: T, sheet: Sheet | None = None,
             table: Table | None = None) -> None:
        """Store ``value`` as ``doc`` when the command commits."""
        self._saves[_doc_key(doc, sheet, table)] = (doc, doc.dump(value), sheet, table)

    async def document(self, doc: type[Document], character: Character | None = None,
                       ) -> ChannelState | CharacterState:
        """The old raw-JSON way (:class:`bot.documents.Document`): the stored row."""
        row = await self._row(doc.key, doc.schema, doc.per_character, character, None)
        if row.schema != doc.schema:
            row.data, row.schema = doc.current(dict(row.data or {}), row.schema), doc.schema
        return row

    async def flush_saves(self) -> None:
        """Write what :meth:`save` was given (the dispatcher calls it after the handler)."""
        saves, self._saves = self._saves, {}
        for doc, data, sheet, table in saves.values():
            row = await self._row(doc.key, doc.schema, doc.per_character, sheet, table)
            row.data, row.schema = data, doc.schema

    async def _row(self, key: str, schema: int, per_character: bool,
                   sheet: Sheet | None, table: Table | None,
                   ) -> ChannelState | CharacterState:
        row: ChannelState | CharacterState | None
        cache = self.cache
        if per_character:
            if sheet is None:
                raise TypeError(f"{key} is a sheet's document: name the sheet")
            cpk = (sheet.id, key)
            row = cache.row(CharacterState, cpk) if cache is not None else None
            if row is None:
                row = await self.session.get(CharacterState, cpk)
                if row is None:
                    row = CharacterState(character_id=sheet.id, key=key, data={},
                                         schema=schema)
                    self.session.add(row)
                if cache is not None:
                    cache.hold(sheet.channel_id, row)
        else:
            channel = table or self.channel
            pk = (channel.id, key)
            row = cache.row(ChannelState, pk) if cache is not None else None
            if row is None:
                row = await self.session.get(ChannelState, pk)
                if row is None:
                    row = ChannelState(channel_id=channel.id, key=key, data={},
                                       schema=schema)
                    self.session.add(row)
                if cache is not None:
                    cache.hold(channel.id, row)
        if cache is not None:
            cache.lend(row, "data")
        return row

    def _where(self, sheet: Sheet | None, table: Table | None) -> str:
        channel = table or self.channel
        where = f"{channel.platform}:{channel.channel_key}"
        return where if sheet is None else f"{where} (sheet {sheet.name!r})"

    # --- the table's GMs ------------------------------------------------------------
    def add_gm(self, user: str, display_name: str = "") -> None:
        self.channel.gms.append(ChannelGM(user=user, display_name=display_name))

    def remove_gm(self, user: str) -> str | None:
        """Take ``user`` off the GMs; their display name ("" when unknown), or None
        when they were no GM."""
        for row in self.channel.gms:
            if row.user == user:
                self.channel.gms.remove(row)
                return row.display_name
        return None

    # --- private messages a platform refused ----------------------------------------
    async def take_pending(self, user: str) -> list[str]:
        """The private messages kept for ``user`` at this table, oldest first, removed."""
        rows = list(await self.session.scalars(
            select(PendingPrivate)
            .where(PendingPrivate.channel_id == self.channel.id, PendingPrivate.user == user)
            .order_by(PendingPrivate.id)))
        if rows:
            await self.session.execute(delete(PendingPrivate).where(
                PendingPrivate.id.in_([row.id for row in rows])))
        return [row.text for row in rows]

    # --- game logs ------------------------------------------------------------------
    async def logs(self) -> list[Log]:
        """The table's game logs, oldest first."""
        return list(await self.session.scalars(select(GameLog).where(
            GameLog.channel_id == self.channel.id).order_by(GameLog.id)))

    async def new_log(self, name: str, started_by: str) -> Log:
        log = GameLog(channel_id=self.channel.id, name=name, active=False, lines=0,
                      chars=0, full=False, started_by=started_by)
        self.session.add(log)
        await self.session.flush()
        return log

    async def log_lines(self, log: Log) -> list[LogLine]:
        return list(await self.session.scalars(select(GameLogLine).where(
            GameLogLine.log_id == log.id).order_by(GameLogLine.id)))

    async def public_line_counts(self, logs: list[Log]) -> dict[int, int]:
        """Lines of each log's players' copy (no private line), by log id."""
        if not logs:
            return {}
        counted = await self.session.execute(
            select(GameLogLine.log_id, func.count()).where(
                GameLogLine.log_id.in_([row.id for row in logs]),
                GameLogLine.kind != "private").group_by(GameLogLine.log_id))
        return {row.id: 0 for row in logs} | {log_id: n for log_id, n in counted.all()}

    # --- campaigns ------------------------------------------------------------------
    async def binding(self, platform: str, channel: str) -> str | None:
        """The campaign the platform channel is bound to, if any."""
        row = await self.session.get(ChannelBinding, (platform, channel))
        return row.campaign if row is not None else None

    async def bind(self, platform: str, channel: str, campaign: str | None) -> None:
        """Bind the platform channel to ``campaign`` (None: unbind)."""
        row = await self.session.get(ChannelBinding, (platform, channel))
        if campaign is None:
            if row is not None:
                await self.session.delete(row)
        elif row is None:
            self.session.add(ChannelBinding(platform=platform, channel_key=channel,
                                            campaign=campaign))
        else:
            row.campaign = campaign

    async def table(self, platform: str, key: str, default_system: str,
                    create: bool = False) -> Table | None:
        """Another table (a campaign's), created with ``default_system`` if asked."""
        found = await self.session.scalar(select(Channel).where(
            Channel.platform == platform, Channel.channel_key == key))
        if found is None and create:
            found = Channel(platform=platform, channel_key=key, system=default_system,
                            gms=[])
            self.session.add(found)
            await self.session.flush()
        return found

    def copy_gms(self, target: Table) -> None:
        """``target`` gets this table's GMs."""
        target.gms = [ChannelGM(user=gm.user, display_name=gm.display_name)
                      for gm in self.channel.gms]

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
        their_state = set(await self.session.scalars(
            select(ChannelState.key).where(ChannelState.channel_id == target.id)))
        for row in await self.session.scalars(
                select(ChannelState).where(ChannelState.channel_id == self.channel.id)):
            if row.key not in their_state:  # the campaign's own state wins
                row.channel_id = target.id
        return len(ours)


def _doc_key(doc: Doc[Any], sheet: Sheet | None, table: Table | None,
             ) -> tuple[str, int | None, int | None]:
    return (doc.key, sheet.id if sheet is not None else None,
            table.id if table is not None else None)


__all__ = ["CAMPAIGN_PREFIX", "DamagedDocument", "Gm", "Log", "LogLine", "Sheet",
           "SheetClash", "Table", "UnitOfWork", "campaign_key"]
