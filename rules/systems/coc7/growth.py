"""CO-7 skill growth (`.en`): a d100 over the skill, or over 95, adds 1d10; the
Cthulhu Mythos and Credit Rating do not grow by experience."""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice.percentile import Percentile, roll_percentile
from rules.dice.source import DiceSource
from rules.errors import RuleError
from rules.systems.coc7.levels import check_skill
from rules.systems.coc7.vocabulary import NO_GROWTH

ALWAYS_ABOVE = 95
"""A roll above this improves any skill, even one of 95 or more."""


@dataclass(frozen=True, slots=True)
class Growth:
    """The d100, whether it improved the skill, the 1d10 gained (0 when not) and the
    skill before and after."""

    roll: Percentile
    improved: bool
    gain: int
    before: int
    after: int


def improve(source: DiceSource, skill: int, name: str | None = None) -> Growth:
    """CO-7: roll d100; above ``skill`` or above 95 the skill gains 1d10 (rolled after
    the d100), else it stays. 克蘇魯神話 and 信用評級 never grow this way (refused
    before any die)."""
    check_skill(skill)
    if name in NO_GROWTH:
        raise RuleError("coc7.no_growth", stat=name)
    rolled = roll_percentile(source)
    improved = rolled.value > skill or rolled.value > ALWAYS_ABOVE
    gain = source.roll(10) if improved else 0
    return Growth(rolled, improved, gain, skill, skill + gain)
