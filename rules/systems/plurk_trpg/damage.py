"""Damage (PL-16, 17, 18): attack kinds, armor and penetration, impale, parry
absorption, knock-out (with and without a battle) and the HP a hit takes.

Decisions where RULES.md and the seed are silent (see docs/systems/plurk-battle.md):

- Reach (PL-15/16): a melee attack (unarmed, blunt, edged, grapple, martial — and an
  attack of unknown kind) reaches the adjacent cells (Chebyshev 1) unless the GM
  gives a longer reach; ranged kinds (bow, gun, thrown) have no reach limit here.
  Only checked when both stand on the board.
- Impale (PL-18) is decided by the hit check: an impaling kind impales on a crit
  hit (raw 20, the seed's 有機會擊穿 read as 滿骰's bonus); declaring ``impale`` with
  a hit check that is no crit is refused. Without any hit check (the GM's ruling)
  the declaration stands.
- A weapon (edged ``武器``) or a thrown edged item that impaled stays in the target
  (``Combatant.stuck_in``): until it is retrieved its owner cannot parry with it
  nor attack with an edged weapon.
- A parry needs a weapon with durability > 0, and cannot be declared after an
  attack in the same round (seed: 攻擊及招架中擇一).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rules.dice.source import DiceSource
from rules.errors import RuleError
from rules.kits.costs import alias_table
from rules.kits.encounter import Life, require_active
from rules.systems.plurk_trpg.battle import (
    Battle,
    BpEvent,
    _actor_index,
    _require_active,
    _spend,
    attack_or_parry,
    require_target,
)
from rules.systems.plurk_trpg.cells import distance
from rules.systems.plurk_trpg.checks import CheckResult, check
from rules.systems.plurk_trpg.common import _non_negative, _replace_combatant
from rules.systems.plurk_trpg.dice import DiceRoll, roll_dice
from rules.systems.plurk_trpg.losses import is_fatal
from rules.systems.plurk_trpg.vocabulary import resolve_stat

KNOCKOUT_DICE = "3d6"

ATTACK_KINDS: tuple[str, ...] = (
    "unarmed",
    "blunt",
    "edged",
    "grapple",
    "martial",
    "bow",
    "gun",
    "heavy_gun",
    "thrown_blunt",
    "thrown_edged",
    "other",
)
KNOCKOUT_KINDS = frozenset({"unarmed", "blunt", "grapple", "martial", "thrown_blunt"})
IMPALE_KINDS = frozenset({"edged", "bow", "gun", "thrown_edged"})
PARRYABLE_KINDS = frozenset(
    {"unarmed", "blunt", "edged", "grapple", "martial", "thrown_blunt", "thrown_edged"}
)
MELEE_KINDS = frozenset({"unarmed", "blunt", "edged", "grapple", "martial"})
LODGING_KINDS = frozenset({"edged", "thrown_edged"})
"""Kinds whose weapon stays in the target after an impale (〈武器〉, 〈投擲〉)."""
WEAPON_KINDS = frozenset({"edged", "blunt"})
"""Kinds that need the own weapon in hand (a stuck weapon cannot be used)."""
MELEE_REACH = 1
DAMAGE_TYPES: dict[str, str] = alias_table(
    {
        "physical": ("物理",),
        "mental": ("精神",),
        "conceptual": ("概念",),
    }
)
ARMORLESS_TYPES = frozenset({"mental", "conceptual"})


def attack_kind(skill: str, *, edged: bool | None = None, heavy: bool = False) -> str:
    """Attack kind of a combat skill, for knock-out, impale and parry.

    ``武器`` and ``投擲`` depend on the weapon/item: pass ``edged`` (True for a
    blade or point). ``槍炮`` with ``heavy=True`` is a cannon / grenade launcher.
    A kind id (``blunt``…) is accepted as is.
    """
    text = skill.strip()
    if text.casefold() in ATTACK_KINDS:
        return text.casefold()
    stat = resolve_stat(text)
    name = stat.name if stat is not None else None
    simple = {"普通攻擊": "unarmed", "擒拿": "grapple", "武術": "martial", "弓術": "bow"}
    if name in simple:
        return simple[name]
    if name == "槍炮":
        return "heavy_gun" if heavy else "gun"
    if name in ("武器", "投擲"):
        if edged is None:
            raise RuleError("plurk.attack_kind_ambiguous", skill=name)
        prefix = "thrown_" if name == "投擲" else ""
        return prefix + ("edged" if edged else "blunt")
    raise RuleError("plurk.unknown_attack_kind", kind=skill, allowed=", ".join(ATTACK_KINDS))


def _check_attack_kind(kind: str | None) -> None:
    if kind is not None and kind not in ATTACK_KINDS:
        raise RuleError("plurk.unknown_attack_kind", kind=kind, allowed=", ".join(ATTACK_KINDS))


def _damage_type(damage_type: str) -> str:
    canonical = DAMAGE_TYPES.get(damage_type.strip().casefold())
    if canonical is None:
        raise RuleError(
            "plurk.bad_damage_type",
            damage_type=damage_type,
            allowed="physical, mental, conceptual",
        )
    return canonical


def effective_armor(armor: int, penetration: int = 0, damage_type: str = "physical") -> int:
    """PL-18: max(0, armor − penetration); 0 against mental or conceptual damage."""
    if _damage_type(damage_type) in ARMORLESS_TYPES:
        return 0
    return max(0, armor - penetration)


def damage_after_armor(
    raw: int, armor: int, penetration: int = 0, damage_type: str = "physical"
) -> int:
    """PL-18: damage taken = max(0, raw − max(0, armor − penetration))."""
    return max(0, raw - effective_armor(armor, penetration, damage_type))


def roll_damage(
    source: DiceSource, expr: str, *, impale: bool = False, kind: str | None = None
) -> DiceRoll:
    """Roll a damage expression; impale (PL-18) rolls its dice twice and sums.

    Impale is refused unless ``kind`` is one of ``IMPALE_KINDS`` (bladed/pointed
    weapons and thrown items, bows, guns — not cannons or grenade launchers).
    A negative total counts as 0 damage.
    """
    _check_attack_kind(kind)
    if impale and kind not in IMPALE_KINDS:
        raise RuleError("plurk.impale_not_allowed", kind=kind)
    rolled = roll_dice(source, expr, passes=2 if impale else 1)
    return replace(rolled, total=max(0, rolled.total))


@dataclass(frozen=True, slots=True)
class KnockOutResult:
    """PL-17: the knock-out condition, the 體質 check and the damage it leaves.

    ``damage`` (1 if knocked out, else round-half-up(raw/3)) is before parry and armor.
    """

    raw_damage: int
    hp: int
    condition_met: bool  # raw ≥ half the current HP
    check: CheckResult | None  # 體質 check with threshold raw × 2, when the condition held
    knocked_out: bool
    rounds_rolls: tuple[int, ...]
    rounds: int
    damage: int
    already: bool = False
    """The target was unconscious already (issue 24): no 體質 check is rolled, it stays
    out for the turns it still had, and the blow deals a knock-out's 1."""


