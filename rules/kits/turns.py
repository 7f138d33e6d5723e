"""Turn order: who acts now, who is next, which round it is.

An initiative order is a tuple of members (any immutable value: a system's
combatant dataclass), the index of the member whose turn it is, and a round
number. Everything is immutable: each operation returns a new ``TurnOrder``.

A system shapes the turn through hooks passed to ``advance``:

- ``on_turn_end(member) -> member`` runs on the member whose turn ends
  (e.g. refill its action points);
- ``skips(member) -> Skip(updated) | None`` runs on each member the turn
  reaches, in order: ``Skip(updated)`` passes over it (unconscious, down…) and
  stores ``updated`` (one lost turn counted off), None lets it act. After a full
  lap the member reached last is current whatever ``skips`` said, so an order
  where everyone is passed over still has a current member;
- ``on_turn_start(member) -> member`` runs on the member that is current at the
  end (e.g. refill its points, end what lasted "until its next turn").

Modelled on Avrae's ``Combat.advance_turn`` (``cogs5e/initiative/combat.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Skip(Generic[T]):
    """What an ``on_turn_start`` hook returns to pass over a member (kept as ``member``)."""

    member: T


@dataclass(frozen=True, slots=True)
class TurnOrder(Generic[T]):
    """Members in initiative order, the current index and the round (from 0 by default)."""

    members: tuple[T, ...]
    current: int = 0
    round: int = 0

    @property
    def actor(self) -> T:
        """The member whose turn it is."""
        return self.members[self.current]


@dataclass(frozen=True, slots=True)
class TurnChange(Generic[T]):
    """What ``advance`` did: who ended (after its hook), who acts now, skips, wraps."""

    previous: T
    current: T
    round: int
    new_round: bool
    skipped: tuple[T, ...] = ()


def advance(
    order: TurnOrder[T],
    *,
    on_turn_end: Callable[[T], T] | None = None,
    on_turn_start: Callable[[T], T] | None = None,
    skips: Callable[[T], Skip[T] | None] | None = None,
) -> tuple[TurnOrder[T], TurnChange[T]]:
    """End the current turn and start the next one (a new round when the order wraps).

    ``TurnChange.previous`` is the member whose turn ended (after ``on_turn_end``),
    ``current`` the one whose turn starts (after ``on_turn_start``), ``skipped``
    the members passed over (as ``Skip`` carried them), in order.
    """
    members = list(order.members)
    n = len(members)
    previous = members[order.current]
    if on_turn_end is not None:
        previous = on_turn_end(previous)
        members[order.current] = previous
    index, rnd, new_round = order.current, order.round, False
    skipped: list[T] = []
    for _ in range(n):
        index += 1
        if index >= n:
            index, rnd, new_round = 0, rnd + 1, True
        passed = skips(members[index]) if skips is not None else None
        if passed is None:
            break
        members[index] = passed.member
        skipped.append(passed.member)
    incoming = members[index]
    if on_turn_start is not None:
        incoming = on_turn_start(incoming)
        members[index] = incoming
    new = TurnOrder(tuple(members), index, rnd)
    return new, TurnChange(previous, incoming, rnd, new_round, tuple(skipped))


def insert(order: TurnOrder[T], at: int, member: T) -> TurnOrder[T]:
    """Insert a member at position ``at``; the current member stays current.

    Inserted at or before the current index, the newcomer first acts next round.
    """
    members = list(order.members)
    members.insert(at, member)
    current = order.current + 1 if at <= order.current else order.current
    return replace(order, members=tuple(members), current=current)


def remove(order: TurnOrder[T], at: int) -> TurnOrder[T]:
    """Remove the member at ``at``; the current member stays current.

    Removing the current member itself leaves the index where it is, so the
    member after it (the first one, at the end of the order) becomes current;
    a system usually ``advance``s first. The last member cannot be removed.
    """
    if len(order.members) <= 1:
        raise ValueError("cannot remove the last member of a turn order")
    members = order.members[:at] + order.members[at + 1 :]
    current = order.current - 1 if at < order.current else order.current % len(members)
    return replace(order, members=members, current=current)


def update(order: TurnOrder[T], at: int, member: T) -> TurnOrder[T]:
    """The same order with the member at ``at`` replaced."""
    members = list(order.members)
    members[at] = member
    return replace(order, members=tuple(members))
