"""What a story view leaves out: commands and out-of-character chatter.

Story viewers drop the same lines (SealDice's story painter: “骰子指令过滤” hides a
message that starts with ``.`` ``。`` or ``/`` and keeps the bot's result; “场外发言过滤”
hides one that starts with ``(`` or ``（``). Here also ``//``, the other habit for
table talk. Decided when the log is read, from the text as typed, so a log recorded
before the story view has one too.
"""

from __future__ import annotations

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