def _check_knockout_kind(kind: str) -> None:
    _check_attack_kind(kind)
    if kind not in KNOCKOUT_KINDS:
        raise RuleError("plurk.knockout_not_allowed", kind=kind)


def knock_out_roll(
    source: DiceSource,
    raw_damage: int,
    hp: int,
    con: int,
    *,
    kind: str,
    human_like: bool = True,
    con_bonus: int = 0,
) -> KnockOutResult:
    """PL-17 without a battle: decide a declared knock-out from the raw damage.

    Dice order: the 體質 d20 (only when raw×2 ≥ HP), then 3d6 rounds (only if it failed).
    """
    _non_negative(raw_damage, "raw_damage")
    _check_knockout_kind(kind)
    if not human_like:
        raise RuleError("plurk.knockout_not_human", target="")
    condition = raw_damage * 2 >= hp
    result: CheckResult | None = None
    knocked = False
    rounds_rolls: tuple[int, ...] = ()
    rounds = 0
    if condition:
        result = check(source, con, bonus=con_bonus, threshold=raw_damage * 2, stat="體質")
        knocked = not result.success
    if knocked:
        dice = roll_dice(source, KNOCKOUT_DICE)
        rounds_rolls, rounds = dice.rolls, dice.total
    damage = 1 if knocked else (raw_damage + 1) // 3
    return KnockOutResult(raw_damage, hp, condition, result, knocked, rounds_rolls, rounds, damage)


