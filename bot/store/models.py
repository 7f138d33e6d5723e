"""The stored state of every table the bot runs.

A channel is `(platform, channel key)`; everything else hangs off it. Game
state that belongs to one system and changes shape as features grow (AP pool,
battle order, field…) lives in `ChannelState` rows as JSON documents keyed by
name, each with a version counter, so a new feature needs no schema change
and concurrent writers can be detected.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utc_now() -> datetime:
    """Now, in UTC without a zone (as the store keeps times)."""
    return datetime.now(UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON}


def table_of(model: type[Base]) -> Table:
    """``model``'s Table, for Core statements on it: SQLAlchemy types ``__table__`` as
    any FromClause, which ``insert``/``update`` do not take."""
    table = model.__table__
    assert isinstance(table, Table)
    return table


class Channel(Base):
    __tablename__ = "channels"
    __table_args__ = (UniqueConstraint("platform", "channel_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    platform: Mapped[str] = mapped_column(String(32))
    channel_key: Mapped[str] = mapped_column(String(200))
    system: Mapped[str] = mapped_column(String(32))
    locale: Mapped[str | None] = mapped_column(String(16))
    default_die: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utc_now)

    gms: Mapped[list[ChannelGM]] = relationship(
        back_populates="channel", cascade="all, delete-orphan", lazy="selectin",
        order_by="ChannelGM.since",
    )


class ChannelGM(Base):
    __tablename__ = "channel_gms"

    channel_id: Mapped[int] = mapped_column(ForeignKey("channels.id"), primary_key=True)
    user: Mapped[str] = mapped_column(String(200), primary_key=True)
    display_name: Mapped[str] = mapped_column(String(200), default="")
    since: Mapped[datetime] = mapped_column(default=utc_now)

    channel: Mapped[Channel] = relationship(back_populates="gms")


class Character(Base):
    __tablename__ = "characters"
    __table_args__ = (UniqueConstraint("channel_id", "owner", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    channel_id: Mapped[int] = mapped_column(ForeignKey("channels.id"), index=True)
    owner: Mapped[str] = mapped_column(String(200))
    name: Mapped[str] = mapped_column(String(100))
    active: Mapped[bool] = mapped_column(default=False)
    stats: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)
    updated_at: Mapped[datetime] = mapped_column(default=utc_now, onupdate=utc_now)
    version: Mapped[int] = mapped_column(Integer, default=0)

    # a sheet is written from every process that runs the bot: a stale copy must fail
    # ("try again"), never overwrite another command's change
    __mapper_args__ = {"version_id_col": version}


class ChannelState(Base):
    """A table's typed document (``bot.documents``): ``schema`` is the shape of
    ``data``, ``version`` the write counter that detects a concurrent writer."""

    __tablename__ = "channel_state"

    channel_id: Mapped[int] = mapped_column(ForeignKey("channels.id"), primary_key=True)
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)
    schema: Mapped[int] = mapped_column(Integer, default=1)
    version: Mapped[int] = mapped_column(Integer, default=0)

    __mapper_args__ = {"version_id_col": version}


class CharacterState(Base):
    """A character's typed document (an inventory, a hand): it belongs to the sheet, so
    it moves wherever the sheet moves (`.campaign bind`)."""

    __tablename__ = "character_state"

    character_id: Mapped[int] = mapped_column(ForeignKey("characters.id"), primary_key=True)
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)
    schema: Mapped[int] = mapped_column(Integer, default=1)
    version: Mapped[int] = mapped_column(Integer, default=0)

    __mapper_args__ = {"version_id_col": version}


class ProcessedMessage(Base):
    """Platform message ids already answered: a replayed event is not answered twice."""

    __tablename__ = "processed_messages"

    platform: Mapped[str] = mapped_column(String(32), primary_key=True)
    message_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    processed_at: Mapped[datetime] = mapped_column(default=utc_now)


class ChannelBinding(Base):
    """A platform channel (a Plurk thread, a Discord thread…) that plays at a named
    campaign's table instead of its own: one GM list, one set of sheets, one battle."""

    __tablename__ = "channel_bindings"

    platform: Mapped[str] = mapped_column(String(32), primary_key=True)
    channel_key: Mapped[str] = mapped_column(String(200), primary_key=True)
    campaign: Mapped[str] = mapped_column(String(100))


