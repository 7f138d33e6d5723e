"""The stored state of every table the bot runs, as SQLAlchemy Core tables.

A channel is `(platform, channel key)`; everything else hangs off it. Game
state that belongs to one system and changes shape as features grow (AP pool,
battle order, field…) lives in `channel_state` rows as JSON documents keyed by
name, each with a version counter, so a new feature needs no schema change
and concurrent writers can be detected.

Core tables, not ORM classes (issue 23): every statement the bot runs is a Core
statement of :mod:`bot.store.statements` over typed records (:mod:`bot.records`), so
mapped classes earned nothing but ~0.1 s of start-up spent mapping them. The version
counters are bumped by those statements; other processes' writes are noticed by the
writer (``PRAGMA data_version``, the ``store_epoch`` row), not by the counters.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)


def utc_now() -> datetime:
    """Now, in UTC without a zone (as the store keeps times)."""
    return datetime.now(UTC).replace(tzinfo=None)


metadata = MetaData()
"""Every table below: what alembic's migrations are compared with."""


def _created() -> Column[datetime]:
    return Column("created_at", DateTime, nullable=False, default=utc_now)


CHANNELS = Table(
    "channels", metadata,
    Column("id", Integer, primary_key=True),
    Column("platform", String(32), nullable=False),
    Column("channel_key", String(200), nullable=False),
    Column("system", String(32), nullable=False),
    Column("locale", String(16)),
    Column("default_die", String(64)),
    _created(),
    UniqueConstraint("platform", "channel_key"),
)

GMS = Table(
    "channel_gms", metadata,
    Column("channel_id", Integer, ForeignKey("channels.id"), primary_key=True),
    Column("user", String(200), primary_key=True),
    Column("display_name", String(200), nullable=False, default=""),
    Column("since", DateTime, nullable=False, default=utc_now),
)

SHEETS = Table(
    "characters", metadata,
    Column("id", Integer, primary_key=True),
    Column("channel_id", Integer, ForeignKey("channels.id"), nullable=False, index=True),
    Column("owner", String(200), nullable=False),
    Column("name", String(100), nullable=False),
    Column("active", Boolean, nullable=False, default=False),
    Column("stats", JSON, nullable=False, default=dict),
    _created(),
    Column("updated_at", DateTime, nullable=False, default=utc_now, onupdate=utc_now),
    # a sheet is written from every process that runs the bot: a stale copy must fail
    # ("try again"), never overwrite another command's change
    Column("version", Integer, nullable=False, default=0),
    UniqueConstraint("channel_id", "owner", "name"),
)

def _documents(name: str, owner: str, parent: str) -> Table:
    """A table of typed documents (``bot.documents``) by ``owner`` and key: ``schema``
    is the shape of ``data``, ``version`` the write counter."""
    return Table(
        name, metadata,
        Column(owner, Integer, ForeignKey(parent), primary_key=True),
        Column("key", String(64), primary_key=True),
        Column("data", JSON, nullable=False, default=dict),
        Column("schema", Integer, nullable=False, default=1),
        Column("version", Integer, nullable=False, default=0),
    )


STATES = _documents("channel_state", "channel_id", "channels.id")
"""A table's documents (its fight, its options)."""
SHEET_STATES = _documents("character_state", "character_id", "characters.id")
"""A character's documents (an inventory, a hand): they belong to the sheet, so they
move wherever the sheet moves (`.campaign bind`)."""

PROCESSED = Table(
    # Platform message ids already answered: a replayed event is not answered twice.
    "processed_messages", metadata,
    Column("platform", String(32), primary_key=True),
    Column("message_id", String(200), primary_key=True),
    Column("processed_at", DateTime, nullable=False, default=utc_now),
)

BINDINGS = Table(
    # A platform channel (a Plurk thread, a Discord thread…) that plays at a named
    # campaign's table instead of its own: one GM list, one set of sheets, one battle.
    "channel_bindings", metadata,
    Column("platform", String(32), primary_key=True),
    Column("channel_key", String(200), primary_key=True),
    Column("campaign", String(100), nullable=False),
)

CAMPAIGN_PREFIX = "campaign:"
"""Channel key of a campaign's table; platform channel ids never start with it."""


def campaign_key(name: str) -> str:
    return f"{CAMPAIGN_PREFIX}{name}"


OUTBOX = Table(
    # A reply committed with its command's change and not yet accepted by its platform
    # (the transactional outbox): the adapter deletes it once the platform took it, and
    # sends what is left again at its next start. Only the process that claimed a row
    # sends it (bot.store.outbox): the one that stored it, or one that took it over once
    # the claim's lease expired or its claimant died.
    "outbox", metadata,
    Column("id", Integer, primary_key=True),
    Column("platform", String(32), nullable=False, index=True),
    Column("message", JSON, nullable=False, default=dict),
    _created(),
    # the sending process (bot.store.outbox.process_name); None: nobody
    Column("claimed_by", String(160), default=None),
    # when the claim lapses unless renewed (UTC); None or past: free to take
    Column("lease_until", DateTime, default=None),
    # the bot account that sends it, the one that received the command (Incoming.account:
    # a QQ X-Self-ID, a Plurk user id); None: any account of the platform (one-account
    # platforms, rows stored before migration 0012)
    Column("account", String(64), default=None),
)

PENDING = Table(
    # A private message the platform refused to deliver, kept for `.gm pending`.
    "pending_private", metadata,
    Column("id", Integer, primary_key=True),
    Column("channel_id", Integer, ForeignKey("channels.id"), nullable=False, index=True),
    Column("user", String(200), nullable=False),
    Column("text", Text, nullable=False),
    _created(),
)

LOGS = Table(
    # A table's game log (`.log on`): a named record of what was said and rolled.
    "game_logs", metadata,
    Column("id", Integer, primary_key=True),
    Column("channel_id", Integer, ForeignKey("channels.id"), nullable=False, index=True),
    Column("name", String(100), nullable=False),
    Column("active", Boolean, nullable=False, default=False),
    Column("lines", Integer, nullable=False, default=0),
    Column("chars", Integer, nullable=False, default=0),
    Column("full", Boolean, nullable=False, default=False),
    _created(),
    # who created it: at a table without a GM, the one who may export it
    Column("started_by", String(200), default=None),
    # its last `.log export` (UTC): a table exports at most once a minute
    Column("exported_at", DateTime, default=None),
    UniqueConstraint("channel_id", "name"),
)

LINES = Table(
    # One line of a game log. ``kind``: ``said`` (a player's message), ``reply`` (the
    # bot's channel message), ``private`` (a private message to ``user``: only in the
    # copy of that user, and only a GM gets one) or ``sealed`` (the public-safe summary
    # of a player-private message, whose text no copy holds).
    "game_log_lines", metadata,
    Column("id", Integer, primary_key=True),
    Column("log_id", Integer, ForeignKey("game_logs.id"), nullable=False, index=True),
    Column("at", DateTime, nullable=False, default=utc_now),
    Column("kind", String(16), nullable=False),
    Column("user", String(200), nullable=False),
    Column("name", String(200), nullable=False),
    Column("text", Text, nullable=False),
    # the speaker's active character when the line was said (a ``said`` line; NULL
    # without one, or for a line recorded before migration 0011): the story is told by
    # characters, the account stays beside it in the GM's copy
    Column("character", String(200), default=None),
)

EPOCH = Table(
    # One row (id 1) that every writer bumps in the transaction that changes a cached
    # table, so that other processes on the same PostgreSQL database know their
    # working set is old (bot.store.writer).
    "store_epoch", metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("n", BigInteger, nullable=False, default=0),
)
