"""Losses (PL-5, 12): HP/SAN losses and the fatal event, intervention with CP,
CP awards, and the sanity check with its ``1/1d6`` loss pair."""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice.source import DiceSource
from rules.errors import RuleError
from rules.systems.plurk_trpg.common import _non_negative, _roll
from rules.systems.plurk_trpg.dice import parse_dice, roll_dice

SAN_DIE = 100
INTERVENTION_MIN_CP = 10
INTERVENTION_MIN_COST = 5


def is_fatal(current: int, loss: int) -> bool:
    """PL-12: a loss is a fatal event when it would bring HP or SAN to 0 (or below)."""
    return loss > 0 and current - loss <= 0


@dataclass(frozen=True, slots=True)
class LossResult:
    """An HP/SAN loss applied to a current value (never below 0)."""

    before: int
    loss: int
    after: int
    fatal: bool


def apply_loss(current: int, loss: int) -> LossResult:
    """Apply an HP/SAN loss; reports the fatal event so the bot can offer intervention."""
    _non_negative(loss, "loss")
    return LossResult(current, loss, max(0, current - loss), is_fatal(current, loss))


@dataclass(frozen=True, slots=True)
class Intervention:
    """常世干預: CP spent to cancel a fatal event."""

    cp_before: int
    cost: int
    cp_after: int


def intervene(cp: int, cost: int = INTERVENTION_MIN_COST) -> Intervention:
    """PL-12: spend ≥ 5 CP (GM may ask more) while holding ≥ 10 CP."""
    if cost < INTERVENTION_MIN_COST:
        raise RuleError("plurk.intervention_cost_too_low", cost=cost, minimum=INTERVENTION_MIN_COST)
    if cp < INTERVENTION_MIN_CP:
        raise RuleError("plurk.intervention_cp_too_low", cp=cp, minimum=INTERVENTION_MIN_CP)
    if cost > cp:
        raise RuleError("plurk.intervention_cp_insufficient", cp=cp, cost=cost)
    return Intervention(cp, cost, cp - cost)


def award_cp(cp: int, amount: int) -> int:
    """PL-12: the GM awards CP at the end of an act (a negative amount corrects, ≥ 0 kept)."""
    if cp + amount < 0:
        raise RuleError("plurk.cp_negative", cp=cp, amount=amount)
    return cp + amount


@dataclass(frozen=True, slots=True)
class SanLoss:
    """The two loss expressions of a sanity check: on success / on failure."""

    success: str
    failure: str


def parse_san_loss(text: str) -> SanLoss:
    """Parse ``1/1d6``, ``0/1d4``, ``1d3/1d10`` (each side a tiny dice expression)."""
    parts = text.strip().split("/")
    if len(parts) != 2 or not all(p.strip() for p in parts):
        raise RuleError("plurk.bad_san_loss", expr=text)
    for part in parts:
        try:
            parse_dice(part)
        except RuleError as exc:
            if exc.code == "plurk.dice_limit":  # well written, only too many dice / faces
                raise
            raise RuleError("plurk.bad_san_loss", expr=text) from exc
    return SanLoss(parts[0].strip(), parts[1].strip())


@dataclass(frozen=True, slots=True)
class SanityResult:
    """PL-5 result: the d100, outcome, loss rolled and the new SAN."""

    roll: int
    san_before: int
    success: bool
    loss_expr: str
    loss_rolls: tuple[int, ...]
    loss: int
    san_after: int
    fatal: bool


def sanity_check(source: DiceSource, san: int, loss: str | SanLoss) -> SanityResult:
    """PL-5: 1d100 ≤ current SAN succeeds; then the matching loss is rolled and applied."""
    _non_negative(san, "san")
    pair = parse_san_loss(loss) if isinstance(loss, str) else loss
    roll = _roll(source, SAN_DIE)
    success = roll <= san
    expr = pair.success if success else pair.failure
    dice = roll_dice(source, expr)
    amount = max(0, dice.total)
    applied = apply_loss(san, amount)
    return SanityResult(roll, san, success, expr, dice.rolls, amount, applied.after, applied.fatal)
