"""`plurk` — 噗浪式 TRPG (DnD + CoC hybrid), seed 003.

Pure rules: state and an injected :class:`~rules.dice.source.DiceSource` in,
frozen result dataclasses out. No I/O, no chat text; every refusal is a
``RuleError("plurk.<code>", **params)`` (codes listed in ``docs/systems/plurk.md``).

One module per concern; this package re-exports the public API (``__all__``):

- ``vocabulary``  ``SYSTEM`` (stats with aliases), ``resolve_stat``, ``stat_label``, …
- ``dice``        PL-1 damage / SAN-loss dice on ``rules.dice.parse_flat`` / ``roll_flat``
- ``checks``      PL-2, 3, 4, 7, 10
- ``losses``      PL-5, 12 (sanity, fatal events, CP)
- ``opposed``     PL-6, 14 (surprise)
- ``multiple``    PL-8, 9
- ``points``      PL-11 (AP, on the ``rules.kits.costs`` tables)
- ``cells``       PL-15 cells on the ``rules.kits.grid`` kit (names, board sizes, distance)
- ``battle``      PL-13, 14 (turns on the ``rules.kits.turns`` kit, BP costs), placing, moves
- ``field``       PL-15 resizing the field, the board as text
- ``damage``      PL-16, 17, 18
- ``common``      private helpers

Rule ids implemented (``../shared/RULES.md``):

- PL-1  dice come only from the injected source (the bot wraps Plurk emoticon dice
        in a source that yields the player's own values first); ``roll_dice``
        rolls the flat ``NdM±K`` sums used for damage and SAN loss with ``rules.dice``.
- PL-2  ``check`` — raw 1d20 + modifier (sheet) + bonus (situational) ≥ threshold (11).
- PL-3  crit (raw 20) / fumble (raw 1) reported apart from success.
- PL-4  ``fate_check`` — only after a crit or fumble; certain success / failure.
- PL-5  ``sanity_check`` — 1d100 ≤ SAN, loss pair ``1/1d6`` parsed and applied.
- PL-6  ``opposed`` — general / zero_sum / one_way; attribute vs skill refused.
- PL-7  secret roll = an ordinary ``check``; the bot routes it privately.
        ``secret_notice`` builds the only thing the channel may see.
- PL-8  ``merged_check`` / ``compound_check`` (2–5 stats).
- PL-9  ``collective_check`` (one raw for ≥ 2 investigators, no combat skills).
- PL-10 take 10 / take 20 (``mode=``) and ``push``.
- PL-11 ``ApPool`` with ``grant_ap`` / ``set_ap`` / ``spend_ap`` / ``set_ap_cost``.
- PL-12 ``is_fatal`` / ``apply_loss`` / ``intervene`` / ``award_cp``.
- PL-13 ``Battle`` with BP, rounds from 0, ``spend_bp`` / ``pass_turn`` / ``skip_turn``.
- PL-14 ``start_battle`` (靈巧 initiative, ties rerolled) and ``surprise_check``.
- PL-15 field: ``parse_cell`` / ``place`` / ``move`` / ``set_field`` / ``render_board``.
- PL-16 ``declare_parry`` and parry absorption inside ``apply_damage``.
- PL-17 ``knock_out_roll`` (pure) and ``knock_out`` (on a battle).
- PL-18 ``damage_after_armor`` / ``roll_damage(impale=...)`` / ``apply_damage``.

Decisions taken where RULES.md and the seed are silent (the seed lost its tables):

1.  Attributes are the six DnD ones — 力量 STR, 靈巧 DEX, 體質 CON, 智力 INT,
    感知 WIS, 魅力 CHA. Their values are small numbers added straight to the d20
    (the BP formula floor(靈巧/2)+3 and the 體質 threshold raw×2 only make sense so).
2.  Skills are those the seed names (觀察 盲覺 潛行 心理學 交涉 知識 醫療, combat:
    普通攻擊 武器 擒拿 武術 弓術 槍炮 投擲). ``知識：醫學``-style specialisations
    resolve to their base skill. A named stat the system does not know counts as a
    non-combat *skill* (sheets add skills, the attribute list is closed); a check
    without a stat name (a bare number) has no kind and is never refused for kind.
3.  Take 10 / take 20 roll no die and are never a crit or a fumble.
4.  Push: only a *failed*, non-fumbled check; attributes and combat skills are
    refused; an unnamed check may be pushed (the GM agreed). A failed push has
    ``fumble=True`` (a failed push on a raw 20 is both crit and fumble).
5.  Fate check: raw 1d20 only, no modifiers. Crit + success → certain success;
    fumble + failure → certain failure; any other combination keeps the original.
6.  Sanity check: no crit/fumble on the 1d100; a negative loss roll counts as 0;
    SAN never goes below 0.
7.  Fatal event: a loss > 0 that leaves HP/SAN ≤ 0. An intervention whose cost
    exceeds the CP held is refused.
8.  Opposed, zero-sum: "modifier" means sheet value + situational bonus; ties of
    both are rerolled at most ``MAX_REROLLS`` times (then ``plurk.reroll_limit``).
    One-way: the passive value is 10 + modifier + bonus and the active side wins ties.
9.  Multiple checks need distinct stats; the compound mean is floored (toward −∞).
    The compound result is a ``CheckResult`` labelled ``A+B``: kind "attribute" only
    if all are attributes, combat if any is a combat skill.
10. AP actions have canonical keys observe / interview / move / item (Chinese and
    English aliases); the GM may add actions or pass an explicit cost. Only a spend
    reports ``exhausted`` (granting or setting 0 is the GM's own doing).
11. Battle: enemies and allies have BP with the same formula. Initiative tie-breaks
    are plain d20 rerolls among the tied (no modifier), repeated until resolved;
    dice order: every entrant's check in the given order, then tied groups from the
    highest value down, members in the given order. With surprise (``first_side``)
    the surprising side acts before the other side; each side keeps its initiative
    order. A combatant added mid-battle loses ties and, when inserted before the
    current actor, first acts next round.
12. Unconscious = loses that many of its own turns (one per round, 3D6 of them).
    Combatants with HP ≤ 0 are passed over. A parry declaration lasts until the
    declarer's next turn starts. BP refills both for the one whose turn ends and
    for the one whose turn starts.
13. Parry absorbs before armor. It needs a weapon durability > 0 and applies to
    the named enemy's parryable attacks: melee kinds and thrown (never bow, gun,
    cannon, nor "other" = monster claws, spells…). Without an attack kind, an
    attack is parryable iff the attacker is human-like. The GM passes
    ``parry=False`` when the parry check failed.
14. Knock-out: the condition (raw ≥ half current HP, i.e. raw×2 ≥ HP) and the
    體質 check (raw×2 threshold, target's 體質 as modifier) use the raw damage; the
    resulting 1 or round-half-up(raw/3) damage then goes through parry and armor
    like any physical hit. A knocked-out target loses its parry declaration.
15. Impale doubles the dice terms of the damage expression and keeps flat
    modifiers once (``1d6+2`` impaled = 2d6+2); rolls are listed pass by pass.
16. Damage types physical / mental / conceptual: the last two ignore armor and
    cannot be parried. ``apply_damage`` always reduces HP; SAN losses go through
    ``sanity_check`` / ``apply_loss`` on the sheet.
17. Field: A1 is the top-left cell, columns are letters, rows numbers; a move costs
    Chebyshev distance × the move cost, terrain and paths are the GM's; the GM's
    ``place`` costs no BP.
18. Life (issue 24, the encounter kit's ``Life``, ``life_of``): knocked out or at
    0 HP is down, dead once an investigator's fatal event was accepted (PL-12), an
    enemy or ally at 0 HP is hit again, or the GM says so. Only an active combatant
    acts (BP, move, parry, attack); a dead one is no target; HP stays within
    0 … the HP it entered with (``hp_max``).
"""

