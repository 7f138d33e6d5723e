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

from bot.messages import Outgoing
from bot.store.models import utc_now

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
    character: str | None = None
    """The speaker's active character (a ``said`` line), kept as it was then."""


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
