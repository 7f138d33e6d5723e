"""Combat from sheet values: hit (AE-5), damage (AE-6), called shots (AE-7), lethal
attacks (AE-8), stances and cover (AE-10), energy resistance (AE-11) and the
optional supernatural attributes (AE-12); area damage (AE-6) and damage a GM
applies directly (a skill's effect).

A :class:`Fighter` carries every sheet number combat reads and the fighter's
posture (stance, cover, condition, a grapple's penalty); :func:`attack` rolls
the hit die, then the damage pool (``rules.dice.roll_pool``), then — for a
disarm or a sunder — the two contest d20s (attacker first). The result carries
every number a GM audits.

Formulas (RULES.md AE-5/6, the seed's 「關於攻擊與防禦的基本規則」):

- hit = 1d20 (1d10 for a called shot) + 敏捷 + 基本步法 + modifiers; evasion =
  target 敏捷 + 基本步法 (+ AE-12, + full defense); lands iff hit > evasion.
- melee attack = 力量 + 基本近戰 + 武器; firearm = 基本射擊 + 武器 × 3 + 子彈;
  thrown / bow = 力量 + 基本遠戰 + 武器. Defense = 體質 × 60 % (melee) or × 70 %
  (ranged), rounded down, + block + 防具. Damage dice = attack − defense (none
  when ≤ 0); damage = successes × 5, × 10 on a critical hit.
- area: dice = area damage − (max(敏捷, 體質) + 基本步法); no hit die, no crit.

Decisions where RULES.md and the seed are silent:

1.  A raw 20 (a called shot: a raw 10) always hits and is critical; a raw 1
    always misses, on the d10 too. Only the top face crits: nothing widens it.
2.  A called shot's damage DP is an attack modifier: dice = attack + part DP −
    defense (none when ≤ 0). Its extra physical damage lands on every hit,
    dice or not, and is not multiplied by a crit.
3.  The reflex action (AE-7) answers a called shot only: ``guard`` takes
    ⌊體質 / 10⌋ from the damage DP, ``dodge`` ⌊敏捷 / 5⌋ from the hit. Once a
    round (the bot tracks the round, :mod:`fight`).
4.  Disarm / sunder deal no damage; after the hit both roll 1d20 + 力量 +
    基本腰力 (sunder: the larger side adds the size difference). The attacker
    must win (a tie keeps the weapon). A sunder's item damage is the margin
    (the GM subtracts the item's hardness).
5.  Stances: full attack +2 attack value and −2 defense; charge +1 attack value
    and −1 defense per metre (melee only, at most ⌊力量 / 2⌋ m); full defense
    +2 evasion, defense = 體質 + 2 (no percentage); block adds the defender's
    基本近戰 to its defense; prone (the seed's 伏地) −2 defense against melee,
    +2 against ranged attacks.
6.  Cover (light / partial / heavy = −2 / −4 / −8 hit) counts against ranged
    attacks aimed at the covered fighter, and against the covered fighter's own
    ranged attacks; total cover refuses both (``ace.total_cover``).
7.  A lethal attack (AE-8) still rolls its hit; its damage dice all count as
    successes (no die is rolled). The target must be unconscious, asleep or
    petrified (or at 精神力 < 2, AE-1), else ``ace.lethal_not_helpless``.
8.  AE-12 (when the channel turns it on): +5 physical damage per 10 力量 on a
    landed melee or thrown hit; +1 evasion (and initiative) per 10
    敏捷; −5 physical damage taken per 10 體質.
9.  Damage types: the pool's damage is physical unless an energy is named; a
    part's extra and AE-12's strength bonus are physical. AE-11 takes X from
    that energy's damage of each hit; AE-12 takes its share from the physical
    damage; neither goes below 0. HP falls to 0 at the lowest (0 = dead, the seed).
10. A helpless target (unconscious, asleep, petrified, 精神力 < 2) or a pinned one
    cannot dodge: its evasion is 0 (issue 24). The hit die is still rolled (a raw 1
    misses), so a lethal attack on it lands on anything but a 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import roll_pool
from rules.dice.source import DiceSource
from rules.errors import RuleError
from rules.systems.ace.pool import POOL_DIE, POOL_LIMITS, count

HIT_DIE = 20
CALLED_DIE = 10
DAMAGE_PER_SUCCESS = 5
CRIT_DAMAGE_PER_SUCCESS = 10

KINDS: tuple[str, ...] = ("melee", "firearm", "thrown")
RANGED_KINDS = frozenset({"firearm", "thrown"})
STRENGTH_KINDS = frozenset({"melee", "thrown"})
MELEE_DEFENSE_PCT = 60
RANGED_DEFENSE_PCT = 70


@dataclass(frozen=True, slots=True)
class Part:
    """AE-7: a called shot's hit penalty, damage DP, extra physical damage."""

    hit: int
    dp: int = 0
    extra: int = 0
    damage: bool = True


