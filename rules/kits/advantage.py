"""Advantage / disadvantage layers on a d20, and what a tactical layer tells an attack.

A d20 game that counts advantage in *layers* (ap20's AP-6) and a tactical layer that
produces them (v6's postures and facing, V6-1/V6-2) meet here, so that neither system
imports the other:

- ``Layer``: one signed source of advantage (+n) or disadvantage (−n) with a stable
  ``reason`` key (``crouch_shooter``, ``sneak``, ``gm``) that the bot renders;
- ``net`` / ``roll_d20``: layers add up and cancel one for one; a net above 0 rolls two
  d20 and keeps the higher, below 0 the lower, 0 one d20;
- ``AttackKind``: what kind of weapon attack a layer judges (melee, a direct-fire
  ranged attack — a shot —, or another ranged attack such as a throw);
- ``AttackTactics``: a layer's verdict on one attack — its layers, the defence parts
  the target cannot use (a back attack cannot be defended), whether it is a sneak
  attack from a blind spot — merged over every layer a channel plays with ``merge``.

Pure: no I/O, dice only from the injected source.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from rules.dice.source import DiceSource

AttackKind = Literal["melee", "shot", "throw"]
ATTACK_KINDS: tuple[AttackKind, ...] = ("melee", "shot", "throw")
"""melee: a weapon in hand; shot: a direct-fire ranged attack (射擊 / 隔空); throw: any
other ranged weapon attack (thrown, lobbed)."""

DEFENSE_PARTS = ("armor", "dodge", "block", "parry")
"""The four parts of a defence level (ap20 AP-2), in the order they are listed."""


@dataclass(frozen=True, slots=True)
class Layer:
    """``amount`` layers of advantage (> 0) or disadvantage (< 0), and why."""

    amount: int
    reason: str


def net(layers: Iterable[Layer]) -> int:
    """Layers add up and cancel one for one (2 advantage + 1 disadvantage → +1)."""
    return sum(layer.amount for layer in layers)


@dataclass(frozen=True, slots=True)
class D20:
    """A d20 rolled under layers: every die, the one kept, and the layer counts."""

    rolls: tuple[int, ...]
    kept: int
    advantage: int
    disadvantage: int

    @property
    def net(self) -> int:
        return self.advantage - self.disadvantage

    @property
    def mode(self) -> str:
        """``adv`` (two dice, higher kept), ``dis`` (lower kept) or ``plain``."""
        return "adv" if self.net > 0 else "dis" if self.net < 0 else "plain"


def roll_d20(source: DiceSource, layers: Iterable[Layer] = ()) -> D20:
    """One d20, or two with the higher (net advantage) or lower (net disadvantage) kept."""
    layers = tuple(layers)
    advantage = sum(layer.amount for layer in layers if layer.amount > 0)
    disadvantage = -sum(layer.amount for layer in layers if layer.amount < 0)
    balance = advantage - disadvantage
    if balance == 0:
        face = source.roll(20)
        return D20((face,), face, advantage, disadvantage)
    rolls = (source.roll(20), source.roll(20))
    kept = max(rolls) if balance > 0 else min(rolls)
    return D20(rolls, kept, advantage, disadvantage)


@dataclass(frozen=True, slots=True)
class AttackTactics:
    """What the tactical layers say about one attack.

    ``layers`` add to the attack check; ``lost_defense`` are defence parts the target
    cannot use against it (a crawling target's parry); ``undefendable`` says the
    target may not defend at all (a back attack: only armor counts and no reaction is
    spent); ``sneak`` asks for a sneak attack from a blind spot; ``facts`` are numbers
    for the record (sector, distance, the flanking ally).
    """

    layers: tuple[Layer, ...] = ()
    lost_defense: frozenset[str] = frozenset()
    undefendable: bool = False
    sneak: bool = False
    facts: tuple[tuple[str, object], ...] = ()


def merge(verdicts: Iterable[AttackTactics]) -> AttackTactics:
    """Several layers' verdicts as one: layers, lost parts and facts add up, a sneak or
    an undefendable attack from any layer counts."""
    out = AttackTactics()
    for v in verdicts:
        out = AttackTactics(
            layers=out.layers + v.layers,
            lost_defense=out.lost_defense | v.lost_defense,
            undefendable=out.undefendable or v.undefendable,
            sneak=out.sneak or v.sneak,
            facts=out.facts + v.facts,
        )
    return out
