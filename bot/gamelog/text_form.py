"""The plain-text log that SealDice's `.log export` writes and story viewers import.

SealDice (``dice/ext_log.go``) writes each message as a speaker's line, the message,
and an empty line::

    艾莉絲(10001) 2026-12-01 20:15:02
    我推開門。

SealDice's story painter (染色器) reads that as “Dice!编辑器默认格式”: a line
``name(ID) YYYY-MM-DD HH:MM:SS`` starts a message, everything up to the next such
line is its text. Nothing else marks where a message ends, so a message must never
hold a line a viewer would take for a speaker's line — or for the start of another
format the painter tries first (its importers look for a clock time ``H:MM:SS`` on
a line of its own, after a name, or at a line's start): in a message's line that
holds a clock time, the colons between digits become full-width (``20：15：02``),
which no importer reads as a time and every reader still does. Line ends are the
painter's (``\\n``): a ``\\r``, U+2028 or U+2029, which its patterns also take for a
line end, is one. A name or an ID that held a bracket would end the painter's name
early: brackets in them are full-width too.
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache

BOT_ID = "bot"
"""The ID of the bot's own lines (the painter groups a speaker by name and ID)."""

_LINE_END = re.compile("\r\n|[\r\n\u2028\u2029]")
"""What JavaScript's ``^``/``$`` (the painter's patterns, flag ``m``) take for a line end."""
_CLOCK = re.compile(r"[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}")
"""A clock time: what every speaker's line of the painter's formats holds."""
_DIGIT_COLON = re.compile(r"(?<=[0-9]):(?=[0-9])")
_BRACKETS = str.maketrans({"(": "（", ")": "）", "<": "＜", ">": "＞",
                           "[": "［", "]": "］"})


def _line(text: str) -> str:
    """One line of a message, unable to start a message of its own."""
    if _CLOCK.search(text):
        return _DIGIT_COLON.sub("：", text)
    return text


def body(text: str) -> str:
    """A message's text, each of its lines unable to pass for a speaker's line."""
    return "\n".join(_line(part) for part in _LINE_END.split(text))


@lru_cache(maxsize=256)
def name(text: str) -> str:
    """A name (or an ID) fit for the speaker's line: on one line, no bracket that
    would end it early, no clock time, and not starting with ``#`` — the painter's
    pattern lets a ``#tag`` follow a name across a line end, so a speaker's line
    starting with one would finish the line above it as a speaker's line."""
    one = _line(" ".join(_LINE_END.split(text)).strip().translate(_BRACKETS))
    return f"＃{one[1:]}" if one.startswith("#") else one or "?"


def pseudonym(speakers: tuple[str, ...], user: str) -> str:
    """The ID of ``user`` in the players' copy: P1, P2, … in the order the accounts
    first speak in the whole log (the account itself is only in the GM's copy)."""
    return f"P{speakers.index(user) + 1}" if user in speakers else "P0"


def entry(who: str, ident: str, at: datetime, text: str) -> str:
    """One message: ``name(ID) 2026-12-01 20:15:02``, its lines, an empty line."""
    ident = "_".join(name(ident).split())
    return f"{name(who)}({ident}) {at.strftime('%Y-%m-%d %H:%M:%S')}\n{body(text)}\n\n"
