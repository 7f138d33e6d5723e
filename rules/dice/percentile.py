"""A d100 read as a tens die and a units die, with bonus and penalty dice.

Call of Cthulhu 7th edition (and every dice bot its players know: SealDice's ``b``/``p``,
Dice!'s ``.rb``/``.rp``) rolls a d100 as a tens die (0–9) and a units die (0–9); 0 and 0
read 100. A bonus die is one more tens die and keeps the lowest result, a penalty die one
more and keeps the highest; bonus and penalty cancel one for one before rolling, so
``bonus`` here is the net count (negative for penalty).

Both the ``coc7`` system's checks and the dice engine's ``b``/``p`` terms roll here, so a
``.ra b2 侦查`` and a ``.r b2`` read their dice the same way. It lives in the engine's
package because the engine may not import a kit (kits import the engine: the
``acyclic_siblings`` import contract).

Pure: no I/O, dice only from the injected source.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice.source import DiceSource
from rules.errors import RuleError

MAX_EXTRA_DICE = 3
"""The most bonus or penalty dice one roll takes (the rulebook's tables stop at two;
SealDice allows more, we stop at three and say so)."""


@dataclass(frozen=True, slots=True)
class Percentile:
    """One percentile roll: every tens die rolled (the first is the plain one), the units
    die, the net bonus (negative: penalty) and the kept result in 1..100."""

    tens: tuple[int, ...]
    units: int
    bonus: int
    value: int


def read(tens: int, units: int) -> int:
    """The d100 a tens die and a units die show: 0 and 0 read 100."""
    value = tens * 10 + units
    return 100 if value == 0 else value


def roll_percentile(source: DiceSource, bonus: int = 0) -> Percentile:
    """Roll a d100 with ``bonus`` net bonus dice (negative: penalty dice).

    Refuses more than :data:`MAX_EXTRA_DICE` either way before any die is rolled.
    The units die is rolled first, then the tens dice, so a script reads
    ``units, tens, extra tens…``.
    """
    if abs(bonus) > MAX_EXTRA_DICE:
        raise RuleError("dice.too_many_bonus_dice", count=abs(bonus), max=MAX_EXTRA_DICE)
    units = source.roll(10) - 1
    tens = tuple(source.roll(10) - 1 for _ in range(1 + abs(bonus)))
    candidates = [read(t, units) for t in tens]
    value = min(candidates) if bonus > 0 else max(candidates) if bonus < 0 else candidates[0]
    return Percentile(tens=tens, units=units, bonus=bonus, value=value)
