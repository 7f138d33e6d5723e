"""Extended actions (AE-4, 延長動作): successes accumulate over rolls, one roll per
period, until they reach the DC; an optional deadline in periods; the optional
mishap rule (過失) also counts the dice showing 1.

An ``Extended`` is plain, immutable state (the bot stores its fields as they are);
:func:`advance` adds one rolled pool (AE-2) to it and says what happened.
:func:`advance` and :func:`restart` return the type they are given, so a record
that extends ``Extended`` (the bot's, which also names who started the action)
comes back whole. Refusals: ``ace.extended_closed`` (a roll after the action
ended), ``ace.bad_dc``, ``ace.bad_deadline``.

Decisions where the seed is silent:

1. The DC of an extended action is at least 1 (an action of DC 0 is already done).
2. A specialty's automatic success counts on every roll (each roll is a check).
3. Mishap: the 1s count only while the mishap rule is on for that action. When
   one roll brings both the successes and the 1s to the DC, the action
   succeeds — the 1s did not reach the DC *before* the successes did, and the
   seed says a finished action forgets its 1s.
4. Deadline: after ``deadline`` rolls without reaching the DC the action has
   failed (``expired``); a roll that reaches the DC on the last period succeeds.
5. A failed action (mishap or deadline) is kept, so the table sees why; a
   restart clears successes, 1s and periods (the seed: "must restart from the
   beginning") and keeps DC, deadline and the mishap rule.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TypeVar

from rules.dice.source import DiceSource
from rules.errors import RuleError
from rules.systems.ace.pool import MAX_DC, PoolRoll, roll

STATUSES: tuple[str, ...] = ("running", "done", "mishap", "expired")
MAX_DEADLINE = 1000


@dataclass(frozen=True, slots=True)
class Extended:
    """One named extended action and its running totals."""

    name: str
    dc: int
    deadline: int | None = None
    mishap: bool = False
    successes: int = 0
    ones: int = 0
    periods: int = 0
    status: str = "running"

    @property
    def open(self) -> bool:
        return self.status == "running"

    @property
    def left(self) -> int | None:
        """Periods left before the deadline (None without one)."""
        return None if self.deadline is None else max(self.deadline - self.periods, 0)


A = TypeVar("A", bound=Extended)
"""An extended action, or a record that extends one: the functions return its type."""


@dataclass(frozen=True, slots=True)
class ExtendedEvent:
    """One period rolled: what the pool added and the totals after it."""

    name: str
    period: int
    added: int
    added_ones: int
    successes: int
    ones: int
    dc: int
    status: str
    mishap: bool
    deadline: int | None
    at_risk: bool
    """The mishap rule is on and the 1s are one short of the DC (the GM should warn)."""
    pool: PoolRoll | None = None


def start(name: str, dc: int, *, deadline: int | None = None, mishap: bool = False
          ) -> Extended:
    """AE-4: a new extended action (decision 1: DC ≥ 1)."""
    if not 1 <= dc <= MAX_DC:
        raise RuleError("ace.bad_dc", dc=dc, max=MAX_DC)
    if deadline is not None and not 1 <= deadline <= MAX_DEADLINE:
        raise RuleError("ace.bad_deadline", deadline=deadline, max=MAX_DEADLINE)
    return Extended(name, dc, deadline, mishap)


def check_open(action: Extended) -> None:
    """A roll for an action that ended is refused (before any die)."""
    if not action.open:
        raise RuleError("ace.extended_closed", name=action.name, status=action.status)


def roll_period(source: DiceSource, action: A, dp: int, *, specialty: bool = False
                ) -> tuple[A, ExtendedEvent]:
    """AE-4: one period: refuse a closed action, roll the pool (AE-2), add it."""
    check_open(action)
    return advance(action, roll(source, dp, specialty=specialty))


def advance(action: A, pool: PoolRoll) -> tuple[A, ExtendedEvent]:
    """AE-4: add one period's pool to the action (decisions 2–4)."""
    check_open(action)
    successes = action.successes + pool.total
    added_ones = pool.ones if action.mishap else 0
    ones = action.ones + added_ones
    periods = action.periods + 1
    status = "running"
    if successes >= action.dc:
        status = "done"
    elif action.mishap and ones >= action.dc:
        status = "mishap"
    elif action.deadline is not None and periods >= action.deadline:
        status = "expired"
    after = replace(action, successes=successes, ones=ones, periods=periods, status=status)
    at_risk = status == "running" and action.mishap and ones == action.dc - 1
    return after, ExtendedEvent(action.name, periods, pool.total, added_ones, successes,
                                ones, action.dc, status, action.mishap, action.deadline,
                                at_risk, pool)


def restart(action: A) -> A:
    """AE-4: start over (decision 5): totals cleared, DC / deadline / mishap kept."""
    return replace(action, successes=0, ones=0, periods=0, status="running")
