"""SealDice's pool terms: CoC bonus/penalty d100 (``b2``, ``p``), World of Darkness
pools (``5a8k7``) and Double Cross pools (``3c8``).

Each is an AST node that rolls itself and records a ``TermResult`` like an ``NdM``
term, so the result line, ``RollResult.dice`` (every face drawn, in order) and
``to_data`` need no special case. Their meaning follows SealDice's dice engine
(sealdice/dicescript ``RollWoD``, ``RollDoubleCross``, ``RollCoC``) as docs/dice.md
lays out; the code is this project's own.

- ``b[N]`` / ``p[N]``: a d100 with N (default 1) bonus / penalty tens dice, rolled by
  the shared percentile roll (``rules.dice.percentile``), at most three.
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
from typing import TYPE_CHECKING, cast

from rules.dice.nodes import Node
from rules.dice.percentile import MAX_EXTRA_DICE, read, roll_percentile
from rules.dice.rolling import over_budget
from rules.dice.terms import Die, TermResult
from rules.errors import RuleError

if TYPE_CHECKING:
    from rules.dice.rolling import Context
    from rules.dice.spec import Cond

_PART = re.compile(r"([a-z])([0-9]+)")


class _PoolResult(TermResult):
    """A pool term's result: its dice are described from the faces only when read (most
    rolls are never inspected die by die; building them is most of the cost)."""

    __slots__ = ()

    @property
    def dice(self) -> list[Die]:
        if self._dice is None:
            self._dice = cast(PoolTerm, self.term).describe(self.rolled)
        return self._dice


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

    def describe(self, rolled: list[int]) -> list[Die]:  # pragma: no cover - abstract
        """The dice shown for the faces ``rolled`` (in drawing order)."""
        raise NotImplementedError

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
        faces = [rolled.units + 1, *[tens + 1 for tens in rolled.tens]]
        ctx.terms.append(_PoolResult(self, faces, rolled.value))
        return rolled.value

    def describe(self, rolled: list[int]) -> list[Die]:
        """Each tens die as the d100 it reads with the units die; only the kept one counts."""
        units = rolled[0] - 1
        readings = [read(face - 1, units) for face in rolled[1:]]
        best = min(readings) if self.bonus > 0 else max(readings)
        kept = readings.index(best)
        return [Die(value, kept=i == kept) for i, value in enumerate(readings)]


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
        roll, faces, line = ctx.roll, self.faces, self.line
        rolled: list[int] = []
        pending = self.count
        while pending:
            self._take(ctx, pending)
            batch = [roll(faces) for _ in range(pending)]
            rolled += batch
            pending = sum(1 for face in batch if face >= line) if line else 0
        threshold = self.threshold
        if self.at_least:
            successes = sum(1 for face in rolled if face >= threshold)
        else:
            successes = sum(1 for face in rolled if face <= threshold)
        ctx.terms.append(_PoolResult(self, rolled, successes))
        return successes

    def describe(self, rolled: list[int]) -> list[Die]:
        """``!`` on a die that added one to the next round, ``*`` on a success."""
        line, threshold, at_least = self.line, self.threshold, self.at_least
        later = _later_rounds(rolled, self.count, line or self.faces + 1)  # 0: no adds
        return [
            Die(
                face,
                exploded=line != 0 and face >= line,
                extra=extra,
                success=face >= threshold if at_least else face <= threshold,
            )
            for face, extra in zip(rolled, later, strict=True)
        ]


def _later_rounds(rolled: list[int], first: int, line: int) -> list[bool]:
    """For each face, whether a later round rolled it: a round is as large as the number
    of dice of the round before that showed ``line`` or more."""
    flags: list[bool] = []
    start, size = 0, first
    while size and start < len(rolled):
        batch = rolled[start : start + size]
        flags += [start > 0] * len(batch)
        start += size
        size = sum(1 for face in batch if face >= line)
    return flags


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
        total = 0
        pending = self.count
        while pending:
            self._take(ctx, pending)
            batch = [roll(faces) for _ in range(pending)]
            rolled += batch
            pending = sum(1 for face in batch if face >= line)
            total += 10 if pending else max(batch)
        ctx.terms.append(_PoolResult(self, rolled, total))
        return total

    def describe(self, rolled: list[int]) -> list[Die]:
        """``!`` on a critical (its round counts 10)."""
        line = self.line
        later = _later_rounds(rolled, self.count, line)
        return [
            Die(face, exploded=face >= line, extra=extra)
            for face, extra in zip(rolled, later, strict=True)
        ]