def can_parry(kind: str | None, attacker_human_like: bool) -> bool:
    """PL-16: melee and thrown attacks can be parried; bows, guns and "other" cannot.

    Without a kind, a human-like attacker's attack is taken as parryable and a
    monster's own attack as not.
    """
    if kind is None:
        return attacker_human_like
    return kind in PARRYABLE_KINDS


@dataclass(frozen=True, slots=True)
class DamageResult:
    """Every step of one hit on a combatant: parry, armor, HP, fatal event (PL-12/16/18)."""

    target: str
    attacker: str | None
    raw: int
    damage_type: str
    kind: str | None
    parried: bool
    absorbed: int
    durability_before: int | None
    durability_after: int | None
    weapon_broken: bool
    armor: int
    penetration: int
    effective_armor: int
    taken: int
    hp_before: int
    hp_after: int
    fatal: bool
    parry_blocked: str | None = None
    """Why a parry declared against this attacker did not apply: "ruled" (the GM's
    noparry), "unconscious", "armorless" (mental / conceptual), "no_weapon"
    (durability 0 or none), "unparryable" (ranged, or a monster's own attack)."""
    killed: bool = False
    """The hit found an enemy or ally already at 0 HP and killed it (issue 24)."""


def _parry_blocked(parry: bool, victim: Any, dtype: str, kind: str | None,
                   attacker_human_like: bool) -> str | None:
    if not parry:
        return "ruled"
    if victim.unconscious:
        return "unconscious"
    if dtype in ARMORLESS_TYPES:
        return "armorless"
    if not victim.weapon_durability:
        return "no_weapon"
    if not can_parry(kind, attacker_human_like):
        return "unparryable"
    return None


def apply_damage(
    battle: Battle,
    target: str,
    raw: int,
    *,
    attacker: str | None = None,
    kind: str | None = None,
    penetration: int = 0,
    damage_type: str = "physical",
    parry: bool = True,
) -> tuple[Battle, DamageResult]:
    """Apply one hit: parry absorption (PL-16), then armor/penetration (PL-18), then HP.

    ``fatal`` reports HP reaching 0 (PL-12: the bot offers intervention to an
    investigator; ``cancel_damage`` undoes the HP loss when CP is spent).
    """
    _require_active(battle)
    _non_negative(raw, "raw")
    _non_negative(penetration, "penetration")
    _check_attack_kind(kind)
    dtype = _damage_type(damage_type)
    index = battle.index_of(target)
    victim = require_target(battle, target)
    if victim.hp is None:
        raise RuleError("plurk.hp_unknown", name=victim.name)
    source_c = battle.get(attacker) if attacker is not None else None
    attacker_name = source_c.name if source_c is not None else attacker
    durability = victim.weapon_durability
    declared = source_c is not None and victim.parry_against == source_c.name
    blocked = (
        _parry_blocked(parry, victim, dtype, kind, source_c.human_like)
        if declared and source_c is not None
        else None
    )
    parried = declared and blocked is None
    absorbed = min(raw, durability) if parried and durability is not None else 0
    after_durability = durability - absorbed if parried and durability is not None else durability
    broken = parried and after_durability == 0
    armor = effective_armor(victim.armor, penetration, dtype)
    taken = max(0, raw - absorbed - armor)
    hp_after = max(0, victim.hp - taken)
    # issue 24 (docs/decisions.md): a fallen enemy or ally — no sheet, no 常世干預 —
    # dies of the next blow that hurts it; an investigator's death is its fatal event's
    finished = victim.kind != "investigator" and victim.hp <= 0 < taken
    result = DamageResult(
        target=victim.name,
        attacker=attacker_name,
        raw=raw,
        damage_type=dtype,
        kind=kind,
        parried=parried,
        absorbed=absorbed,
        durability_before=durability,
        durability_after=after_durability,
        weapon_broken=broken,
        armor=victim.armor,
        penetration=penetration,
        effective_armor=armor,
        taken=taken,
        hp_before=victim.hp,
        hp_after=hp_after,
        fatal=is_fatal(victim.hp, taken),
        parry_blocked=blocked,
        killed=finished,
    )
    battle = _replace_combatant(battle, index, hp=hp_after, weapon_durability=after_durability,
                                **({"dead": True, "unconscious": 0, "parry_against": None}
                                   if finished else {}))
    return battle, result


