"""The same dice when a command runs a second time.

The group-commit writer may undo a command's first run and run it again (in a
savepoint of its own, or after another process changed a row it read): that run must
read the dice the first one rolled — the player sees one result, and scripted dice
(tests, the console's ``--dice``, Plurk's emoticon dice) are not rolled twice.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

from rules.dice.source import DiceSource, shuffle

T = TypeVar("T")


class DiceReplay:
    """A dice source that remembers what it drew — a die's face, keyed by its faces,
    or a shuffle's order, keyed by ``("shuffle", length)`` — and hands it out again,
    in order, after :meth:`again` (a draw of another key ends the replay)."""

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self._drawn: list[tuple[object, object]] = []
        self._next = 0

    def _replayed(self, key: object) -> object | None:
        if self._next < len(self._drawn):
            remembered, value = self._drawn[self._next]
            if remembered == key:
                self._next += 1
                return value
            del self._drawn[self._next:]  # the run went another way: draw anew
        return None

    def _remember(self, key: object, value: object) -> None:
        self._drawn.append((key, value))
        self._next += 1

    def roll(self, faces: int) -> int:
        value = self._replayed(faces)
        if isinstance(value, int):
            return value
        face = self.source.roll(faces)
        self._remember(faces, face)
        return face

    def shuffle(self, items: MutableSequence[T]) -> None:
        key = ("shuffle", len(items))
        order = self._replayed(key)
        if not isinstance(order, list):
            order = list(range(len(items)))
            shuffle(order, self.source)
            self._remember(key, order)
        original = list(items)
        items[:] = [original[i] for i in order]

    def again(self) -> None:
        self._next = 0