CAMPAIGN_PREFIX = "campaign:"
"""Channel key of a campaign's table; platform channel ids never start with it."""


def campaign_key(name: str) -> str:
    return f"{CAMPAIGN_PREFIX}{name}"


class OutboxMessage(Base):
    """A reply committed with its command's change and not yet accepted by its platform
    (the transactional outbox): the adapter deletes it once the platform took it, and
    sends what is left again at its next start.

    Only the process that claimed a row sends it (:mod:`bot.store.outbox`): the one
    that stored it, or one that took it over once the claim's lease expired or its
    claimant died."""

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(primary_key=True)
    platform: Mapped[str] = mapped_column(String(32), index=True)
    message: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)
    claimed_by: Mapped[str | None] = mapped_column(String(160), default=None)
    """The sending process (:func:`bot.store.outbox.process_name`); None: nobody."""
    lease_until: Mapped[datetime | None] = mapped_column(default=None)
    """When the claim lapses unless renewed (UTC); None or past: free to take."""


class PendingPrivate(Base):
    """A private message the platform refused to deliver, kept for `.gm pending`."""

    __tablename__ = "pending_private"

    id: Mapped[int] = mapped_column(primary_key=True)
    channel_id: Mapped[int] = mapped_column(ForeignKey("channels.id"), index=True)
    user: Mapped[str] = mapped_column(String(200))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)


class GameLog(Base):
    """A table's game log (`.log on`): a named record of what was said and rolled."""

    __tablename__ = "game_logs"
    __table_args__ = (UniqueConstraint("channel_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    channel_id: Mapped[int] = mapped_column(ForeignKey("channels.id"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    active: Mapped[bool] = mapped_column(default=False)
    lines: Mapped[int] = mapped_column(Integer, default=0)
    chars: Mapped[int] = mapped_column(Integer, default=0)
    full: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)
    started_by: Mapped[str | None] = mapped_column(String(200), default=None)
    """Who created it: at a table without a GM, the one who may export it."""
    exported_at: Mapped[datetime | None] = mapped_column(default=None)
    """Its last `.log export` (UTC): a table exports at most once a minute."""


class GameLogLine(Base):
    """One line of a game log. ``kind``: ``said`` (a player's message), ``reply`` (the
    bot's channel message), ``private`` (a private message to ``user``: only in the copy
    of that user, and only a GM gets one) or ``sealed`` (the public-safe summary of a
    player-private message, whose text no copy holds)."""

    __tablename__ = "game_log_lines"

    id: Mapped[int] = mapped_column(primary_key=True)
    log_id: Mapped[int] = mapped_column(ForeignKey("game_logs.id"), index=True)
    at: Mapped[datetime] = mapped_column(default=utc_now)
    kind: Mapped[str] = mapped_column(String(16))
    user: Mapped[str] = mapped_column(String(200))
    name: Mapped[str] = mapped_column(String(200))
    text: Mapped[str] = mapped_column(Text)
    character: Mapped[str | None] = mapped_column(String(200), default=None)
    """The name of the speaker's active character when the line was said (a ``said``
    line; None without one, or for a line recorded before migration 0011): the story
    is told by characters, the account stays beside it in the GM's copy."""


class StoreEpoch(Base):
    """One row (id 1) that every writer bumps in the transaction that changes a cached
    table, so that other processes on the same PostgreSQL database know their working
    set is old (:mod:`bot.store.group`)."""

    __tablename__ = "store_epoch"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    n: Mapped[int] = mapped_column(BigInteger, default=0)
