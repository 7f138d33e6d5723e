"""`ap20` — 規則書·戰鬥篇 (action points and a d20), seed 001.

Pure rules: state and an injected :class:`~rules.dice.source.DiceSource` in, frozen
result dataclasses out; no I/O, no chat text; refusals are
``RuleError("ap20.<code>", **params)`` (codes in ``docs/systems/ap20.md``).

- ``vocabulary``  ``SYSTEM`` (stats with aliases), ``modifier``, ``KEYS``
- ``actions``     AP-1 costs and ``spend``
- ``defense``     AP-2 ``defense_level``
- ``attack``      AP-3, 4, 6, 7 ``attack_check``; the whole attack ``resolve_attack``
- ``checks``      AP-5 ``saving_throw`` / ``save_dc``; AP-8 ``tier_bonus`` / ``monster_hp``
- ``damage``      AP-9 damage types, ``roll_damage`` (crit: dice × 2), resistances
- ``combat``      the fight on the ``rules.kits.turns`` kit (AP refill at turn start)

Advantage / disadvantage layers (AP-6) are the ``rules.kits.advantage`` kit's, so that
a tactical layer (v6) can add its own without either system importing the other.

Rule ids implemented (``../shared/RULES.md``):

- AP-1 ``ACTIONS`` / ``spend`` (maneuver 5 + double stamina, standard 3, swift 2,
       reaction 1, casts 3/2/1 + 3 精神力; below 0 refused); ``next_turn`` refills the
       incoming actor to its max (default 6) through the turn kit's ``on_turn_start``.
- AP-2 ``defense_level``: four parts clamped at ≥ 0; armor only at 0 AP or 失能.
- AP-3 ``attack_check``: d20 + 命中 + 破甲 + mods ≥ defence; raw 1 never hits, raw 20
       always hits and crits; ``roll_damage(crit=True)`` doubles the dice.
- AP-4 crit also when raw ≥ 20 + toughness − crit strength (on a hit).
- AP-5 ``saving_throw`` / ``save_dc`` (10 + modifier + mods); raw 1 fails and takes a
       crit, raw 20 succeeds.
- AP-6 ``rules.kits.advantage.roll_d20``: layers add up and cancel.
- AP-7 ``attack_check(sneak=True)``: +1 advantage, 命中 +10, 重擊強度 +10; cancelled by
       blindsight / true sight (``seen``).
- AP-8 ``tier_bonus`` (+1 per tier above 1 on attribute checks), ``monster_hp``
       (體質 × 5 × tier).
- AP-9 ``DAMAGE_TYPES``, ``damage_type``, resistances in ``roll_damage`` / ``fixed_damage``.

Decisions where RULES.md and the seed are silent:

1.  Attributes (力量 敏捷 體質 智力 感知 魅力) are scores; a check adds the modifier
    (score − 10) ÷ 2 rounded down, the 調整值 of the d20 games the seed borrows from.
2.  Initiative is a 敏捷 check (d20 + modifier + tier bonus); ties go to the higher
    modifier, then to whoever joined first. The fight starts at round 1 with the first
    `next`; everyone starts with full action points.
3.  A maneuver, a standard action (a normal attack) and a standard cast are taken on
    one's own turn; swift actions (an opportunity attack), reactions and swift / instant
    casts on anyone's.
4.  Only a maneuver takes a stamina cost, doubled (AP-1), from the sheet's 耐力 — the
    seed's 體力, named apart from the 體力 that other systems use for hit points.
5.  A crit's "damage dice × 2": the dice are rolled once and their sum doubled; the
    modifiers are added once. A damage total below 0 is 0.
6.  A resistance is a number taken off that type's damage (never below 0); a negative
    one is a weakness; 真實 (true) damage ignores resistances.
7.  A crit by threshold (AP-4) needs a hit; a raw 1 never hits nor crits.
8.  Defending is the reaction of AP-1: a target with at least 1 action point, not
    incapacitated, that may defend spends 1 automatically and counts its whole
    defence; otherwise only armor counts (AP-2) and nothing is spent. A GM may rule
    that a target does not defend (``nodef``).
9.  Action points live in the fight; outside one there are none to spend.
10. Being hidden or invisible makes one's attacks sneak attacks; those states, and
    blindsight / true sight, last until changed (the GM's call when they end).
11. The damage of an attack is the expression typed (the seed's "usually weapon damage
    + attack strength" is written into it by the player).
12. A fighter at 0 HP counts as incapacitated (AP-2: armor only) and is ``down``
    (``rules.kits.encounter.Life``, issue 24), as is a 失能 one: it cannot act, its
    turn is passed over without a refill. Attacks on it are allowed (armor only).
13. (the seed's "precise calculation" is not used: AP-3 adds both levels against the
    whole defence — docs/systems/ap20.md)
14. The seed names no death: a fighter is dead only by the GM's word (``+死亡``). A dead
    fighter cannot act nor be attacked; its turn is passed over.
15. 隱匿 / 隱形 / 真實視覺 / 盲視 grant a benefit (AP-7), so only the GM sets them.
    隱匿 ends with the attack it turned into a sneak attack (attacking gives the
    attacker away); 隱形 and the senses last until the GM ends them.
16. A fighter's maximum HP is its HP when it entered (a monster's AP-8 體質 × 5 ×
    tier, a player's sheet 生命上限 when it has one); HP set by the GM stays within
    0 … maximum.
"""

from rules.systems.ap20.actions import ACTIONS, ALIASES, OWN_TURN_ONLY, Spend, action_key, spend
from rules.systems.ap20.attack import (
    SNEAK_CRIT,
    SNEAK_HIT,
    Attack,
    AttackCheck,
    AttackSpec,
    attack_check,
    resolve_attack,
)
from rules.systems.ap20.checks import Check, check, monster_hp, save_dc, saving_throw, tier_bonus
from rules.systems.ap20.combat import (
    FLAGS,
    GRANTING,
    SIDES,
    Combat,
    Fighter,
    Turn,
    after_attack,
    check_turn,
    hp_within,
    hurt,
    initiative,
    join,
    leave,
    life,
    next_turn,
    refill,
    remove,
    spend_action,
    update,
    with_flags,
)
from rules.systems.ap20.damage import (
    DAMAGE_TYPES,
    DamageRoll,
    check_expression,
    damage_type,
    fixed_damage,
    roll_damage,
)
from rules.systems.ap20.defense import Defense, defense_level
from rules.systems.ap20.vocabulary import ATTRIBUTES, DEFAULT_AP, KEYS, SYSTEM, modifier

__all__ = [
    "ACTIONS", "ALIASES", "ATTRIBUTES", "DAMAGE_TYPES", "DEFAULT_AP", "FLAGS", "GRANTING",
    "KEYS", "OWN_TURN_ONLY", "SIDES", "SNEAK_CRIT", "SNEAK_HIT", "SYSTEM", "Attack",
    "AttackCheck", "AttackSpec", "Check", "Combat", "DamageRoll", "Defense", "Fighter",
    "Spend", "Turn", "action_key", "after_attack", "attack_check", "check",
    "check_expression", "check_turn", "damage_type", "defense_level", "fixed_damage",
    "hp_within", "hurt", "initiative", "join", "leave", "life", "modifier", "monster_hp",
    "next_turn", "refill", "remove", "resolve_attack", "roll_damage", "save_dc",
    "saving_throw", "spend", "spend_action", "tier_bonus", "update", "with_flags",
]
