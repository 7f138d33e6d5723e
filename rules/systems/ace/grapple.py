"""Grapple (AE-9, 擒抱): the grapple hit, the contest, held and pinned.

Dice: a first grab rolls the grapple's hit (the seed's PS2: 1d20 + 力量 +
基本腰力 against the target's evasion, AE-5's strict ``>``, raw 1 misses, raw 20
hits), then the contest: the grappler's 1d20 + 力量 + 基本擒拿 against the
target's choice of 1d20 + 力量 + 基本腰力 (break, 掙脫) or 1d20 + 敏捷 + 基本步法
(escape, 逃脫); the smaller side takes the size difference as a penalty. The
side that starts the contest rolls first and wins only by beating the other.

Holds are immutable ``Hold`` records (plain fields, stored as they are); the
functions take the current holds and return the new ones with a result.

Decisions where the seed is silent:

1. Without a stated choice the target takes its better bonus (break on a tie).
2. A tie is no win: the side that started the contest fails.
3. A pin needs a later round than the hold. Rounds are the initiative's: outside
   a running fight (``round`` 0) there is no "next round", so a pin is refused
   (``ace.pin_needs_round``) until `.init start` (issue 24); a hold made before the
   fight may be pinned in its round 1.
4. The held fighter's attacks take the hold's margin as a hit penalty; a
   pinned fighter cannot attack (its break-free attempt is its action). Two
   escapes free a pinned fighter: pinned → held → free.
5. One grappler per target; a fighter who holds or is held by the other one
   already grabs no second time (``ace.already_held``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rules.dice.source import DiceSource
from rules.errors import RuleError
from rules.systems.ace.combat import (
    HIT_DIE,
    Contest,
    ContestSide,
    Fighter,
    HitRoll,
    Pairs,
    roll_hit,
)

CHOICES: tuple[str, ...] = ("break", "escape")
STATES: tuple[str, ...] = ("held", "pinned")


@dataclass(frozen=True, slots=True)
class Hold:
    grappler: str
    target: str
    state: str = "held"
    margin: int = 0
    round: int = 0


@dataclass(frozen=True, slots=True)
class GrappleResult:
    """One grapple action: ``action`` grab | pin | break_free, the hit (a first
    grab only), the contest and the hold's state before and after (None = free)."""

    action: str
    grappler: str
    target: str
    choice: str
    hit: HitRoll | None
    contest: Contest | None
    before: str | None
    after: str | None
    margin: int


def _same(a: str, b: str) -> bool:
    return a.casefold() == b.casefold()


def hold_on(holds: Sequence[Hold], name: str) -> Hold | None:
    """The hold on ``name`` (as the target), if any."""
    return next((h for h in holds if _same(h.target, name)), None)


def choose(target: Fighter, choice: str | None) -> str:
    """Decision 1: the stated choice, else the better bonus (break on a tie)."""
    if choice is not None:
        if choice not in CHOICES:
            raise RuleError("ace.bad_grapple_choice", choice=choice)
        return choice
    return "break" if target.strength + target.waist >= target.dex + target.footwork \
        else "escape"


def _size_penalty(mine: Fighter, other: Fighter) -> int:
    return -max(other.size - mine.size, 0)


def _grappler_parts(grappler: Fighter, other: Fighter) -> Pairs:
    return tuple(p for p in (("strength", grappler.strength), ("grapple", grappler.grapple),
                             ("size", _size_penalty(grappler, other))) if p[1] or p[0] ==
                 "strength")


def _defender_parts(target: Fighter, other: Fighter, choice: str) -> Pairs:
    first = ("strength", target.strength) if choice == "break" else ("dex", target.dex)
    second = ("waist", target.waist) if choice == "break" else ("footwork", target.footwork)
    return tuple(p for p in (first, second, ("size", _size_penalty(target, other)))
                 if p[1] or p is first)


def _side(source: DiceSource, name: str, parts: Pairs) -> ContestSide:
    raw = int(source.roll(HIT_DIE))
    return ContestSide(name, raw, parts, raw + sum(v for _, v in parts))


def _contest(a: ContestSide, b: ContestSide) -> Contest:
    return Contest(a, b, a.total > b.total, a.total - b.total)


