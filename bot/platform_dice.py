"""Dice the platform already rolled (PL-1: Plurk emoticon dice) come first.

A player who typed `(dice20)` in a Plurk post has rolled a real d20 that
everyone saw; the bot must use that value, not roll its own. This source
hands out the platform's values for dice of the same size, in order, and
falls back to the bot's own source for every other die, remembering which
values were the player's so the reply can say so.
"""

from __future__ import annotations

import re
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

from bot.messages import PlatformDie
from rules.dice.source import DiceSource, shuffle

T = TypeVar("T")

_TOKEN = re.compile(r"\(dice(\d*)\)", re.IGNORECASE)


class PlatformDiceSource:
    def __init__(self, dice: Sequence[PlatformDie], fallback: DiceSource) -> None:
        self._unused = list(dice)
        self._fallback = fallback
        self.used: list[PlatformDie] = []

    def roll(self, faces: int) -> int:
        for index, die in enumerate(self._unused):
            if die.faces == faces:
                self.used.append(self._unused.pop(index))
                return die.value
        return self._fallback.roll(faces)

    def shuffle(self, items: MutableSequence[T]) -> None:
        """No emoticon die is a shuffle: the bot's own source shuffles."""
        shuffle(items, self._fallback)


def emoticons_to_dice(text: str) -> str:
    """`(dice20)+3` → `1d20+3`: an emoticon token in a command means one such die."""
    return _TOKEN.sub(lambda m: f"1d{m.group(1) or 6}", text)
