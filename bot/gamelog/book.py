"""Which tables are logging, and the recording of lines with the size cap.

Every message of a channel passes the core, most of them chatter: the book keeps,
per table, whether a log is running, so that chatter in a table that logs nothing
costs no database read. That memory is short (:data:`FRESH` seconds) because another
process on the same database may turn a log on or off; a cached log id is always
checked against its row before a line is written.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.messages import Outgoing
from bot.store.models import GameLog, GameLogLine, utc_now

MAX_LINES = 20_000
"""Lines of one log; the log stops (and says so) when the next line would pass it."""
MAX_CHARS = 1_000_000
"""Characters of one log, for the same reason (about a 3 MB HTML page)."""
FRESH = 30.0
"""Seconds the book trusts what it remembers of a table."""


@dataclass(frozen=True, slots=True)
class Line:
    """One line to record: ``kind`` is ``said`` (a player), ``reply`` (the bot in the
    channel), ``private`` (a private message to ``user``: only that user's copy shows
    it — a GM's, who was sent it then) or ``sealed`` (a player-private message: only
    its public-safe summary, in every copy; its text in none)."""

    kind: str
    user: str
    name: str
    text: str


def lines_of(outs: Iterable[Outgoing], names: Mapping[str, str]) -> list[Line]:
    """The lines the bot's replies add to a log. A private line keeps its one
    recipient, so that a copy holds only what its reader was sent at the time (a GM
    seated later gets no earlier secret); a player-private message leaves only its
    summary (``Outgoing.log_summary``), or nothing. ``names``: display names by user."""
    lines = []
    for out in outs:
        who = out.user or ""
        if out.player_private:
            if out.log_summary:
                lines.append(Line("sealed", who, names.get(who) or who, out.log_summary))
        elif out.to == "channel":
            lines.append(Line("reply", "", "", out.text))
        else:
            lines.append(Line("private", who, names.get(who) or who, out.text))
    return lines


class LogBook:
    def __init__(self, clock: Callable[[], datetime] = utc_now) -> None:
        self._known: dict[tuple[str, str], tuple[int | None, float]] = {}
        self.clock = clock
        """What `.log export` takes for now (UTC, no zone): a test sets its own."""

    def idle(self, platform: str, table: str) -> bool:
        """True when the table surely logs nothing now (no database read needed)."""
        known = self._known.get((platform, table))
        return known is not None and known[0] is None \
            and time.monotonic() - known[1] < FRESH

    def remember(self, platform: str, table: str, log_id: int | None) -> None:
        self._known[(platform, table)] = (log_id, time.monotonic())

    def forget(self, platform: str, table: str) -> None:
        """After `.log on/off`: the next message reads the table's state again."""
        self._known.pop((platform, table), None)

    async def active(self, session: AsyncSession, platform: str, table: str,
                     channel_id: int) -> GameLog | None:
        """The table's running log, read in ``session`` unless known to be none."""
        known = self._known.get((platform, table))
        row: GameLog | None = None
        if known is not None and time.monotonic() - known[1] < FRESH:
            if known[0] is None:
                return None
            row = await session.get(GameLog, known[0])
            if row is not None and row.active:
                return row
        row = await session.scalar(select(GameLog).where(
            GameLog.channel_id == channel_id, GameLog.active.is_(True)))
        self.remember(platform, table, row.id if row is not None else None)
        return row

    def record(self, session: AsyncSession, log: GameLog, lines: list[Line]) -> bool:
        """Add ``lines`` to ``log``; False (nothing added, the log stopped and marked
        full) when they would pass :data:`MAX_LINES` or :data:`MAX_CHARS`."""
        chars = sum(len(line.text) for line in lines)
        if log.lines + len(lines) > MAX_LINES or log.chars + chars > MAX_CHARS:
            log.active, log.full = False, True
            return False
        session.add_all(GameLogLine(log_id=log.id, kind=line.kind, user=line.user,
                                    name=line.name, text=line.text) for line in lines)
        log.lines += len(lines)
        log.chars += chars
        return True
