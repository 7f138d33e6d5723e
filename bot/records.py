"""The records a command reads and changes: a table, its GMs, its sheets, its game logs.

Plain dataclasses, not database rows: the unit of work (:mod:`bot.unit_of_work`)
hands a command its own copies and compares them with what was stored when the
command ends, so a change made in place (``sheet.stats["HP"] = 3``) is written as
surely as an assignment, and a command that fails leaves nothing behind.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

CAMPAIGN_PREFIX = "campaign:"
"""The key prefix of a campaign's table (a name no platform channel key starts with)."""


def campaign_key(name: str) -> str:
    """The table key of the campaign called ``name``."""
    return f"{CAMPAIGN_PREFIX}{name}"


@dataclass
class Gm:
    user: str
    display_name: str = ""


@dataclass
class Table:
    """A table: a platform channel, or a campaign several channels play at."""

    id: int
    platform: str
    channel_key: str
    system: str
    locale: str | None = None
    default_die: str | None = None
    gms: list[Gm] = field(default_factory=list)


@dataclass
class Sheet:
    """A character sheet."""

    id: int
    channel_id: int
    owner: str
    name: str
    active: bool = False
    stats: dict[str, Any] = field(default_factory=dict)


@dataclass
class Log:
    """A game log of a table (`.log`); ``lines`` and ``chars`` count every copy."""

    id: int
    channel_id: int
    name: str
    active: bool = False
    lines: int = 0
    chars: int = 0
    full: bool = False
    started_by: str | None = None
    exported_at: datetime | None = None
    created_at: datetime | None = None


@dataclass(frozen=True)
class LogLine:
    """One recorded line: ``kind`` said / reply / private / sealed (see
    :class:`bot.gamelog.book.Line`)."""

    at: datetime
    kind: str
    user: str
    name: str
    text: str
    character: str | None = None
    """The speaker's active character when it was said (a ``said`` line), if any."""
