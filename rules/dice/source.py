"""Where die faces come from.

The dice source is injected everywhere a die is rolled so that production uses
a seeded RNG while tests (and the console's ``--dice``) script exact values.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from rules.errors import RuleError


@runtime_checkable
class DiceSource(Protocol):
    """Returns one face of a die with ``faces`` sides, in ``1..faces``."""

    def roll(self, faces: int) -> int: ...


class RandomSource:
    """The production source: a (seedable) ``random.Random``."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def roll(self, faces: int) -> int:
        return self._rng.randint(1, faces)


class ScriptedSource:
    """Hands out scripted values in order, then falls back to another source.

    A scripted value larger than the die being rolled (or below 1) is refused
    with ``RuleError("dice.script_out_of_range")`` rather than silently clamped,
    so a wrong script is noticed instead of producing a plausible result.
    """

    def __init__(self, values: Iterable[int], fallback: DiceSource | None = None) -> None:
        self._values = list(values)
        self._next = 0
        self._fallback = fallback if fallback is not None else RandomSource()

    @property
    def remaining(self) -> int:
        return len(self._values) - self._next

    def push(self, values: Iterable[int]) -> None:
        """Append more scripted values (used by the console for later lines)."""
        self._values.extend(values)

    def roll(self, faces: int) -> int:
        if self._next < len(self._values):
            value = self._values[self._next]
            if not 1 <= value <= faces:
                raise RuleError("dice.script_out_of_range", value=value, faces=faces)
            self._next += 1
            return value
        return self._fallback.roll(faces)
