"""SealDice's pool terms: CoC bonus/penalty d100 (``b2``, ``p``), World of Darkness
pools (``5a8k7``) and Double Cross pools (``3c8``).

Each is an AST node that rolls itself and records a ``TermResult`` like an ``NdM``
term, so the result line, ``RollResult.dice`` (every face drawn, in order) and
``to_data`` need no special case. Their meaning follows SealDice's dice engine
(sealdice/dicescript ``RollWoD``, ``RollDoubleCross``, ``RollCoC``) as docs/dice.md
lays out; the code is this project's own.

- ``b[N]`` / ``p[N]``: a d100 with N (default 1) bonus / penalty tens dice, rolled by
  the shared percentile kit (``rules.kits.percentile``), at most three.
- ``[X]aY[mZ][kN|qN]``: X d Z (default 1 d10); every die showing Y or more adds one
  die to the next round (Y = 0: none); the value is the number of dice, over every
  round, showing N or more (``k``, default 8) or N or less (``q``).
- ``XcY[mZ]``: X d Z (default d10); dice showing Y or more are rolled again in the
  next round; each round adds its highest die, or 10 when any die reached Y.

Every draw counts against the command's random-number budget (``max_rolls``), so an
add-dice line that keeps firing ends in ``dice.too_many_rolls``, not in a hang.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rules.dice.nodes import Node
from rules.dice.rolling import over_budget
from rules.dice.terms import Die, TermResult
from rules.errors import RuleError
from rules.kits.percentile import MAX_EXTRA_DICE, read, roll_percentile

if TYPE_CHECKING:
    from rules.dice.rolling import Context
    from rules.dice.spec import Cond

_PART = re.compile(r"([a-z])([0-9]+)")


class PoolTerm(Node):
    """What every pool term shares with ``DiceSpec`` for limits, results and rendering."""

    __slots__ = ("count", "faces", "text")
    fudge = False
    plain = False  # the result carries its own marked dice
    success: Cond | None = None

    def __init__(self, count: int, faces: int, text: str) -> None:
        self.count = count
        self.faces = faces
        self.text = text

    def finish(self) -> None:
        """Nothing to derive: the constructor checked and wrote everything."""

    def notation(self) -> str:
        return self.text

    def _take(self, ctx: Context, wanted: int) -> None:
        if ctx.rolls + wanted > ctx.max_rolls:
            raise over_budget(ctx, wanted)
        ctx.rolls += wanted


def _split(text: str, letter: str) -> tuple[int, int, list[tuple[str, int]]]:
    """``"5a8k7"`` → ``(5, 8, [("k", 7)])``: pool (default 1), line, modifiers in order."""
    head, _, rest = text.partition(letter)
    digits = len(rest) - len(rest.lstrip("0123456789"))
    parts = [(m.group(1), int(m.group(2))) for m in _PART.finditer(rest, digits)]
    return int(head) if head else 1, int(rest[:digits]), parts


def _check_pool(pool: int, line: int, faces: int, no_line_allowed: bool) -> None:
    if pool < 1:
        raise RuleError("dice.no_dice", count=pool)
    if faces < 1:
        raise RuleError("dice.bad_faces", faces=faces)
    if line < 2 and not (no_line_allowed and line == 0):
        raise RuleError("dice.bad_again_line", line=line)


class PercentileTerm(PoolTerm):
    """``b2`` / ``p``: a d100 with net ``bonus`` extra tens dice (negative: penalty)."""

    __slots__ = ("bonus",)

    def __init__(self, bonus: int) -> None:
        if abs(bonus) > MAX_EXTRA_DICE:
            raise RuleError("dice.too_many_bonus_dice", count=abs(bonus), max=MAX_EXTRA_DICE)
        letter = "p" if bonus < 0 else "b"
        super().__init__(2 + abs(bonus), 10, f"{letter}{abs(bonus)}")
        self.bonus = bonus

    def evaluate(self, ctx: Context) -> int:
        self._take(ctx, self.count)
        rolled = roll_percentile(ctx.source, self.bonus)
        readings = [read(tens, rolled.units) for tens in rolled.tens]
        kept = readings.index(rolled.value)
        dice = [Die(value, kept=i == kept) for i, value in enumerate(readings)]
        faces = [rolled.units + 1, *(tens + 1 for tens in rolled.tens)]
        ctx.terms.append(TermResult(self, faces, rolled.value, dice=dice))
        return rolled.value


class WodTerm(PoolTerm):
    """``XaY[mZ][kN][qN]``: a World of Darkness pool; its value counts successes."""

    __slots__ = ("at_least", "line", "threshold")

    def __init__(self, pool: int, line: int, faces: int, threshold: int, at_least: bool) -> None:
        _check_pool(pool, line, faces, no_line_allowed=True)
        if threshold < 1:
            raise RuleError("dice.bad_threshold", threshold=threshold)
        text = f"{pool}a{line}" + (f"m{faces}" if faces != 10 else "")
        if not at_least or threshold != 8:
            text += f"{'k' if at_least else 'q'}{threshold}"
        super().__init__(pool, faces, text)
        self.line = line
        self.threshold = threshold
        self.at_least = at_least

    @classmethod
    def from_text(cls, text: str) -> WodTerm:
        pool, line, parts = _split(text, "a")
        faces, threshold, at_least = 10, 8, True
        for letter, number in parts:  # as in SealDice, a later k/q replaces an earlier one
            if letter == "m":
                faces = number
            else:
                threshold, at_least = number, letter == "k"
        return cls(pool, line, faces, threshold, at_least)

    def evaluate(self, ctx: Context) -> int:
        roll, faces, line, threshold = ctx.roll, self.faces, self.line, self.threshold
        rolled: list[int] = []
        dice: list[Die] = []
        successes = 0
        pending = self.count
        extra = False
        while pending:
            self._take(ctx, pending)
            batch = [roll(faces) for _ in range(pending)]
            pending = 0
            for face in batch:
                again = line != 0 and face >= line
                success = face >= threshold if self.at_least else face <= threshold
                dice.append(Die(face, exploded=again, extra=extra, success=success))
                successes += success
                pending += again
            rolled.extend(batch)
            extra = True
        ctx.terms.append(TermResult(self, rolled, successes, dice=dice))
        return successes


class DoubleCrossTerm(PoolTerm):
    """``XcY[mZ]``: a Double Cross pool; each round adds its best die (10 on a critical)."""

    __slots__ = ("line",)

    def __init__(self, pool: int, line: int, faces: int) -> None:
        _check_pool(pool, line, faces, no_line_allowed=False)
        super().__init__(pool, faces, f"{pool}c{line}" + (f"m{faces}" if faces != 10 else ""))
        self.line = line

    @classmethod
    def from_text(cls, text: str) -> DoubleCrossTerm:
        pool, line, parts = _split(text, "c")
        faces = 10
        for _letter, number in parts:  # the tokenizer lets only ``m`` through
            faces = number
        return cls(pool, line, faces)

    def evaluate(self, ctx: Context) -> int:
        roll, faces, line = ctx.roll, self.faces, self.line
        rolled: list[int] = []
        dice: list[Die] = []
        total = 0
        pending = self.count
        extra = False
        while pending:
            self._take(ctx, pending)
            batch = [roll(faces) for _ in range(pending)]
            pending = sum(face >= line for face in batch)
            total += 10 if pending else max(batch)
            dice.extend(Die(face, exploded=face >= line, extra=extra) for face in batch)
            rolled.extend(batch)
            extra = True
        ctx.terms.append(TermResult(self, rolled, total, dice=dice))
        return total
