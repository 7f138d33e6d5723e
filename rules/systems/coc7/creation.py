"""CO-8 rolling investigators (`.coc [n]`) and CO-9 the numbers derived from them.

STR CON DEX APP POW: 3d6 × 5; SIZ INT EDU: (2d6 + 6) × 5; LUCK: 3d6 × 5 — rolled in
the rulebook's order (STR CON SIZ DEX APP INT POW EDU LUCK). HP = ⌊(CON + SIZ) / 10⌋,
MP = ⌊POW / 5⌋, SAN = POW.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice.source import DiceSource
from rules.errors import RuleError

MAX_INVESTIGATORS = 10
ORDER = ("STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU", "LUCK")
_TWO_D6_PLUS_6 = frozenset({"SIZ", "INT", "EDU"})


@dataclass(frozen=True, slots=True)
class Investigator:
    """One rolled investigator: its nine characteristics by English key (``STR`` …
    ``LUCK``) and its totals without and with LUCK."""

    values: dict[str, int]

    @property
    def total(self) -> int:
        return sum(v for k, v in self.values.items() if k != "LUCK")

    @property
    def total_with_luck(self) -> int:
        return sum(self.values.values())


def roll_investigator(source: DiceSource) -> Investigator:
    values = {}
    for key in ORDER:
        if key in _TWO_D6_PLUS_6:
            values[key] = (source.roll(6) + source.roll(6) + 6) * 5
        else:
            values[key] = (source.roll(6) + source.roll(6) + source.roll(6)) * 5
    return Investigator(values)


def create(source: DiceSource, count: int = 1) -> tuple[Investigator, ...]:
    """CO-8: ``count`` investigators (1–10, refused before any die otherwise)."""
    if not 1 <= count <= MAX_INVESTIGATORS:
        raise RuleError("coc7.create_count", count=count, max=MAX_INVESTIGATORS)
    return tuple(roll_investigator(source) for _ in range(count))


def hit_points(con: int, siz: int) -> int:
    """CO-9: HP = ⌊(CON + SIZ) / 10⌋."""
    return (con + siz) // 10


def magic_points(pow_: int) -> int:
    """CO-9: MP = ⌊POW / 5⌋."""
    return pow_ // 5
