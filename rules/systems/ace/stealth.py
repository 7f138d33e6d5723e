"""Stealth, ambush and assassination (AE-13).

Sneaking into a creature's mental sensing range: the hider rolls one 隱藏 pool
(AE-2), each watcher a perception pool — 生存 when it listens passively, 調查
when it keeps watch — in the order given; a watcher whose 精神力 exceeds twice
the hider's discovers the hider at once (no die). Open ground is the GM's call:
a penalty in dice, or ``exposed`` (the check fails outright, no die).

A :class:`Hidden` record keeps, per hider, who has not discovered them and who
has. Undiscovered at the start of an encounter = ambush (``mark_ambush``; the
turn order puts ambushers first, :mod:`fight`). An ambusher still unseen by its
target may assassinate it: the attack skips evasion (``check_assassination``);
the target keeps its reflex action.

Decisions where the seed is silent:

1. A watcher discovers the hider only with more successes than the hider (a tie
   keeps the hider unseen: the seed's "losing the hide contest").
2. A hider discovered by anyone when the encounter starts is no ambusher; one
   never checked against a creature counts as unseen by it. During the fight a
   new check may reveal the ambusher to one creature: it can no longer
   assassinate that one, but still any other that has not seen it.
3. An attack reveals the attacker (its record is dropped): one assassination
   per ambush.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rules.dice.source import DiceSource
from rules.errors import RuleError
from rules.systems.ace.pool import PoolRoll, roll

SPI_FACTOR = 2


@dataclass(frozen=True, slots=True)
class Sneaker:
    name: str
    spi: int
    dp: int
    specialty: bool = False


@dataclass(frozen=True, slots=True)
class Watcher:
    """A creature that may notice the hider: ``dp`` is its 生存 (passive) or 調查
    (``active``) level."""

    name: str
    spi: int
    dp: int
    active: bool = False
    specialty: bool = False


@dataclass(frozen=True, slots=True)
class WatchCheck:
    watcher: str
    skill: str  # "survival" | "investigate"
    instant: bool
    pool: PoolRoll | None
    discovered: bool


@dataclass(frozen=True, slots=True)
class SneakResult:
    hider: str
    penalty: int
    exposed: bool
    pool: PoolRoll | None
    checks: tuple[WatchCheck, ...]

    @property
    def unseen(self) -> bool:
        return not any(c.discovered for c in self.checks)


@dataclass(frozen=True, slots=True)
class Hidden:
    hider: str
    unseen_by: tuple[str, ...] = ()
    seen_by: tuple[str, ...] = ()
    ambush: bool = False


def _same(a: str, b: str) -> bool:
    return a.casefold() == b.casefold()


def sneak(source: DiceSource, hider: Sneaker, watchers: Sequence[Watcher], *,
          penalty: int = 0, exposed: bool = False) -> SneakResult:
    """AE-13: one hide pool against each watcher's perception pool (dice in that order)."""
    if not watchers:
        raise RuleError("ace.sneak_nobody")
    if penalty < 0:
        raise RuleError("ace.negative_penalty", penalty=penalty)
    instant = [w.spi > SPI_FACTOR * hider.spi for w in watchers]
    pool = None
    if not exposed and not all(instant):
        pool = roll(source, hider.dp - penalty, specialty=hider.specialty)
    checks = []
    for watcher, at_once in zip(watchers, instant, strict=True):
        skill = "investigate" if watcher.active else "survival"
        if exposed or at_once:
            checks.append(WatchCheck(watcher.name, skill, at_once, None, True))
            continue
        assert pool is not None
        seen = roll(source, watcher.dp, specialty=watcher.specialty)
        checks.append(WatchCheck(watcher.name, skill, False, seen, seen.total > pool.total))
    return SneakResult(hider.name, penalty, exposed, pool, tuple(checks))


def record(hidden: Sequence[Hidden], result: SneakResult) -> tuple[Hidden, ...]:
    """The hidden records after a sneak: watchers move between unseen_by and seen_by."""
    found = next((h for h in hidden if _same(h.hider, result.hider)), None)
    before = found or Hidden(result.hider)
    unseen = [n for n in before.unseen_by]
    seen = [n for n in before.seen_by]
    for check in result.checks:
        unseen = [n for n in unseen if not _same(n, check.watcher)]
        seen = [n for n in seen if not _same(n, check.watcher)]
        (seen if check.discovered else unseen).append(check.watcher)
    after = replace(before, unseen_by=tuple(unseen), seen_by=tuple(seen))
    if found is None:
        return (*hidden, after)
    return tuple(after if h is found else h for h in hidden)


def ambushers(hidden: Sequence[Hidden]) -> tuple[str, ...]:
    """Decision 2: hiders nobody has discovered."""
    return tuple(h.hider for h in hidden if not h.seen_by)


def mark_ambush(hidden: Sequence[Hidden]) -> tuple[Hidden, ...]:
    """At the start of an encounter: every undiscovered hider is ambushing."""
    return tuple(replace(h, ambush=not h.seen_by) for h in hidden)


def check_assassination(hidden: Sequence[Hidden], attacker: str, target: str) -> None:
    """AE-13: only an ambusher still unseen by its target may assassinate it."""
    found = next((h for h in hidden if _same(h.hider, attacker)), None)
    if found is None or not found.ambush:
        raise RuleError("ace.not_ambushing", name=attacker)
    if any(_same(n, target) for n in found.seen_by):
        raise RuleError("ace.seen_by_target", name=attacker, target=target)


def reveal(hidden: Sequence[Hidden], name: str) -> tuple[Hidden, ...]:
    """Decision 3: an attacker is seen by everyone from now on."""
    return tuple(h for h in hidden if not _same(h.hider, name))
