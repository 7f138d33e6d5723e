"""The fight as channel state: initiative and rounds (on ``rules.kits.turns``),
each fighter's posture (stance, cover, condition, the round's reflex action),
the grapple holds (AE-9) and the hidden fighters (AE-13).

Initiative (RULES.md: DEX-based, with AE-12): 1d20 + 敏捷 (+ ⌊敏捷 / 10⌋ when
the supernatural option is on), rolled when a fighter joins (``.ri``, as
SealDice and Dice! players type it). :func:`start` orders the fighters and
begins round 1: undiscovered hiders first (AE-13 ambush: "you act first
without initiative"), then by initiative.

Decisions where the seed is silent:

1. Ties: higher 敏捷 first, then the order of joining (no reroll: the GM reads
   the order at once).
2. A fighter joining a running fight is inserted after everyone with an equal
   or higher initiative; inserted before the current actor, it first acts next
   round (the kit's rule).
3. A stance is declared for a round: it ends when its fighter's next turn
   starts (or is passed over), and so does the spent reflex action (one per round). Cover and
   conditions stay until changed.
4. A turn passes over a fighter that is not active — dead (HP 0) or down
   (unconscious, asleep, petrified, 精神力 < 2; :mod:`life`) — the encounter kit's
   ``passes_fallen``; the bot names each with its state.
5. A full attack or full defence (AE-10) is declared at the start of one's own
   turn: in a running fight, only by the fighter whose turn it is and before it
   has acted (attacked, grabbed, sneaked) this turn (issue 24). Outside a fight
   nothing is timed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rules.dice.source import DiceSource
from rules.errors import RuleError
from rules.kits import turns
from rules.kits.encounter import Life, passes_fallen
from rules.systems.ace.combat import (
    HIT_DIE,
    check_charge,
    check_condition,
    check_cover,
    check_stance,
    super_evasion,
)
from rules.systems.ace.grapple import Hold, without
from rules.systems.ace.stealth import Hidden, ambushers, mark_ambush, reveal

SIDES: tuple[str, ...] = ("party", "enemy")
MAX_FIGHTERS = 40


@dataclass(frozen=True, slots=True)
class Member:
    """One fighter in the initiative order: its roll and where it comes from."""

    name: str
    side: str = "party"
    owner: str | None = None
    dex: int = 0
    raw: int = 0
    bonus: int = 0
    initiative: int = 0
    ambush: bool = False


@dataclass(frozen=True, slots=True)
class Posture:
    stance: str = "none"
    charge: int = 0
    cover: str = "none"
    condition: str | None = None
    reflex_used: bool = False
    acted: bool = False  # took an action this turn (a full attack / defence comes first)


@dataclass(frozen=True)
class Fight:
    """Members (in order once started), current index, round (0: not started),
    postures by name, grapple holds, hidden fighters."""

    members: tuple[Member, ...] = ()
    current: int = 0
    round: int = 0
    postures: dict[str, Posture] = field(default_factory=dict)
    holds: tuple[Hold, ...] = ()
    hidden: tuple[Hidden, ...] = ()

    @property
    def started(self) -> bool:
        return self.round > 0

    @property
    def actor(self) -> Member | None:
        return self.members[self.current] if self.started and self.members else None

    def find(self, name: str) -> Member | None:
        key = name.strip().casefold()
        return next((m for m in self.members if m.name.casefold() == key), None)

    def posture(self, name: str) -> Posture:
        key = name.strip().casefold()
        return next((p for n, p in self.postures.items() if n.casefold() == key), Posture())


@dataclass(frozen=True, slots=True)
class TurnEvent:
    previous: str
    current: str
    round: int
    new_round: bool
    skipped: tuple[str, ...] = ()


def _key(name: str) -> str:
    return name.strip().casefold()


def roll_initiative(source: DiceSource, name: str, dex: int, *, side: str = "party",
                    owner: str | None = None, supernatural: bool = False) -> Member:
    """1d20 + 敏捷 (+ AE-12's ⌊敏捷 / 10⌋)."""
    if side not in SIDES:
        raise RuleError("ace.bad_side", side=side)
    raw = int(source.roll(HIT_DIE))
    bonus = super_evasion(dex, supernatural)
    return Member(name, side, owner, dex, raw, bonus, raw + dex + bonus)


def _rank(member: Member) -> tuple[int, int]:
    return member.initiative, member.dex


def check_join(fight: Fight, name: str) -> None:
    """Refuse a second fighter of that name, or one too many — before its die."""
    if fight.find(name) is not None:
        raise RuleError("ace.duplicate_name", name=name)
    if len(fight.members) >= MAX_FIGHTERS:
        raise RuleError("ace.too_many_fighters", max=MAX_FIGHTERS)


def join(fight: Fight, member: Member) -> Fight:
    """A fighter enters (decision 2 once the fight runs)."""
    check_join(fight, member.name)
    if not fight.started:
        return replace(fight, members=(*fight.members, member))
    at = len(fight.members)
    for i, other in enumerate(fight.members):
        if not other.ambush and _rank(other) < _rank(member):
            at = i
            break
    order = turns.insert(turns.TurnOrder(fight.members, fight.current, fight.round), at,
                         member)
    return replace(fight, members=order.members, current=order.current)


def start(fight: Fight) -> Fight:
    """Round 1: undiscovered hiders first (AE-13 ambush), then by initiative (decision 1)."""
    if fight.started:
        raise RuleError("ace.fight_started")
    if not fight.members:
        raise RuleError("ace.fight_empty")
    hidden = {_key(n) for n in ambushers(fight.hidden)}
    members = [replace(m, ambush=_key(m.name) in hidden) for m in fight.members]
    ordered = sorted(enumerate(members),
                     key=lambda im: (not im[1].ambush, -im[1].initiative, -im[1].dex, im[0]))
    first = tuple(m for _, m in ordered)
    postures = _fresh_round(fight.postures, first[0].name)
    return replace(fight, members=first, current=0, round=1, postures=postures,
                   hidden=mark_ambush(fight.hidden))


def _fresh_round(postures: Mapping[str, Posture], name: str) -> dict[str, Posture]:
    """Decision 3: the fighter whose turn starts drops its stance and reflex."""
    out = dict(postures)
    for stored, posture in postures.items():
        if _key(stored) == _key(name):
            out[stored] = replace(posture, stance="none", charge=0, reflex_used=False,
                                  acted=False)
    return out


def next_turn(fight: Fight, lives: Mapping[str, Life] | None = None
              ) -> tuple[Fight, TurnEvent]:
    """The current turn ends; the next active fighter acts (decision 4: ``lives`` by
    name, a fighter not in it is active)."""
    if not fight.started:
        raise RuleError("ace.fight_not_started")
    by_key = {_key(n): life for n, life in (lives or {}).items()}
    order, change = turns.advance(
        turns.TurnOrder(fight.members, fight.current, fight.round),
        skips=passes_fallen(lambda m: by_key.get(_key(m.name), Life.ACTIVE)))
    postures = _fresh_round(fight.postures, change.current.name)
    for passed in change.skipped:  # a passed-over turn ends a stance too (decision 3)
        postures = _fresh_round(postures, passed.name)
    new = replace(fight, members=order.members, current=order.current, round=order.round,
                  postures=postures)
    return new, TurnEvent(change.previous.name, change.current.name, change.round,
                          change.new_round, tuple(m.name for m in change.skipped))


def remove(fight: Fight, name: str) -> Fight:
    """A fighter leaves: out of the order, its holds, posture and hiding dropped."""
    member = fight.find(name)
    if member is None:
        raise RuleError("ace.unknown_fighter", name=name)
    index = fight.members.index(member)
    members: tuple[Member, ...]
    if len(fight.members) == 1:
        members, current = (), 0
    else:
        order = turns.remove(turns.TurnOrder(fight.members, fight.current, fight.round),
                             index)
        members, current = order.members, order.current
    postures = {n: p for n, p in fight.postures.items() if _key(n) != _key(name)}
    return replace(fight, members=members, current=current,
                   round=fight.round if members else 0, postures=postures,
                   holds=without(fight.holds, member.name),
                   hidden=reveal(fight.hidden, member.name))


def _with_posture(fight: Fight, name: str, **changes: Any) -> Fight:
    stored = next((n for n in fight.postures if _key(n) == _key(name)), name.strip())
    postures = dict(fight.postures)
    postures[stored] = replace(fight.posture(name), **changes)
    return replace(fight, postures=postures)


DECLARED_AT_START = frozenset({"full_attack", "full_defense"})
"""Stances a fighter declares at the start of its own turn, before any action
(decision 5)."""


def set_stance(fight: Fight, name: str, stance: str, *, metres: int = 0,
               strength: int = 0) -> Fight:
    """AE-10: a stance for this round (a charge: its metres, at most ⌊力量 / 2⌋); in a
    running fight a full attack or full defence only at the start of one's own turn."""
    check_stance(stance)
    if stance in DECLARED_AT_START and fight.started:
        actor = fight.actor
        if actor is None or _key(actor.name) != _key(name):
            raise RuleError("ace.out_of_turn", name=name.strip(),
                            actor=actor.name if actor else "")
        if fight.posture(name).acted:
            raise RuleError("ace.stance_after_action", name=name.strip(), stance=stance)
    if stance == "charge":
        check_charge(strength, metres)
    return _with_posture(fight, name, stance=stance, charge=metres if stance == "charge" else 0)


def set_cover(fight: Fight, name: str, cover: str) -> Fight:
    """AE-10: light / partial / heavy / total cover, or none."""
    check_cover(cover)
    return _with_posture(fight, name, cover=cover)


def set_condition(fight: Fight, name: str, condition: str | None) -> Fight:
    """AE-8's conditions: unconscious, asleep, petrified (None clears)."""
    check_condition(condition)
    return _with_posture(fight, name, condition=condition)


def spend_reflex(fight: Fight, name: str) -> Fight:
    """One reflex action per round (decision 3); outside a running fight no round is
    counted and nothing is tracked."""
    if not fight.started:
        return fight
    if fight.posture(name).reflex_used:
        raise RuleError("ace.reflex_used", name=name)
    return _with_posture(fight, name, reflex_used=True)


def mark_acted(fight: Fight, name: str) -> Fight:
    """``name`` took an action this turn (decision 5); outside a fight nothing is kept."""
    if not fight.started:
        return fight
    return _with_posture(fight, name, acted=True)


def fallen_dead(fight: Fight, name: str) -> Fight:
    """The dead hold nobody and nobody holds them (the play-test: a pin outlived its
    target); a helpless state ends with them (the order says 死亡, not 死亡 and 昏迷)."""
    fight = replace(fight, holds=tuple(h for h in fight.holds
                                       if name not in (h.grappler, h.target)))
    return _with_posture(fight, name, condition=None) \
        if fight.posture(name).condition is not None else fight


def with_holds(fight: Fight, holds: tuple[Hold, ...]) -> Fight:
    return replace(fight, holds=holds)


def with_hidden(fight: Fight, hidden: tuple[Hidden, ...]) -> Fight:
    return replace(fight, hidden=hidden)


def end(fight: Fight) -> Fight:
    """The fight is over: order, postures, holds and hiding are gone."""
    return Fight()