PARTS: dict[str, Part] = {
    "head": Part(-9, 6, 5),
    "eyes": Part(-12, 9, 10),
    "abdomen": Part(-6, 3, 5),
    "ribs": Part(-9, 6, 5),
    "nose": Part(-9, 6, 5),
    "throat": Part(-18, 12, 10),
    "temple": Part(-25, 15, 15),
    "disarm": Part(-16, damage=False),
    "sunder": Part(-16, damage=False),
}

STANCES: tuple[str, ...] = ("none", "full_attack", "charge", "full_defense", "block", "prone")
COVER: dict[str, int | None] = {"none": 0, "light": 2, "partial": 4, "heavy": 8, "total": None}
CONDITIONS: tuple[str, ...] = ("unconscious", "asleep", "petrified")
REFLEXES: tuple[str, ...] = ("guard", "dodge")
FULL_ATTACK = 2
FULL_DEFENSE = 2
PRONE = 2
SUPER_STEP = 10
SUPER_DAMAGE = 5
SUPER_EVASION = 1
GUARD_CON = 10
DODGE_DEX = 5

Pairs = tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Fighter:
    """Everything combat reads about one fighter: sheet numbers and posture.

    ``resist`` maps an energy to its resistance X (AE-11); ``held_penalty`` is
    the margin by which a grappler holds this fighter (AE-9, on its attacks);
    ``pinned`` fighters cannot attack.
    """

    name: str
    strength: int = 0
    dex: int = 0
    con: int = 0
    spi: int = 0
    footwork: int = 0
    melee: int = 0
    ranged: int = 0
    shooting: int = 0
    grapple: int = 0
    waist: int = 0
    weapon: int = 1
    armor: int = 0
    ammo: int = 0
    size: int = 0
    resist: tuple[tuple[str, int], ...] = ()
    stance: str = "none"
    charge: int = 0
    cover: str = "none"
    condition: str | None = None
    held_penalty: int = 0
    pinned: bool = False

    def resistance(self, energy: str | None) -> int:
        if energy is None:
            return 0
        key = energy.casefold()
        return max((x for e, x in self.resist if e.casefold() == key), default=0)

    @property
    def helpless(self) -> bool:
        """AE-8's targets: unconscious, asleep, petrified — or 精神力 < 2 (AE-1)."""
        return self.condition in CONDITIONS or self.spi < 2


@dataclass(frozen=True, slots=True)
class AttackSpec:
    """What the attacker declares: kind, called part, modifiers, options."""

    kind: str = "melee"
    part: str | None = None
    hit_mod: int = 0
    attack_mod: int = 0
    lethal: bool = False
    assassinate: bool = False
    reflex: str | None = None
    energy: str | None = None
    contest_mod: int = 0


@dataclass(frozen=True, slots=True)
class HitRoll:
    """AE-5: the hit die and every term of hit and evasion. ``die`` None: the
    attack skipped evasion (an assassination, AE-13)."""

    die: int | None
    raw: int | None
    bonus: int
    mods: Pairs
    total: int | None
    evasion: int
    evasion_mods: Pairs
    hit: bool
    crit: bool
    skipped: bool = False


@dataclass(frozen=True, slots=True)
class DamageRoll:
    """AE-6/7/8/11/12: attack and defense by term, the pool, the damage."""

    attack: int
    attack_parts: Pairs
    defense: int
    defense_parts: Pairs
    dp: int
    dice: tuple[int, ...]
    successes: int
    lethal: bool
    multiplier: int
    base: int
    part_extra: int
    strength_bonus: int
    con_reduction: int
    energy: str | None
    resisted: int
    total: int


@dataclass(frozen=True, slots=True)
class ContestSide:
    name: str
    raw: int
    parts: Pairs
    total: int


@dataclass(frozen=True, slots=True)
class Contest:
    """Two d20 sides; the initiator (``a``) wins only by beating ``b``."""

    a: ContestSide
    b: ContestSide
    win: bool
    margin: int


