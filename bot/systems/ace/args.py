"""Words and numbers as players type them in `ace` commands: command words in any
script, ``key=value`` options (``武器=3``, ``w=3``, ``命中+2``), DCs (``dc2``,
``DC 2``, ``>=2``), counts (``x3``), and echoed text cut short."""

from __future__ import annotations

import re

from bot.errors import CommandError
from bot.names import visible_name

MAX_VALUE = 10_000
"""The largest number an ace command takes (DP, DC, damage, stats)."""
MAX_NAME = 20
"""Names the table makes up (an extended action, an enemy, an item)."""
MAX_REASON = 100
ECHO = 30
"""Characters of a player's text a refusal quotes back."""


def echo(text: str) -> str:
    """Text of a player's, cut before it is quoted back in a refusal."""
    return text.strip()[:ECHO]



def number(text: str, usage: str, *, signed: bool = False) -> int:
    """A bounded integer argument; anything else is refused with ``usage``."""
    pattern = r"[+-]?\d{1,6}" if signed else r"\d{1,6}"
    if not re.fullmatch(pattern, text.strip()):
        raise CommandError(usage)
    value = int(text)
    if abs(value) > MAX_VALUE:
        raise CommandError("ace.error.value_too_big", limit=MAX_VALUE)
    return value


def check_name(name: str, usage: str) -> str:
    name = name.strip()
    if not name:
        raise CommandError(usage)
    if len(name) > MAX_NAME:
        raise CommandError("ace.error.name_too_long", limit=MAX_NAME)
    return visible_name(name)


_DC = re.compile(r"^(?:dc|>=|≥|≧|=>)(\d{1,6})$", re.IGNORECASE)
_OPTION = re.compile(r"^(?P<key>[^\d=:：+\-\s]+?)\s*(?:[=:：]\s*(?P<set>[+-]?\d{1,6})|"
                     r"(?P<signed>[+-]\d{1,6})|(?P<glued>\d{1,6}))$")


def join_spaced(text: str) -> str:
    """``DC 2`` → ``DC2``, ``>= 2`` → ``>=2``, ``+ 2`` → ``+2``, ``w = 3`` → ``w=3``."""
    text = re.sub(r"(?i)(^|\s)(dc|>=|≥|≧|=>)\s+(?=\d)", r"\1\2", text)
    text = re.sub(r"(^|\s)([+-])\s+(?=\d)", r"\1\2", text)
    return re.sub(r"\s*([=:：])\s*", r"\1", text)


def dc_of(token: str) -> int | None:
    """``dc2`` / ``DC2`` / ``>=2`` → 2, else None."""
    match = _DC.match(token)
    return int(match.group(1)) if match else None


def option(token: str) -> tuple[str, str, int] | None:
    """``武器=3`` → ("武器", "set", 3); ``命中+2`` → ("命中", "add", 2); ``per10`` →
    ("per", "set", 10); None for a token that is no option."""
    match = _OPTION.match(token)
    if match is None:
        return None
    if match["set"] is not None:
        return match["key"], "set", int(match["set"])
    if match["signed"] is not None:
        return match["key"], "add", int(match["signed"])
    return match["key"], "set", int(match["glued"])


BY_WORDS = ("by", "由", "as")
"""``by=狼人``: who acts (a GM acting for an enemy or another player's character)."""