from __future__ import annotations

from rules.systems.plurk_trpg.battle import (
    BP_ACTION_ALIASES,
    BP_DEFAULT_COSTS,
    COMBATANT_KINDS,
    Battle,
    BpEvent,
    Combatant,
    Entrant,
    MoveEvent,
    TurnEvent,
    add_combatant,
    bp_max_for,
    end_battle,
    life_of,
    move,
    pass_fallen,
    pass_turn,
    place,
    remove_combatant,
    require_target,
    set_bp_cost,
    skip_turn,
    spend_bp,
    start_battle,
    update_combatant,
)
from rules.systems.plurk_trpg.cells import FIELD_DEFAULT, FIELD_MAX, cell_name, distance, parse_cell
from rules.systems.plurk_trpg.checks import (
    CHECK_DIE,
    CHECK_MODES,
    DEFAULT_THRESHOLD,
    FATE_THRESHOLD,
    TAKE_10,
    TAKE_20,
    CheckResult,
    FateResult,
    SecretNotice,
    check,
    fate_check,
    push,
    secret_notice,
)
from rules.systems.plurk_trpg.common import (
    MAX_REROLLS,
)
from rules.systems.plurk_trpg.damage import (
    ARMORLESS_TYPES,
    ATTACK_KINDS,
    DAMAGE_TYPES,
    IMPALE_KINDS,
    KNOCKOUT_DICE,
    KNOCKOUT_KINDS,
    PARRYABLE_KINDS,
    DamageResult,
    KnockOutEvent,
    KnockOutResult,
    apply_damage,
    attack_kind,
    can_parry,
    cancel_damage,
    damage_after_armor,
    declare_parry,
    effective_armor,
    knock_out,
    knock_out_roll,
    roll_damage,
    wake,
)
from rules.systems.plurk_trpg.dice import (
    DICE_MAX_COUNT,
    DICE_MAX_FACES,
    DICE_MAX_LENGTH,
    DiceRoll,
    DiceTerm,
    parse_dice,
    roll_dice,
)
from rules.systems.plurk_trpg.field import board_grid, render_board, set_field
from rules.systems.plurk_trpg.losses import (
    INTERVENTION_MIN_COST,
    INTERVENTION_MIN_CP,
    SAN_DIE,
    Intervention,
    LossResult,
    SanityResult,
    SanLoss,
    apply_loss,
    award_cp,
    intervene,
    is_fatal,
    parse_san_loss,
    sanity_check,
)
from rules.systems.plurk_trpg.multiple import (
    COLLECTIVE_MIN,
    MULTIPLE_MAX,
    MULTIPLE_MIN,
    CheckItem,
    CollectiveResult,
    CompoundResult,
    Member,
    MergedResult,
    NamedCheck,
    StatRef,
    collective_check,
    compound_check,
    merged_check,
)
from rules.systems.plurk_trpg.opposed import (
    OPPOSED_MODES,
    PASSIVE_BASE,
    OpposedResult,
    OpposedRoll,
    OpposedSide,
    SurpriseResult,
    opposed,
    surprise_check,
)
from rules.systems.plurk_trpg.points import (
    AP_ACTION_ALIASES,
    AP_DEFAULT_COSTS,
    ApEvent,
    ApPool,
    grant_ap,
    set_ap,
    set_ap_cost,
    spend_ap,
)
from rules.systems.plurk_trpg.vocabulary import (
    SYSTEM,
    is_combat_skill,
    resolve_stat,
    stat_kind,
    stat_label,
)