def grab(source: DiceSource, holds: Sequence[Hold], grappler: Fighter, target: Fighter, *,
         round: int = 0, choice: str | None = None, hit_mod: int = 0,
         supernatural: bool = False) -> tuple[tuple[Hold, ...], GrappleResult]:
    """AE-9: a first grab (hit, then contest → held) or a pin (contest → pinned)."""
    if _same(grappler.name, target.name):
        raise RuleError("ace.self_target", name=target.name)
    if grappler.pinned:
        raise RuleError("ace.pinned", name=grappler.name)
    chosen = choose(target, choice)
    existing = hold_on(holds, target.name)
    if existing is not None and not _same(existing.grappler, grappler.name):
        raise RuleError("ace.already_held", name=target.name, by=existing.grappler)
    reverse = hold_on(holds, grappler.name)
    if reverse is not None and _same(reverse.grappler, target.name):
        raise RuleError("ace.already_held", name=grappler.name, by=target.name)
    if existing is not None:
        if existing.state == "pinned":
            raise RuleError("ace.already_pinned", name=target.name)
        if not round:
            raise RuleError("ace.pin_needs_round", name=target.name)
        if existing.round >= round:
            raise RuleError("ace.pin_next_round", name=target.name)
        a = _side(source, grappler.name, _grappler_parts(grappler, target))
        b = _side(source, target.name, _defender_parts(target, grappler, chosen))
        contest = _contest(a, b)
        after = replace(existing, state="pinned", margin=contest.margin, round=round) \
            if contest.win else existing
        new = tuple(after if h is existing else h for h in holds)
        return new, GrappleResult("pin", grappler.name, target.name, chosen, None, contest,
                                  "held", after.state, after.margin)
    mods = tuple(p for p in (("mod", hit_mod), ("held", -grappler.held_penalty)) if p[1])
    hit = roll_hit(source, HIT_DIE, grappler.strength + grappler.waist, mods, target,
                   supernatural)
    if not hit.hit:
        return tuple(holds), GrappleResult("grab", grappler.name, target.name, chosen, hit,
                                           None, None, None, 0)
    a = _side(source, grappler.name, _grappler_parts(grappler, target))
    b = _side(source, target.name, _defender_parts(target, grappler, chosen))
    contest = _contest(a, b)
    if not contest.win:
        return tuple(holds), GrappleResult("grab", grappler.name, target.name, chosen, hit,
                                           contest, None, None, 0)
    hold = Hold(grappler.name, target.name, "held", contest.margin, round)
    return (*holds, hold), GrappleResult("grab", grappler.name, target.name, chosen, hit,
                                         contest, None, "held", contest.margin)


def break_free(source: DiceSource, holds: Sequence[Hold], held: Fighter, grappler: Fighter,
               *, choice: str | None = None) -> tuple[tuple[Hold, ...], GrappleResult]:
    """AE-9: the held fighter's attempt (its attack action): it rolls first, then the
    grappler's 1d20 + 力量 + 基本擒拿; a win loosens the hold one step."""
    hold = hold_on(holds, held.name)
    if hold is None or not _same(hold.grappler, grappler.name):
        raise RuleError("ace.not_held", name=held.name)
    chosen = choose(held, choice)
    a = _side(source, held.name, _defender_parts(held, grappler, chosen))
    b = _side(source, grappler.name, _grappler_parts(grappler, held))
    contest = _contest(a, b)
    if not contest.win:
        return tuple(holds), GrappleResult("break_free", grappler.name, held.name, chosen,
                                           None, contest, hold.state, hold.state, hold.margin)
    if hold.state == "pinned":
        loosened = replace(hold, state="held")
        new = tuple(loosened if h is hold else h for h in holds)
        return new, GrappleResult("break_free", grappler.name, held.name, chosen, None,
                                  contest, "pinned", "held", hold.margin)
    new = tuple(h for h in holds if h is not hold)
    return new, GrappleResult("break_free", grappler.name, held.name, chosen, None, contest,
                              "held", None, 0)


def release(holds: Sequence[Hold], grappler: str, target: str) -> tuple[Hold, ...]:
    """The grappler lets go (a free choice, no roll)."""
    hold = hold_on(holds, target)
    if hold is None or not _same(hold.grappler, grappler):
        raise RuleError("ace.not_held", name=target)
    return tuple(h for h in holds if h is not hold)


def without(holds: Sequence[Hold], name: str) -> tuple[Hold, ...]:
    """Every hold ``name`` takes part in dropped (a fighter left the fight)."""
    return tuple(h for h in holds if not (_same(h.grappler, name) or _same(h.target, name)))


def penalty_of(holds: Sequence[Hold], name: str) -> tuple[int, bool]:
    """(hit penalty, pinned) of ``name``'s own attacks (decision 4)."""
    hold = hold_on(holds, name)
    if hold is None:
        return 0, False
    return max(hold.margin, 0), hold.state == "pinned"
