"""PL-1 dice for damage and SAN loss: the flat ``NdM±K`` sums of ``rules.dice``.

Every die comes from the injected source (the bot wraps Plurk emoticon dice in a
source that yields the player's own values first). Expressions are parsed by
``rules.dice.parse_flat`` under the system's own limits — at most 100 dice in
the whole expression (both passes of an impale counted), 1,000 faces, 64
characters — and refused with the system's codes: ``plurk.dice_limit``
(``expr``, ``max_dice``, ``max_faces``) when only a limit is exceeded,
``plurk.bad_dice`` (``expr``) for anything else. Spaces around the ``d``
(``1 d 6``) and non-ASCII decimal digits are accepted, as they always were.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.dice import FlatTerm, Limits, parse_flat, roll_flat
from rules.dice.source import DiceSource
from rules.errors import RuleError

DICE_MAX_COUNT = 100
DICE_MAX_FACES = 1000
DICE_MAX_LENGTH = 64

LIMITS = Limits(
    max_dice=DICE_MAX_COUNT,
    max_faces=DICE_MAX_FACES,
    max_rolls=DICE_MAX_COUNT,  # the dice of every term together
    max_length=DICE_MAX_LENGTH,
)

_LIMIT_CODES = frozenset({"dice.too_many_dice", "dice.too_many_faces", "dice.too_many_rolls"})
_SPACED_D = re.compile(r"\s*([dD])\s*")
_DIGIT = re.compile(r"\d")

DiceTerm = FlatTerm
"""One term: ``sign × count d faces``, or the constant ``sign × count`` (``faces == 0``)."""


@dataclass(frozen=True, slots=True)
class DiceRoll:
    """A rolled ``NdM±K`` expression: every face kept for the GM's audit."""

    expr: str
    rolls: tuple[int, ...]
    modifier: int
    total: int
    impale: bool = False


def _terms(expr: str, passes: int) -> tuple[DiceTerm, ...]:
    text = expr.strip()
    if len(text) > DICE_MAX_LENGTH:
        raise RuleError("plurk.bad_dice", expr=expr)
    # the system's own notation: spaces around the d, any decimal digits
    text = _DIGIT.sub(lambda m: str(int(m.group())), _SPACED_D.sub(r"\1", text))
    try:
        return parse_flat(text, LIMITS, passes=passes)
    except RuleError as exc:
        if exc.code in _LIMIT_CODES:
            raise RuleError(
                "plurk.dice_limit", expr=expr, max_dice=DICE_MAX_COUNT, max_faces=DICE_MAX_FACES
            ) from exc
        raise RuleError("plurk.bad_dice", expr=expr) from exc


def parse_dice(expr: str) -> tuple[DiceTerm, ...]:
    """Parse ``1d6+2``, ``3D6``, ``d4``, ``1d3-1``, ``2`` (sums of dice and constants)."""
    return _terms(expr, 1)


def roll_dice(source: DiceSource, expr: str, *, passes: int = 1) -> DiceRoll:
    """Roll a damage / loss expression; ``passes=2`` rolls every dice term twice (impale)."""
    rolled = roll_flat(_terms(expr, passes), source, LIMITS, passes=passes)
    return DiceRoll(expr.strip(), rolled.dice, rolled.modifier, rolled.total, passes > 1)
