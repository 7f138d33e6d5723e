"""What every system's fight shares: life states, who may act, bounds and health bands.

DESIGN.md, "Fights: one encounter kit" (issue 24). A system keeps its own combatant
type and maps its own words onto a :class:`Life` (ace: HP 0 or 昏迷 is ``down``;
ap20: HP 0 is ``down``; jianshou: HP ≤ 0 is ``dead`` — a duel ends there); the kit
then decides, the same way everywhere:

- a combatant that is not ``active`` cannot act (:func:`require_active`) — no attack,
  check, move, spot, reaction or defence part — and its turn is passed over, named
  with its state (:func:`passes_fallen`, a ``skips`` hook for :func:`rules.kits.turns.advance`);
- HP stays within ``0 … maximum`` (:func:`capped`): a heal never goes past the
  maximum, damage never below 0 unless the system counts below 0 (jianshou's −3);
- the channel sees an enemy's health as a band (:func:`band`), never its numbers.

Pure: no I/O, no chat text; refusals are ``RuleError("encounter.…")``.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import TypeVar

from rules.errors import RuleError
from rules.kits.turns import Skip

T = TypeVar("T")


class Life(StrEnum):
    """Where a combatant stands: only ``active`` acts."""

    ACTIVE = "active"
    DOWN = "down"  # 0 HP, unconscious, 失能: alive, out of the fight until healed
    DEAD = "dead"
    REMOVED = "removed"  # left the fight (fled, dismissed): frees its place at once


class Band(StrEnum):
    """An enemy's health as the channel sees it (the numbers are the GM's)."""

    UNHURT = "unhurt"
    WOUNDED = "wounded"  # above half
    BADLY_WOUNDED = "badly_wounded"  # half or less, above 0
    DOWN = "down"
    DEAD = "dead"


#: The shared fight vocabulary (`.init <verb>`), in the order help lists it.
VERBS: tuple[str, ...] = ("join", "add", "start", "next", "list", "end", "remove")


def life_from_hp(hp: int, *, dead_at: int | None = None, down_at: int = 0) -> Life:
    """The common mapping: HP at or below ``dead_at`` is dead, at or below ``down_at``
    down, else active (a system with conditions checks those first)."""
    if dead_at is not None and hp <= dead_at:
        return Life.DEAD
    return Life.DOWN if hp <= down_at else Life.ACTIVE


def require_active(name: str, life: Life) -> None:
    """Refuse an action by (or for) a combatant that is not active; the code names its
    state (``encounter.down`` / ``encounter.dead`` / ``encounter.removed``)."""
    if life is not Life.ACTIVE:
        raise RuleError(f"encounter.{life.value}", name=name)


def passes_fallen(life_of: Callable[[T], Life]) -> Callable[[T], Skip[T] | None]:
    """A ``skips`` hook for :func:`rules.kits.turns.advance`: the turn passes over every
    member that is not active (the system's reply names each with its state)."""

    def skips(member: T) -> Skip[T] | None:
        return None if life_of(member) is Life.ACTIVE else Skip(member)

    return skips


def capped(hp: int, maximum: int, *, floor: int = 0) -> int:
    """HP kept within ``floor … maximum`` (a maximum below the floor gives the floor)."""
    return max(floor, min(hp, maximum))


def band(hp: int, maximum: int, life: Life = Life.ACTIVE) -> Band:
    """The health band the channel is shown: dead and down by life state first, then
    unhurt at the maximum, wounded above half of it, badly wounded at half or less."""
    if life is Life.DEAD:
        return Band.DEAD
    if life is Life.DOWN or hp <= 0:
        return Band.DOWN
    if hp >= maximum:
        return Band.UNHURT
    return Band.WOUNDED if hp * 2 > maximum else Band.BADLY_WOUNDED
