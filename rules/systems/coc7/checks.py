"""CO-1 … CO-4 a skill check, and CO-10 an opposed check.

A check is a percentile roll (``rules.dice.percentile``: tens and units dice, 00 reads
100, bonus / penalty dice) read against the skill at the table's house rule (CO-2);
the difficulty (CO-3) says which level is needed.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice.percentile import Percentile, roll_percentile
from rules.dice.source import DiceSource
from rules.systems.coc7.levels import (
    RANK,
    RULEBOOK,
    Difficulty,
    HouseRule,
    Level,
    check_skill,
    level,
    meets,
)


@dataclass(frozen=True, slots=True)
class Check:
    """One check: the dice (``roll``: every tens die, the units die, the kept value),
    the skill, the level reached, the difficulty asked and whether it was met."""

    roll: Percentile
    skill: int
    level: Level
    difficulty: Difficulty
    success: bool

    @property
    def value(self) -> int:
        return self.roll.value


def check(source: DiceSource, skill: int, *, bonus: int = 0,
          difficulty: Difficulty = "regular", rule: HouseRule = RULEBOOK) -> Check:
    """CO-1 … CO-4: roll d100 with ``bonus`` net bonus dice (negative: penalty) against
    ``skill``. Limits (skill 0–1000, at most 3 extra dice) are checked before rolling."""
    check_skill(skill)
    rolled = roll_percentile(source, bonus)
    reached = level(rolled.value, skill, rule)
    return Check(rolled, skill, reached, difficulty, meets(reached, difficulty))


@dataclass(frozen=True, slots=True)
class Opposed:
    """CO-10: both checks and the winner (``"a"``, ``"b"`` or None: nobody) and why
    (``level``: the better level; ``skill``: a tie broken by the higher skill;
    ``tie``: the same level and skill; ``both_failed``)."""

    a: Check
    b: Check
    winner: str | None
    decided_by: str


def opposed(source: DiceSource, a_skill: int, b_skill: int, *, a_bonus: int = 0,
            b_bonus: int = 0, rule: HouseRule = RULEBOOK) -> Opposed:
    """CO-10: each side rolls its own check (side a first); the better level wins, a tie
    goes to the higher skill; when both fail, nobody wins."""
    check_skill(a_skill)
    check_skill(b_skill)
    a = check(source, a_skill, bonus=a_bonus, rule=rule)
    b = check(source, b_skill, bonus=b_bonus, rule=rule)
    if not a.success and not b.success:
        return Opposed(a, b, None, "both_failed")
    if RANK[a.level] != RANK[b.level]:
        return Opposed(a, b, "a" if RANK[a.level] > RANK[b.level] else "b", "level")
    if a.skill != b.skill:
        return Opposed(a, b, "a" if a.skill > b.skill else "b", "skill")
    return Opposed(a, b, None, "tie")
