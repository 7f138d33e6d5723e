"""ORM classes over the store's Core tables, for tests only.

The bot reads and writes with Core statements (``bot.store.statements``); a test that
looks into the store, or puts a damaged row there, is easier to read with mapped
classes — so they live here, mapped imperatively onto the very tables the bot uses.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import registry

from bot.core import Core
from bot.store import models

_mapper = registry(metadata=models.metadata)


class _Row:
    """A mapped row: keyword arguments set columns, as declarative classes allow."""

    def __init__(self, **values: Any) -> None:
        for key, value in values.items():
            setattr(self, key, value)


class Channel(_Row): ...
class ChannelGM(_Row): ...
class Character(_Row): ...
class ChannelState(_Row): ...
class CharacterState(_Row): ...
class ProcessedMessage(_Row): ...
class ChannelBinding(_Row): ...
class OutboxMessage(_Row): ...
class PendingPrivate(_Row): ...
class GameLog(_Row): ...
class GameLogLine(_Row): ...


def _map(cls: type, table: Table, **kwargs: Any) -> None:
    _mapper.map_imperatively(cls, table, **kwargs)


_map(Channel, models.CHANNELS)
_map(ChannelGM, models.GMS)
_map(Character, models.SHEETS)
_map(ChannelState, models.STATES)
_map(CharacterState, models.SHEET_STATES)
_map(ProcessedMessage, models.PROCESSED)
_map(ChannelBinding, models.BINDINGS)
_map(OutboxMessage, models.OUTBOX)
_map(PendingPrivate, models.PENDING)
_map(GameLog, models.LOGS)
_map(GameLogLine, models.LINES)


def sessions(core: Core) -> AsyncSession:
    """An ORM session on ``core``'s pooled engine (the bot itself has none)."""
    return async_sessionmaker(core.engine, expire_on_commit=False)()
