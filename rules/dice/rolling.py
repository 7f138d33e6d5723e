"""Rolling one dice term: drawing faces, rerolls, explosions, keep/drop, successes.

Every draw goes through the per-command budget in ``Context`` (``max_rolls``):
explosions and rerolls cannot be bounded statically, so the count is checked
before each call to the source. Terms without rerolls or explosions take a fast
path that draws all faces in one comprehension after a single budget check.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rules.dice.terms import Die, TermResult
from rules.errors import RuleError

if TYPE_CHECKING:
    from rules.dice.limits import Limits
    from rules.dice.source import DiceSource
    from rules.dice.spec import DiceSpec


class Context:
    """Per-command evaluation state: the source, the draw budget, the terms so far."""

    __slots__ = ("max_rerolls", "max_rolls", "roll", "rolls", "source", "terms")

    def __init__(self, source: DiceSource, limits: Limits) -> None:
        self.source = source  # for kits that take a source (the percentile terms)
        self.roll: Callable[[int], int] = source.roll
        self.rolls = 0
        self.max_rolls = limits.max_rolls
        self.max_rerolls = limits.max_rerolls
        self.terms: list[TermResult] = []


def over_budget(ctx: Context, wanted: int) -> RuleError:
    return RuleError("dice.too_many_rolls", rolls=ctx.rolls + wanted, max=ctx.max_rolls)


def roll_term(term: DiceSpec, ctx: Context) -> int:
    """Roll ``term``, record its ``TermResult`` in ``ctx.terms``, return its value."""
    if not term.simple:
        return _roll_complex(term, ctx)
    count = term.count
    if ctx.rolls + count > ctx.max_rolls:
        raise over_budget(ctx, count)
    ctx.rolls += count
    roll = ctx.roll
    faces = term.faces
    rolled = [roll(faces)] if count == 1 else [roll(faces) for _ in range(count)]
    if term.fudge:
        rolled = [v - 2 for v in rolled]
    if term.plain:
        value = sum(rolled)
        ctx.terms.append(TermResult(term, rolled, value))
        return value
    dropped = _dropped(rolled, term.keep) if term.keep is not None else ()
    success = term.success
    if success is None:
        value = sum(rolled)
        for i in dropped:
            value -= rolled[i]
    else:
        test = success.test
        if dropped:
            gone = set(dropped)
            value = sum(1 for i, v in enumerate(rolled) if i not in gone and test(v))
        else:
            value = sum(1 for v in rolled if test(v))
    ctx.terms.append(TermResult(term, rolled, value, dropped))
    return value


def _dropped(values: list[int], keep: tuple[str, int]) -> tuple[int, ...]:
    """Indices dropped by keep/drop. Ties favour keeping the earlier die."""
    kind, n = keep
    size = len(values)
    if n == 1 and size > 1 and (kind == "kh" or kind == "kl"):
        pick = values.__getitem__
        best = max(range(size), key=pick) if kind == "kh" else min(range(size), key=pick)
        return tuple(i for i in range(size) if i != best)
    if kind == "kh":
        order = sorted(range(size), key=lambda i: (-values[i], i))
        return tuple(sorted(order[n:]))
    if kind == "kl":
        order = sorted(range(size), key=lambda i: (values[i], i))
        return tuple(sorted(order[n:]))
    if kind == "dh":
        order = sorted(range(size), key=lambda i: (-values[i], -i))
    else:  # dl
        order = sorted(range(size), key=lambda i: (values[i], -i))
    return tuple(sorted(order[:n]))


def _draw(term: DiceSpec, ctx: Context, rolled: list[int]) -> tuple[int, tuple[int, ...]]:
    """One face after rerolls: (face, faces it replaced). Every draw is budgeted."""
    if ctx.rolls >= ctx.max_rolls:
        raise over_budget(ctx, 1)
    ctx.rolls += 1
    faces = term.faces
    value = ctx.roll(faces)
    if term.fudge:
        value -= 2
    rolled.append(value)
    test = term.reroll_test
    if test is None or not test(value):
        return value, ()
    limit = 1 if term.reroll_once else ctx.max_rerolls
    replaced: list[int] = []
    while len(replaced) < limit and test(value):
        if ctx.rolls >= ctx.max_rolls:
            raise over_budget(ctx, 1)
        ctx.rolls += 1
        replaced.append(value)
        value = ctx.roll(faces)
        if term.fudge:
            value -= 2
        rolled.append(value)
    return value, tuple(replaced)


def _roll_complex(term: DiceSpec, ctx: Context) -> int:
    """Dice with rerolls and/or explosions: one draw at a time."""
    rolled: list[int] = []
    dice: list[Die] = []
    explodes = term.explode_test
    pending = term.count
    extra = False
    while pending:
        pending -= 1
        value, replaced = _draw(term, ctx, rolled)
        die = Die(value, True, False, extra, replaced)
        extra = False
        if explodes is not None and explodes(value):
            die.exploded = True
            if term.compound:
                parts = [value]
                rerolled = list(replaced)
                while explodes(value):
                    value, more = _draw(term, ctx, rolled)
                    parts.append(value)
                    rerolled.extend(more)
                die.parts = tuple(parts)
                die.value = sum(parts)
                die.rerolled = tuple(rerolled)
            else:
                pending += 1
                extra = True
        dice.append(die)

    if term.keep is not None:
        for i in _dropped([d.value for d in dice], term.keep):
            dice[i].kept = False
    success = term.success
    if success is None:
        value = sum(d.value for d in dice if d.kept)
    else:
        test = success.test
        value = 0
        for d in dice:
            if d.kept:
                d.success = test(d.value)
                value += d.success
    ctx.terms.append(TermResult(term, rolled, value, dice=dice))
    return value
