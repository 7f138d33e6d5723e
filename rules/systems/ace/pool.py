"""Success pools (AE-2) and single actions (AE-3).

A pool is DP ten-sided dice; each die showing 8, 9 or 10 is one success, a
specialty (專業) adds one automatic success. The DP of a skill check is the
skill's level; when the GM lets an attribute stand in, DP = floor((1d20 +
attribute) / 10) — the d20 is rolled first, then the pool. A single action
succeeds when the successes reach the DC (1 unless given); the margin is
successes − DC. Dice come from ``rules.dice.roll_pool`` (its limits refuse a
pool that is too big: ``dice.too_many_dice``).

Decisions: a situational ``+N`` adds N dice to the DP (after an attribute's
division); a DP that ends at 0 or below rolls no die (a specialty still gives
its success); the count of dice showing 1 is kept for the mishap rule (AE-4).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import Limits, roll_pool
from rules.dice.source import DiceSource
from rules.errors import RuleError

POOL_DIE = 10
SUCCESS_FACE = 8
ONE = 1
SUBSTITUTE_DIE = 20
SUBSTITUTE_DIVISOR = 10
DEFAULT_DC = 1
MAX_DC = 1000
POOL_LIMITS = Limits(max_dice=200, max_rolls=400)
"""At most 200 dice in one pool (a command may roll two pools: a contest)."""


@dataclass(frozen=True, slots=True)
class PoolRoll:
    """One rolled pool: every face, the successes among them, the 1s, the
    specialty's automatic success and the total."""

    dp: int
    dice: tuple[int, ...]
    successes: int
    ones: int
    specialty: bool
    auto: int
    total: int


@dataclass(frozen=True, slots=True)
class Substitution:
    """AE-2: an attribute standing in for a skill: (1d20 + attribute) / 10, rounded down."""

    raw: int
    attribute: int
    value: int
    dp: int


@dataclass(frozen=True, slots=True)
class CheckResult:
    """AE-3: a single action. ``base_dp`` is the skill level (or the substitution's
    DP), ``bonus`` the situational dice, ``dp`` what was rolled."""

    stat: str | None
    kind: str  # "skill" | "attribute" | "bare"
    base_dp: int
    bonus: int
    dp: int
    substitution: Substitution | None
    pool: PoolRoll
    dc: int
    success: bool
    margin: int


def count(dice: tuple[int, ...]) -> tuple[int, int]:
    """(successes, ones) of some d10 faces."""
    return sum(1 for d in dice if d >= SUCCESS_FACE), sum(1 for d in dice if d == ONE)


def roll(source: DiceSource, dp: int, *, specialty: bool = False) -> PoolRoll:
    """AE-2: roll ``dp`` d10 (none when ``dp`` ≤ 0) and count the successes."""
    dice = tuple(roll_pool(max(dp, 0), POOL_DIE, source, POOL_LIMITS))
    successes, ones = count(dice)
    auto = 1 if specialty else 0
    return PoolRoll(max(dp, 0), dice, successes, ones, specialty, auto, successes + auto)


def substitute(source: DiceSource, attribute: int) -> Substitution:
    """AE-2: DP = floor((1d20 + attribute) / 10) (never below 0)."""
    raw = int(source.roll(SUBSTITUTE_DIE))
    value = raw + attribute
    return Substitution(raw, attribute, value, max(value // SUBSTITUTE_DIVISOR, 0))


def check_dc(dc: int) -> None:
    if not 0 <= dc <= MAX_DC:
        raise RuleError("ace.bad_dc", dc=dc, max=MAX_DC)


def check(source: DiceSource, dp: int = 0, *, stat: str | None = None,
          attribute: int | None = None, bonus: int = 0, specialty: bool = False,
          dc: int = DEFAULT_DC) -> CheckResult:
    """AE-2/3: a skill check (``dp`` = the skill's level), an attribute check
    (``attribute`` given: substitution first) or a bare pool (no ``stat``)."""
    check_dc(dc)
    substitution = None
    if attribute is not None:
        substitution = substitute(source, attribute)
        base, kind = substitution.dp, "attribute"
    else:
        base, kind = dp, ("skill" if stat is not None else "bare")
    pool = roll(source, base + bonus, specialty=specialty)
    return CheckResult(stat, kind, base, bonus, pool.dp, substitution, pool, dc,
                       pool.total >= dc, pool.total - dc)