def cancel_damage(battle: Battle, result: DamageResult) -> Battle:
    """PL-12 intervention in battle: restore the HP the hit took (durability stays used)."""
    index = battle.index_of(result.target)
    current = battle.combatants[index].hp or 0
    return _replace_combatant(battle, index, hp=current + (result.hp_before - result.hp_after))


@dataclass(frozen=True, slots=True)
class KnockOutEvent:
    """A knock-out attempt on a battle: the PL-17 decision and the hit it left."""

    knock_out: KnockOutResult
    damage: DamageResult


def knock_out(
    battle: Battle,
    source: DiceSource,
    target: str,
    raw_damage: int,
    *,
    kind: str,
    attacker: str | None = None,
    penetration: int = 0,
    parry: bool = True,
    con_bonus: int = 0,
) -> tuple[Battle, KnockOutEvent]:
    """PL-17 on a battle: decide the knock-out on the target's current HP and 體質,
    apply the resulting damage (through parry and armor), mark it unconscious."""
    _require_active(battle)
    _check_knockout_kind(kind)
    victim = require_target(battle, target)
    if victim.hp is None:
        raise RuleError("plurk.hp_unknown", name=victim.name)
    if not victim.human_like:
        raise RuleError("plurk.knockout_not_human", target=victim.name)
    if victim.unconscious:
        decided = KnockOutResult(raw_damage, victim.hp, True, None, True, (), 0, 1, already=True)
    else:
        decided = knock_out_roll(
            source, raw_damage, victim.hp, victim.con, kind=kind, con_bonus=con_bonus
        )
    battle, hit = apply_damage(
        battle,
        victim.name,
        decided.damage,
        attacker=attacker,
        kind=kind,
        penetration=penetration,
        parry=parry,
    )
    if decided.knocked_out and not hit.killed:
        index = battle.index_of(victim.name)
        now = battle.combatants[index]
        battle = _replace_combatant(
            battle, index, unconscious=max(now.unconscious, decided.rounds), parry_against=None
        )
    return battle, KnockOutEvent(decided, hit)


def wake(battle: Battle, name: str) -> Battle:
    """A successful 知識：醫學 / 醫療 check wakes a knocked-out combatant at once
    (not a dead one)."""
    woken = battle.get(name)
    if woken.dead:
        require_active(woken.name, Life.DEAD)
    return _replace_combatant(battle, battle.index_of(name), unconscious=0)


def declare_parry(
    battle: Battle,
    enemy: str,
    *,
    actor: str | None = None,
    durability: int | None = None,
    allow_monster: bool = True,
) -> tuple[Battle, BpEvent]:
    """PL-16: at the end of its action the current actor declares a parry against one
    named enemy (costs the parry BP). ``durability`` sets the parrying weapon's
    remaining durability; otherwise the combatant's recorded one is used.

    Refused (nothing spent) without a weapon (no durability, or 0: broken), with the
    weapon stuck in a target, after an attack this round, and — ``allow_monster=False``,
    as the bot asks — against a monster, whose own attacks cannot be parried
    (seed: 除非怪異使用人類也能用的近身攻擊技能)."""
    index = _actor_index(battle, actor)
    me = battle.combatants[index]
    other = battle.get(enemy)
    if other.name == me.name:
        raise RuleError("plurk.parry_self", name=me.name)
    if not allow_monster and not other.human_like:
        raise RuleError("plurk.parry_monster", name=me.name, enemy=other.name)
    attack_or_parry(me, "parry")
    if me.stuck_in is not None:
        raise RuleError("plurk.weapon_stuck", name=me.name, target=me.stuck_in)
    if durability is not None:
        _non_negative(durability, "durability")
    remaining = durability if durability is not None else me.weapon_durability
    if remaining is None:
        raise RuleError("plurk.parry_no_weapon", name=me.name)
    if remaining == 0:
        raise RuleError("plurk.parry_weapon_broken", name=me.name)
    key, cost = battle.bp_cost("parry")
    if cost > me.bp:
        raise RuleError("plurk.bp_insufficient", actor=me.name, action=key, cost=cost, bp=me.bp)
    changes: dict[str, Any] = {"parry_against": other.name, "weapon_durability": remaining}
    battle = _replace_combatant(battle, index, **changes)
    return _spend(battle, index, key, cost)