__all__ = [
    "AP_ACTION_ALIASES",
    "AP_DEFAULT_COSTS",
    "ARMORLESS_TYPES",
    "ATTACK_KINDS",
    "BP_ACTION_ALIASES",
    "BP_DEFAULT_COSTS",
    "CHECK_DIE",
    "CHECK_MODES",
    "COLLECTIVE_MIN",
    "COMBATANT_KINDS",
    "DAMAGE_TYPES",
    "DEFAULT_THRESHOLD",
    "DICE_MAX_COUNT",
    "DICE_MAX_FACES",
    "DICE_MAX_LENGTH",
    "FATE_THRESHOLD",
    "FIELD_DEFAULT",
    "FIELD_MAX",
    "IMPALE_KINDS",
    "INTERVENTION_MIN_COST",
    "INTERVENTION_MIN_CP",
    "KNOCKOUT_DICE",
    "KNOCKOUT_KINDS",
    "MAX_REROLLS",
    "MULTIPLE_MAX",
    "MULTIPLE_MIN",
    "OPPOSED_MODES",
    "PARRYABLE_KINDS",
    "PASSIVE_BASE",
    "SAN_DIE",
    "SYSTEM",
    "TAKE_10",
    "TAKE_20",
    "ApEvent",
    "ApPool",
    "Battle",
    "BpEvent",
    "CheckItem",
    "CheckResult",
    "CollectiveResult",
    "Combatant",
    "CompoundResult",
    "DamageResult",
    "DiceRoll",
    "DiceTerm",
    "Entrant",
    "FateResult",
    "Intervention",
    "KnockOutEvent",
    "KnockOutResult",
    "LossResult",
    "Member",
    "MergedResult",
    "MoveEvent",
    "NamedCheck",
    "OpposedResult",
    "OpposedRoll",
    "OpposedSide",
    "SanLoss",
    "SanityResult",
    "SecretNotice",
    "StatRef",
    "SurpriseResult",
    "TurnEvent",
    "add_combatant",
    "apply_damage",
    "apply_loss",
    "attack_kind",
    "award_cp",
    "board_grid",
    "bp_max_for",
    "can_parry",
    "cancel_damage",
    "cell_name",
    "check",
    "collective_check",
    "compound_check",
    "damage_after_armor",
    "declare_parry",
    "distance",
    "effective_armor",
    "end_battle",
    "fate_check",
    "grant_ap",
    "intervene",
    "is_combat_skill",
    "is_fatal",
    "knock_out",
    "knock_out_roll",
    "life_of",
    "merged_check",
    "move",
    "opposed",
    "parse_cell",
    "parse_dice",
    "parse_san_loss",
    "pass_fallen",
    "pass_turn",
    "place",
    "push",
    "remove_combatant",
    "render_board",
    "require_target",
    "resolve_stat",
    "roll_damage",
    "roll_dice",
    "sanity_check",
    "secret_notice",
    "set_ap",
    "set_ap_cost",
    "set_bp_cost",
    "set_field",
    "skip_turn",
    "spend_ap",
    "spend_bp",
    "start_battle",
    "stat_kind",
    "stat_label",
    "surprise_check",
    "update_combatant",
    "wake",
]