@dataclass(frozen=True, slots=True)
class AttackResult:
    attacker: str
    target: str
    kind: str
    part: str | None
    reflex: str | None
    hit: HitRoll
    damage: DamageRoll | None
    contest: Contest | None = None
    disarmed: bool = False
    item_damage: int = 0

    @property
    def total(self) -> int:
        return self.damage.total if self.damage is not None else 0


@dataclass(frozen=True, slots=True)
class AreaResult:
    """AE-6 area damage on one target: dice = area − (max(敏捷, 體質) + 基本步法)."""

    target: str
    area: int
    avoid: int
    dp: int
    dice: tuple[int, ...]
    successes: int
    base: int
    con_reduction: int
    energy: str | None
    resisted: int
    total: int


@dataclass(frozen=True, slots=True)
class HarmResult:
    """Damage a GM applies directly (a skill's effect), after AE-11 / AE-12."""

    target: str
    amount: int
    con_reduction: int
    energy: str | None
    resisted: int
    total: int


@dataclass(frozen=True, slots=True)
class HpChange:
    before: int
    after: int
    dead: bool


# --------------------------------------------------------------------------- helpers


def _sum(pairs: Pairs) -> int:
    return sum(v for _, v in pairs)


def _nonzero(*pairs: tuple[str, int]) -> Pairs:
    return tuple(p for p in pairs if p[1])