# ------------------------------------------------------------------ attacks: reach, impale, weapons


def is_melee(kind: str | None) -> bool:
    """An attack that must reach its target: melee kinds, and an attack of unknown kind."""
    _check_attack_kind(kind)
    return kind is None or kind in MELEE_KINDS


def check_reach(
    battle: Battle, attacker: str, target: str, kind: str | None, *, reach: int = MELEE_REACH
) -> int | None:
    """PL-15/16: a melee attack reaches ``reach`` cells (Chebyshev; adjacent by default).

    Returns the distance (None when either is off the board: the GM places them);
    refuses ``plurk.out_of_reach`` beyond reach. Ranged kinds are not limited.
    """
    _non_negative(reach, "reach")
    a, b = battle.get(attacker), battle.get(target)
    if a.position is None or b.position is None:
        return None
    cells = distance(a.position, b.position)
    if is_melee(kind) and cells > reach:
        raise RuleError("plurk.out_of_reach", attacker=a.name, target=b.name, start=a.position,
                        to=b.position, cells=cells, reach=reach)
    return cells


def check_weapon_free(battle: Battle, attacker: str, kind: str | None) -> None:
    """PL-18: a weapon left in a target cannot attack until it is retrieved."""
    me = battle.get(attacker)
    if me.stuck_in is not None and kind in WEAPON_KINDS:
        raise RuleError("plurk.weapon_stuck", name=me.name, target=me.stuck_in)


def impale_on_hit(hit: CheckResult | None, kind: str | None, declared: bool) -> bool:
    """PL-18 against the hit check: does this attack impale?

    No hit check (the GM's ruling): as declared. A missed hit never impales. A hit
    impales when it is a crit (raw 20) with an impaling kind; declaring ``impale``
    on a hit that is no crit is refused (``plurk.impale_needs_crit``), as is
    declaring it with a kind that cannot impale (``plurk.impale_not_allowed``).
    """
    _check_attack_kind(kind)
    if declared and kind not in IMPALE_KINDS:
        raise RuleError("plurk.impale_not_allowed", kind=kind)
    if hit is None:
        return declared
    if not hit.success:
        return False
    if declared and not hit.crit:
        raise RuleError("plurk.impale_needs_crit", raw=hit.raw)
    return hit.crit and kind in IMPALE_KINDS


def lodge_weapon(battle: Battle, attacker: str, target: str, kind: str | None) -> Battle:
    """PL-18: an impaling 〈武器〉 or thrown edged item stays in the target
    (``stuck_in``); other kinds leave nothing behind."""
    if kind not in LODGING_KINDS:
        return battle
    index = battle.index_of(attacker)
    return _replace_combatant(battle, index, stuck_in=battle.get(target).name)


def retrieve_weapon(battle: Battle, name: str) -> Battle:
    """PL-18: the weapon is taken back out of the target (a 〈武器〉 check succeeded,
    or a thrown item picked up); refuses when nothing is stuck."""
    index = battle.index_of(name)
    me = battle.combatants[index]
    if me.stuck_in is None:
        raise RuleError("plurk.weapon_not_stuck", name=me.name)
    return _replace_combatant(battle, index, stuck_in=None)
