"""CO-2 levels of success and CO-3 difficulty, with the house rules as data.

A check's level, for a skill S and a roll 1–100 (rulebook, house rule 0): critical on
1; fumble on 100, or on 96–100 when S < 50; else extreme ≤ ⌊S/5⌋, hard ≤ ⌊S/2⌋,
regular ≤ S, failure. A house rule moves only the critical and fumble ranges; the
numbering is SealDice's `.setcoc` (what the groups who switch already type).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.errors import RuleError

Level = Literal["critical", "extreme", "hard", "regular", "failure", "fumble"]
Difficulty = Literal["regular", "hard", "extreme"]

RANK: dict[str, int] = {"fumble": 0, "failure": 1, "regular": 2, "hard": 3, "extreme": 4,
                        "critical": 5}
"""Levels from worst to best: a difficulty is met by its own level or a better one."""


@dataclass(frozen=True, slots=True)
class HouseRule:
    """Where criticals and fumbles fall (CO-2).

    Critical: a roll of 1 … ``critical_low`` (skill < 50) or ``critical_high`` (≥ 50),
    and — with ``critical_needs_success`` — only when the roll is ≤ the skill.
    Fumble: 100 always; a roll from ``fumble_low`` (skill < 50) or ``fumble_high``
    (≥ 50) up, and — with ``fumble_needs_failure`` — only when it is > the skill.
    """

    id: int
    critical_low: int
    critical_high: int
    critical_needs_success: bool
    fumble_low: int
    fumble_high: int
    fumble_needs_failure: bool


HOUSE_RULES: dict[int, HouseRule] = {rule.id: rule for rule in (
    HouseRule(0, 1, 1, False, 96, 100, False),   # the rulebook
    HouseRule(1, 1, 5, False, 96, 100, False),   # 1–5 critical from skill 50
    HouseRule(2, 5, 5, True, 96, 96, True),      # 1–5 ≤ S critical, 96–100 > S fumble
    HouseRule(3, 5, 5, False, 96, 96, False),    # 1–5 critical, 96–100 fumble, always
)}
RULEBOOK = HOUSE_RULES[0]
MAX_SKILL = 1000
"""The highest skill value a check takes (a larger one is refused, naming the limit)."""


def house_rule(number: int) -> HouseRule:
    found = HOUSE_RULES.get(number)
    if found is None:
        raise RuleError("coc7.unknown_house_rule", rule=number, known=sorted(HOUSE_RULES))
    return found


def level(roll: int, skill: int, rule: HouseRule = RULEBOOK) -> Level:
    """CO-2: the level a d100 ``roll`` (1–100) reaches against ``skill``."""
    high = skill >= 50
    if roll <= (rule.critical_high if high else rule.critical_low) and (
            not rule.critical_needs_success or roll <= skill):
        return "critical"
    if roll == 100 or (roll >= (rule.fumble_high if high else rule.fumble_low) and (
            not rule.fumble_needs_failure or roll > skill)):
        return "fumble"
    if roll <= skill // 5:
        return "extreme"
    if roll <= skill // 2:
        return "hard"
    if roll <= skill:
        return "regular"
    return "failure"


def meets(reached: Level, difficulty: Difficulty = "regular") -> bool:
    """CO-3: a check succeeds when its level is the difficulty's or better."""
    return RANK[reached] >= RANK[difficulty]


def check_skill(skill: int) -> int:
    """Refuse a skill value no check can take (negative, or beyond :data:`MAX_SKILL`)."""
    if not 0 <= skill <= MAX_SKILL:
        raise RuleError("coc7.bad_skill", value=skill, max=MAX_SKILL)
    return skill