def super_evasion(dex: int, supernatural: bool) -> int:
    """AE-12: +1 evasion and initiative per 10 敏捷."""
    return SUPER_EVASION * max(dex // SUPER_STEP, 0) if supernatural else 0


def cover_penalty(fighter: Fighter) -> int:
    value = COVER.get(fighter.cover, 0)
    return value or 0


def evasion_of(target: Fighter, supernatural: bool) -> tuple[int, Pairs]:
    """AE-5's evasion by term; a fighter that cannot move to dodge — helpless (AE-8) or
    pinned (AE-9: 「失去所有動作」) — has none (decision 10): the term that takes it
    away is named."""
    mods = _nonzero(("supernatural", super_evasion(target.dex, supernatural)),
                    ("full_defense", FULL_DEFENSE if target.stance == "full_defense" else 0))
    evasion = target.dex + target.footwork + _sum(mods)
    if target.helpless or target.pinned:
        reason = "helpless" if target.helpless else "pinned"
        return 0, (*mods, (reason, -evasion))
    return evasion, mods


def roll_hit(source: DiceSource, die: int, bonus: int, mods: Pairs, target: Fighter,
             supernatural: bool) -> HitRoll:
    """AE-5 with decision 1: raw top face hits and crits, raw 1 misses, else total > evasion."""
    evasion, evasion_mods = evasion_of(target, supernatural)
    raw = int(source.roll(die))
    total = raw + bonus + _sum(mods)
    crit = raw == die
    hit = raw != 1 and (crit or total > evasion)
    return HitRoll(die, raw, bonus, mods, total, evasion, evasion_mods, hit, crit and hit)


def _check_names(spec: AttackSpec) -> None:
    if spec.kind not in KINDS:
        raise RuleError("ace.bad_attack_kind", kind=spec.kind, known=", ".join(KINDS))
    if spec.part is not None and spec.part not in PARTS:
        raise RuleError("ace.bad_part", part=spec.part, known=", ".join(PARTS))
    if spec.reflex is not None and spec.reflex not in REFLEXES:
        raise RuleError("ace.bad_reflex", reflex=spec.reflex)


def check_attack(attacker: Fighter, target: Fighter, spec: AttackSpec) -> None:
    """Every refusal of :func:`attack`, before any die (the bot calls it first too)."""
    _check_names(spec)
    if attacker.pinned:
        raise RuleError("ace.pinned", name=attacker.name)
    if spec.reflex is not None and spec.part is None:
        raise RuleError("ace.reflex_not_called", name=target.name)
    if spec.lethal and not target.helpless:
        raise RuleError("ace.lethal_not_helpless", name=target.name)
    if spec.kind in RANGED_KINDS:
        for fighter in (target, attacker):
            if fighter.cover == "total":
                raise RuleError("ace.total_cover", name=fighter.name)
    if attacker.name.casefold() == target.name.casefold():
        raise RuleError("ace.self_target", name=target.name)


def attack_value(attacker: Fighter, spec: AttackSpec) -> int:
    """AE-6: the attack value before modifiers, by kind."""
    if spec.kind == "firearm":
        return attacker.shooting + attacker.weapon * 3 + attacker.ammo
    if spec.kind == "thrown":
        return attacker.strength + attacker.ranged + attacker.weapon
    return attacker.strength + attacker.melee + attacker.weapon


def defense_parts(target: Fighter, kind: str) -> Pairs:
    """AE-6 / AE-10: the target's defense term by term (percentages rounded down)."""
    ranged = kind in RANGED_KINDS
    if target.stance == "full_defense":
        base = ("con", target.con)
    else:
        pct = RANGED_DEFENSE_PCT if ranged else MELEE_DEFENSE_PCT
        base = ("con", target.con * pct // 100)
    stance = 0
    if target.stance == "full_defense":
        stance = FULL_DEFENSE
    elif target.stance == "full_attack":
        stance = -FULL_ATTACK
    elif target.stance == "charge":
        stance = -target.charge
    elif target.stance == "prone":
        stance = PRONE if ranged else -PRONE
    block = target.melee if target.stance == "block" else 0
    return (base, *_nonzero(("block", block), ("armor", target.armor), ("stance", stance)))


def reduce(physical: int, energy_damage: int, energy: str | None, target: Fighter,
           supernatural: bool) -> tuple[int, int, int]:
    """(con_reduction, resisted, total) — decision 9."""
    con_cut = SUPER_DAMAGE * max(target.con // SUPER_STEP, 0) if supernatural else 0
    con_reduction = min(physical, con_cut)
    resisted = min(energy_damage, target.resistance(energy))
    return con_reduction, resisted, physical - con_reduction + energy_damage - resisted


# --------------------------------------------------------------------------- attack


def attack(source: DiceSource, attacker: Fighter, target: Fighter,
           spec: AttackSpec = AttackSpec(), *, supernatural: bool = False) -> AttackResult:
    """AE-5 … AE-12: one attack; dice: the hit die, the damage pool, the contest d20s."""
    check_attack(attacker, target, spec)
    part = PARTS[spec.part] if spec.part is not None else None
    ranged = spec.kind in RANGED_KINDS
    if spec.assassinate:
        evasion, evasion_mods = evasion_of(target, supernatural)
        hit = HitRoll(None, None, 0, (), None, evasion, evasion_mods, True, False, True)
    else:
        mods = _nonzero(
            ("mod", spec.hit_mod),
            ("part", part.hit if part is not None else 0),
            ("cover", -cover_penalty(target) if ranged else 0),
            ("own_cover", -cover_penalty(attacker) if ranged else 0),
            ("held", -attacker.held_penalty),
            ("dodge", -(target.dex // DODGE_DEX) if spec.reflex == "dodge" else 0),
        )
        die = CALLED_DIE if part is not None else HIT_DIE
        hit = roll_hit(source, die, attacker.dex + attacker.footwork, mods, target,
                       supernatural)
    result = AttackResult(attacker.name, target.name, spec.kind, spec.part, spec.reflex,
                          hit, None)
    if not hit.hit:
        return result
    if part is not None and not part.damage:
        return _contest_result(source, attacker, target, spec, result)
    damage = _damage(source, attacker, target, spec, part, hit.crit, supernatural)
    return AttackResult(attacker.name, target.name, spec.kind, spec.part, spec.reflex, hit,
                        damage)


def _damage(source: DiceSource, attacker: Fighter, target: Fighter, spec: AttackSpec,
            part: Part | None, crit: bool, supernatural: bool) -> DamageRoll:
    melee = spec.kind == "melee"
    attack_parts = (("base", attack_value(attacker, spec)), *_nonzero(
        ("mod", spec.attack_mod),
        ("full_attack", FULL_ATTACK if attacker.stance == "full_attack" else 0),
        ("charge", attacker.charge if attacker.stance == "charge" and melee else 0),
        ("part", part.dp if part is not None else 0),
        ("guard", -(target.con // GUARD_CON) if spec.reflex == "guard" else 0),
    ))
    d_parts = defense_parts(target, spec.kind)
    attack_total, defense = _sum(attack_parts), _sum(d_parts)
    dp = max(attack_total - defense, 0)
    if spec.lethal:
        dice: tuple[int, ...] = ()
        successes = dp
    else:
        dice = tuple(roll_pool(dp, POOL_DIE, source, POOL_LIMITS))
        successes = count(dice)[0]
    multiplier = CRIT_DAMAGE_PER_SUCCESS if crit else DAMAGE_PER_SUCCESS
    base = successes * multiplier
    extra = part.extra if part is not None else 0
    strength_bonus = 0
    if supernatural and spec.kind in STRENGTH_KINDS:
        strength_bonus = SUPER_DAMAGE * max(attacker.strength // SUPER_STEP, 0)
    physical = (0 if spec.energy else base) + extra + strength_bonus
    energy_damage = base if spec.energy else 0
    con_reduction, resisted, total = reduce(physical, energy_damage, spec.energy, target,
                                            supernatural)
    return DamageRoll(attack_total, attack_parts, defense, d_parts, dp, dice, successes,
                      spec.lethal, multiplier, base, extra, strength_bonus, con_reduction,
                      spec.energy, resisted, total)


def contest_side(source: DiceSource, fighter: Fighter, parts: Pairs) -> ContestSide:
    raw = int(source.roll(HIT_DIE))
    return ContestSide(fighter.name, raw, parts, raw + _sum(parts))


def size_bonus(mine: Fighter, other: Fighter) -> int:
    """The larger side's bonus (sunder) = the size difference."""
    return max(mine.size - other.size, 0)


def _contest_result(source: DiceSource, attacker: Fighter, target: Fighter, spec: AttackSpec,
                    result: AttackResult) -> AttackResult:
    """Decision 4: disarm / sunder contest, 1d20 + 力量 + 基本腰力 each, attacker first."""
    sunder = spec.part == "sunder"

    def parts(fighter: Fighter, other: Fighter, mod: int) -> Pairs:
        return (("strength", fighter.strength), *_nonzero(
            ("waist", fighter.waist),
            ("size", size_bonus(fighter, other) if sunder else 0),
            ("mod", mod)))

    a = contest_side(source, attacker, parts(attacker, target, spec.contest_mod))
    b = contest_side(source, target, parts(target, attacker, 0))
    win = a.total > b.total
    contest = Contest(a, b, win, a.total - b.total)
    return AttackResult(result.attacker, result.target, result.kind, result.part,
                        result.reflex, result.hit, None, contest,
                        disarmed=win and not sunder,
                        item_damage=contest.margin if win and sunder else 0)


# --------------------------------------------------------------------------- area, direct


def area(source: DiceSource, value: int, target: Fighter, *, energy: str | None = None,
         supernatural: bool = False) -> AreaResult:
    """AE-6: area damage on one target (dice = area − (max(敏捷, 體質) + 基本步法))."""
    avoid = max(target.dex, target.con) + target.footwork
    dp = max(value - avoid, 0)
    dice = tuple(roll_pool(dp, POOL_DIE, source, POOL_LIMITS))
    successes = count(dice)[0]
    base = successes * DAMAGE_PER_SUCCESS
    physical, energy_damage = (0, base) if energy else (base, 0)
    con_reduction, resisted, total = reduce(physical, energy_damage, energy, target,
                                            supernatural)
    return AreaResult(target.name, value, avoid, dp, dice, successes, base, con_reduction,
                      energy, resisted, total)


def harm(amount: int, target: Fighter, *, energy: str | None = None,
         supernatural: bool = False) -> HarmResult:
    """Damage a GM applies directly, after AE-11 resistance or AE-12 toughness."""
    if amount < 0:
        raise RuleError("ace.negative_damage", amount=amount)
    physical, energy_damage = (0, amount) if energy else (amount, 0)
    con_reduction, resisted, total = reduce(physical, energy_damage, energy, target,
                                            supernatural)
    return HarmResult(target.name, amount, con_reduction, energy, resisted, total)


def apply_hp(hp: int, damage: int) -> HpChange:
    """HP after damage, never below 0; 0 is death (the seed)."""
    after = max(hp - max(damage, 0), 0)
    return HpChange(hp, after, after == 0)


def check_charge(strength: int, metres: int) -> None:
    """AE-10: a charge covers at most ⌊力量 / 2⌋ metres."""
    limit = max(strength // 2, 0)
    if not 1 <= metres <= limit:
        raise RuleError("ace.charge_too_far", metres=metres, max=limit)


def check_stance(stance: str) -> None:
    if stance not in STANCES:
        raise RuleError("ace.bad_stance", stance=stance, known=", ".join(STANCES))


def check_cover(cover: str) -> None:
    if cover not in COVER:
        raise RuleError("ace.bad_cover", cover=cover, known=", ".join(COVER))


def check_condition(condition: str | None) -> None:
    if condition is not None and condition not in CONDITIONS:
        raise RuleError("ace.bad_condition", condition=condition,
                        known=", ".join(CONDITIONS))
