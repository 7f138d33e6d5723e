"""Everything a handler needs for one command, inside one transaction."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, overload

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.documents import Document
from bot.messages import Attachment, Incoming, Outgoing
from bot.store.models import Channel, ChannelGM, ChannelState, Character, CharacterState
from rules.dice.source import DiceSource
from rules.kits.game_system import GameSystem

if TYPE_CHECKING:
    from bot.core import Core
    from bot.store.cache import WorkingSet


@dataclass
class Context:
    core: Core
    session: AsyncSession
    channel: Channel
    incoming: Incoming
    dice: DiceSource
    args: str
    command: str
    locale: str
    notes: list[str] = field(default_factory=list)
    cache: WorkingSet | None = None
    """The writer's working set when ``session`` is the group-commit writer's: sheets
    and documents come from memory (:mod:`bot.store.cache`)."""

    # --- who and where -------------------------------------------------------
    @property
    def user(self) -> str:
        return self.incoming.user

    @property
    def name(self) -> str:
        """How to call the speaker (as a player, not a character): the display name."""
        return self.incoming.display_name or self.incoming.user

    @property
    def system(self) -> GameSystem:
        return self.core.system_of(self.channel)

    @property
    def gm_users(self) -> list[str]:
        return [gm.user for gm in self.channel.gms]

    @property
    def is_gm(self) -> bool:
        return self.user in self.gm_users

    # --- text ------------------------------------------------------------------
    def t(self, key: str, /, **params: Any) -> str:
        return self.core.catalog.text(self.locale, key, **params)

    # --- outgoing --------------------------------------------------------------
    def reply(self, text: str, data: dict[str, Any] | None = None,
              block: bool = False, attachment: Attachment | None = None) -> Outgoing:
        return Outgoing("channel", self.incoming.channel, text, data=data, block=block,
                        attachment=attachment)

    def private(
        self, user: str, text: str, data: dict[str, Any] | None = None, secret: bool = True,
        attachment: Attachment | None = None,
    ) -> Outgoing:
        return Outgoing("private", self.incoming.channel, text, user=user, data=data,
                        secret=secret, attachment=attachment)

    def player_private(self, user: str, text: str, summary: str,
                       data: dict[str, Any] | None = None) -> Outgoing:
        """A private message for ``user`` alone (a hand, a draw): it enters no copy of
        any game log — the GM's neither; the log records ``summary`` instead, which
        must say only what everyone may know ("alice drew 2 cards")."""
        return Outgoing("private", self.incoming.channel, text, user=user, data=data,
                        secret=True, player_private=True, log_summary=summary)

    def to_gms(
        self, text: str, data: dict[str, Any] | None = None, exclude: str | None = None
    ) -> list[Outgoing]:
        """One secret private message per GM of the channel (never the channel)."""
        return [self.private(gm, text, data) for gm in self.gm_users if gm != exclude]

    # --- state -----------------------------------------------------------------
    async def characters(self, owner: str | None = None) -> list[Character]:
        result = await self.session.scalars(
            select(Character)
            .where(Character.channel_id == self.channel.id,
                   Character.owner == (owner or self.user))
            .order_by(Character.id)
        )
        return list(result)

    async def active_character(self, owner: str | None = None) -> Character | None:
        owner = owner or self.user
        cache = self.cache
        if cache is not None:
            known, sheet = cache.active(self.channel.id, owner)
            if known:
                if sheet is not None:
                    cache.lend(sheet, "stats")
                return sheet
        sheet = await self.session.scalar(
            select(Character).where(
                Character.channel_id == self.channel.id,
                Character.owner == owner,
                Character.active.is_(True),
            )
        )
        if cache is not None:
            cache.keep_active(self.channel.id, owner, sheet)
            if sheet is not None:
                cache.lend(sheet, "stats")
        return sheet

    @overload
    async def document(self, doc: type[Document], character: None = None) -> ChannelState: ...

    @overload
    async def document(self, doc: type[Document], character: Character) -> CharacterState: ...

    async def document(self, doc: type[Document],
                       character: Character | None = None) -> ChannelState | CharacterState:
        """The table's (or ``character``'s) document ``doc``, created empty on first use
        and upgraded to the schema this code writes.

        Assign a new dict to ``.data`` to change it (JSON columns do not track
        in-place mutation); the version counter detects concurrent writers. A
        character is given exactly for a per-character document (``doc.per_character``),
        which the two overloads' return types rely on.
        """
        row: ChannelState | CharacterState | None
        cache = self.cache
        if doc.per_character:
            assert character is not None, doc.key
            pk = (character.id, doc.key)
            row = cache.row(CharacterState, pk) if cache is not None else None
            if row is None:
                row = await self.session.get(CharacterState, pk)
                if row is None:
                    row = CharacterState(character_id=character.id, key=doc.key, data={},
                                         schema=doc.schema)
                    self.session.add(row)
                if cache is not None:
                    cache.hold(character.channel_id, row)
        else:
            pk = (self.channel.id, doc.key)
            row = cache.row(ChannelState, pk) if cache is not None else None
            if row is None:
                row = await self.session.get(ChannelState, pk)
                if row is None:
                    row = ChannelState(channel_id=self.channel.id, key=doc.key, data={},
                                       schema=doc.schema)
                    self.session.add(row)
                if cache is not None:
                    cache.hold(self.channel.id, row)
        if cache is not None:
            cache.lend(row, "data")
        if row.schema != doc.schema:
            row.data, row.schema = doc.current(dict(row.data or {}), row.schema), doc.schema
        return row

    async def delete_character(self, character: Character) -> None:
        """Delete a sheet with its documents (an ace mark…), which reference it: they
        go first, or the foreign key refuses the sheet's deletion."""
        for row in await self.session.scalars(select(CharacterState).where(
                CharacterState.character_id == character.id)):
            await self.session.delete(row)
        await self.session.flush()
        await self.session.delete(character)

    def add_gm(self, user: str, display_name: str = "") -> None:
        self.channel.gms.append(ChannelGM(user=user, display_name=display_name))
