"""The same dice when a command runs a second time.

The group-commit writer may undo a command's first run and run it again (in a
savepoint of its own, or after another process changed a row it read): that run must
read the dice the first one rolled — the player sees one result, and scripted dice
(tests, the console's ``--dice``, Plurk's emoticon dice) are not rolled twice.
"""

from __future__ import annotations

from rules.dice.source import DiceSource


class DiceReplay:
    """A dice source that remembers what it rolled and hands it out again, in order,
    after :meth:`again` (a die of other faces than remembered ends the replay)."""

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self._rolled: list[tuple[int, int]] = []
        self._next = 0

    def roll(self, faces: int) -> int:
        if self._next < len(self._rolled):
            remembered, value = self._rolled[self._next]
            if remembered == faces:
                self._next += 1
                return value
            del self._rolled[self._next:]  # the run went another way: roll anew
        value = self.source.roll(faces)
        self._rolled.append((faces, value))
        self._next += 1
        return value

    def again(self) -> None:
        self._next = 0
