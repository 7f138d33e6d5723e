"""What commands of several systems read from their arguments the same way: command
words in any script, ``key=value`` options, and ``by=<name>`` (who acts: a GM acting
for an enemy or another player's character). A system keeps only what is its own."""

from __future__ import annotations

import re

from bot.names import fold

BY = ("by", "由")
"""The words of ``by=<name>``."""

_KEY_VALUE = re.compile(r"^([^=＝:：\s]+)[=＝:：](.+)$")


def is_word(token: str, *spellings: str) -> bool:
    """Command words in any script: ``開始`` / ``开始`` / ``START`` all match ``start``."""
    key = fold(token)
    return any(fold(s) == key for s in spellings)


def key_value(token: str) -> tuple[str, str] | None:
    """``hp=12`` / ``護甲：3`` / ``by＝狼人`` → (key, value), else None."""
    match = _KEY_VALUE.match(token)
    return (match.group(1), match.group(2)) if match else None


def split_by(tokens: list[str], words: tuple[str, ...] = BY) -> tuple[list[str], str | None]:
    """The tokens without ``by=<name>``, and the name (the last one given)."""
    rest, by = [], None
    for token in tokens:
        pair = key_value(token)
        if pair is not None and is_word(pair[0], *words):
            by = pair[1]
        else:
            rest.append(token)
    return rest, by
