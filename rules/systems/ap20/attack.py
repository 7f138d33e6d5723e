"""AP-3 attack check, AP-4 critical check, AP-6 layers, AP-7 sneak attack — and the whole
attack (``resolve_attack``): the attacker's action points, the defender's reaction,
the check, the damage and its type.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rules.dice.source import DiceSource
from rules.errors import RuleError
from rules.kits.advantage import D20, Layer, roll_d20
from rules.systems.ap20.actions import ACTIONS, Spend, spend
from rules.systems.ap20.damage import DamageRoll, check_expression, roll_damage
from rules.systems.ap20.defense import Defense, defense_level

SNEAK_HIT = 10
SNEAK_CRIT = 10
"""AP-7: a sneak attack has +1 advantage, 命中 +10 and 重擊強度 +10."""


@dataclass(frozen=True, slots=True)
class AttackCheck:
    """Every number of one attack check.

    ``strength`` = 命中 + 破甲 (+10 命中 for a sneak attack); ``total`` = kept d20 +
    strength + mods; ``hit`` when total ≥ defence, never on a raw 1, always on a raw 20.
    ``crit_threshold`` = 20 + toughness − crit strength (AP-4); ``crit_by`` is
    ``raw20`` or ``threshold`` (a threshold crit needs a hit: decision 7)."""

    rolls: tuple[int, ...]
    raw: int
    advantage: int
    disadvantage: int
    layers: tuple[Layer, ...]
    hit_level: int
    pen: int
    sneak: bool
    sneak_cancelled: bool
    strength: int
    mods: int
    total: int
    defense: int
    hit: bool
    fumble: bool
    auto_hit: bool
    crit: bool
    crit_by: str | None
    crit_strength: int
    toughness: int
    crit_threshold: int


def attack_check(source: DiceSource, *, hit: int, pen: int, defense: int, mods: int = 0,
                 crit_strength: int = 0, toughness: int = 0, layers: Iterable[Layer] = (),
                 sneak: bool = False, seen: bool = False) -> AttackCheck:
    """AP-3/4/6/7: roll the d20 (two under net advantage or disadvantage) and judge.

    ``sneak`` asks for a sneak attack (hidden, invisible, or a flank from a blind
    spot); ``seen`` — the target has blindsight or true sight — cancels it
    (``sneak_cancelled``)."""
    applied = sneak and not seen
    layers = tuple(layers) + ((Layer(1, "sneak"),) if applied else ())
    d20: D20 = roll_d20(source, layers)
    raw = d20.kept
    hit_level = hit + (SNEAK_HIT if applied else 0)
    crit_strength_total = crit_strength + (SNEAK_CRIT if applied else 0)
    strength = hit_level + pen
    total = raw + strength + mods
    fumble, auto_hit = raw == 1, raw == 20
    hits = not fumble and (auto_hit or total >= defense)
    threshold = 20 + toughness - crit_strength_total
    crit_by = "raw20" if auto_hit else "threshold" if hits and raw >= threshold else None
    return AttackCheck(d20.rolls, raw, d20.advantage, d20.disadvantage, layers, hit_level, pen,
                       applied, sneak and seen, strength, mods, total, defense, hits, fumble,
                       auto_hit, crit_by is not None, crit_by, crit_strength_total, toughness,
                       threshold)


@dataclass(frozen=True, slots=True)
class AttackSpec:
    """Everything an attack needs, as numbers (the bot reads sheets and state).

    ``action``: ``standard`` (a normal attack, 3 AP) or ``swift`` (an opportunity
    attack, 2 AP). ``defender_parts``: armor/dodge/block/parry levels; ``lost``: parts
    a tactical layer takes away; ``undefendable``: the target cannot react (a back
    attack — nothing spent, only armor); ``nodef``: the target does not defend."""

    attacker_ap: int
    defender_ap: int
    hit: int = 0
    pen: int = 0
    mods: int = 0
    crit_strength: int = 0
    toughness: int = 0
    defender_parts: Mapping[str, int] | None = None
    defense_mods: Mapping[str, int] | None = None
    incapacitated: bool = False
    lost: frozenset[str] = frozenset()
    undefendable: bool = False
    nodef: bool = False
    layers: tuple[Layer, ...] = ()
    sneak: bool = False
    seen: bool = False
    damage: str | None = None
    damage_type: str | None = None
    resistances: Mapping[str, int] | None = None
    action: str = "standard"


@dataclass(frozen=True, slots=True)
class Attack:
    """One resolved attack: the attacker's spend, the defender's reaction (1 AP when it
    defends) and defence, the check, and the damage on a hit."""

    spend: Spend
    defended: bool
    reaction_ap_before: int
    reaction_ap_after: int
    defense: Defense
    check: AttackCheck
    damage: DamageRoll | None


def resolve_attack(source: DiceSource, spec: AttackSpec) -> Attack:
    """A whole attack, in this order: the attacker pays (AP-1; refused below 0, before
    any die), the defender reacts — 1 AP (AP-1 reaction) if it has one, is not
    incapacitated and may defend; else only armor counts (AP-2) —, the check (AP-3 …
    AP-7), and on a hit the damage (dice × 2 on a crit, AP-9 type and resistance).

    Dice order: the attack d20 (two under advantage / disadvantage), then the damage."""
    if spec.action not in ("standard", "swift"):
        raise RuleError("ap20.attack_action", action=spec.action)
    if spec.damage is not None:
        check_expression(spec.damage)
    paid = spend(spec.action, spec.attacker_ap)
    reaction = ACTIONS["reaction"][0]
    reason = ("undefendable" if spec.undefendable else "nodef" if spec.nodef else None)
    defends = reason is None and not spec.incapacitated and spec.defender_ap >= reaction
    after = spec.defender_ap - reaction if defends else spec.defender_ap
    defense = defense_level(spec.defender_parts or {}, spec.defense_mods,
                            ap=spec.defender_ap, incapacitated=spec.incapacitated,
                            lost=spec.lost, armor_only=reason)
    check = attack_check(source, hit=spec.hit, pen=spec.pen, defense=defense.total,
                         mods=spec.mods, crit_strength=spec.crit_strength,
                         toughness=spec.toughness, layers=spec.layers, sneak=spec.sneak,
                         seen=spec.seen)
    damage = None
    if check.hit and spec.damage is not None:
        damage = roll_damage(source, spec.damage, kind=spec.damage_type, crit=check.crit,
                             resistances=spec.resistances)
    return Attack(paid, defends, spec.defender_ap, after, defense, check, damage)
