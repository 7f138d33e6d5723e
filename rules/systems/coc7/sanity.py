"""CO-5 the sanity check and CO-6 what a large loss sets off.

`.sc 1/1d6`: a d100 against current SAN (levels as any check, CO-2); a success loses
the first amount, a failure the second, a fumble the second's maximum. SAN never goes
below 0. A loss of 5 or more at once calls for an INT roll (temporary insanity, the
keeper's to resolve). Each amount is a dice expression of ``rules.dice``, checked
against its limits before any die is rolled.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import DEFAULT_LIMITS, Limits, Parsed, evaluate, parse
from rules.dice.percentile import Percentile, roll_percentile
from rules.dice.source import DiceSource
from rules.errors import RuleError
from rules.systems.coc7.levels import RULEBOOK, HouseRule, Level, check_skill, level

INSANITY_LOSS = 5
"""A loss of this much or more at once calls for an INT roll (CO-6)."""
LOSS_LIMITS = Limits(max_length=40, max_dice=100, max_faces=1000, max_rolls=100)
"""A sanity loss is a small expression: ``1d3``, ``1d10+1``, ``2d10``."""


@dataclass(frozen=True, slots=True)
class Loss:
    """The two amounts of `.sc a/b`, as written and parsed."""

    success: str
    failure: str
    parsed_success: Parsed
    parsed_failure: Parsed


def parse_loss(text: str, limits: Limits = LOSS_LIMITS) -> Loss:
    """``1/1d6`` → the two amounts; anything else is ``coc7.bad_loss``, a dice limit
    broken its own ``dice.*`` refusal."""
    parts = text.split("/")
    if len(parts) != 2 or not all(p.strip() for p in parts):
        raise RuleError("coc7.bad_loss", expr=text[:40])
    parsed = []
    for part in parts:
        try:
            found = parse(part.strip(), limits)
        except RuleError as exc:
            if exc.code.startswith("dice.too_"):
                raise
            raise RuleError("coc7.bad_loss", expr=text[:40]) from exc
        if found.repeat is not None:
            raise RuleError("coc7.bad_loss", expr=text[:40])
        parsed.append(found)
    return Loss(parts[0].strip(), parts[1].strip(), parsed[0], parsed[1])


class _Highest:
    """A dice source that shows every die's highest face: a fumble's loss is the
    failure amount's maximum."""

    def roll(self, faces: int) -> int:
        return faces


@dataclass(frozen=True, slots=True)
class Sanity:
    """CO-5/CO-6: the roll, the level, the amount lost (``loss_dice``: its dice, empty
    for a constant or a fumble's maximum), SAN before and after, and whether the loss
    calls for an INT roll."""

    roll: Percentile
    level: Level
    success: bool
    expression: str
    loss_dice: tuple[int, ...]
    loss: int
    before: int
    after: int
    insanity_roll: bool


def sanity_check(source: DiceSource, san: int, loss: Loss, *, rule: HouseRule = RULEBOOK,
                 limits: Limits = DEFAULT_LIMITS) -> Sanity:
    """CO-5: roll against ``san``; lose the matching amount (never below 0)."""
    check_skill(san)
    rolled = roll_percentile(source)
    reached = level(rolled.value, san, rule)
    success = reached not in ("failure", "fumble")
    if reached == "fumble":
        expression, amount = loss.failure, evaluate(loss.parsed_failure, _Highest(), limits)
        dice: tuple[int, ...] = ()
    else:
        expression = loss.success if success else loss.failure
        result = evaluate(loss.parsed_success if success else loss.parsed_failure, source,
                          limits)
        amount, dice = result, tuple(result.dice)
    lost = max(0, amount.total or 0)
    after = max(0, san - lost)
    return Sanity(rolled, reached, success, expression, dice, lost, san, after,
                  lost >= INSANITY_LOSS)
