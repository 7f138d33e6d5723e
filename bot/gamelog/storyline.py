"""What a story view leaves out: commands and out-of-character chatter.

Story viewers drop the same lines (SealDice's story painter: “骰子指令过滤” hides a
message that starts with ``.`` ``。`` or ``/`` and keeps the bot's result; “场外发言过滤”
hides one that starts with ``(`` or ``（``). Here also ``//``, the other habit for
table talk. Decided when the log is read, from the text as typed, so a log recorded
before the story view has one too.

The bot's answer to a command that runs the table rather than the game (`.help`,
`.pc new`, `.st`, `.log on` …: :data:`TABLE_BUSINESS`) leaves the story with it: a
reader of the story meets “character created” or a page of help between the lines
otherwise. A roll's, a check's or a draw's answer stays: it is what happened.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.normalize import PREFIXES, normalize
from bot.records import LogLine

OOC = ("(", "//")
"""How an out-of-character line starts (after folding ``（`` and ``／／`` to ASCII)."""


def aside(line: LogLine) -> str:
    """``command`` or ``ooc`` for a player's line the story leaves out, else ``""``. A
    command is a prefix and a letter (``.r``, ``。日誌``, ``/roll``) — not ``...``, which
    is a pause in someone's speech. The bot's replies stay: a roll's result is part of
    the story."""
    if line.kind != "said":
        return ""
    text = normalize(line.text.lstrip()[:2])  # its start is enough (a log is long)
    if text[:1] in PREFIXES and text[1:2].isalpha():
        return "command"
    if text.startswith(OOC):
        return "ooc"
    return ""


TABLE_BUSINESS = frozenset({"help", "pc", "st", "nn", "gm", "log", "system", "lang", "bot",
                            "ban", "unban", "dismiss", "campaign", "set"})
"""The common commands (by the first name each is declared with) whose answers are
about the table, not the story."""

CommandOf = Callable[[str], "str | None"]
"""The first declared name of the command a said text calls, if any."""


def asides(lines: Sequence[LogLine], command_of: CommandOf | None = None) -> list[str]:
    """:func:`aside` of each line, and ``table`` for the bot's lines that answer a
    command of :data:`TABLE_BUSINESS` (known through ``command_of``; without it, the
    bot's lines all stay)."""
    marks: list[str] = []
    business = False
    for line in lines:
        mark = aside(line)
        if line.kind == "said":
            business = (mark == "command" and command_of is not None
                        and command_of(line.text) in TABLE_BUSINESS)
        elif business:
            mark = "table"
        marks.append(mark)
    return marks
