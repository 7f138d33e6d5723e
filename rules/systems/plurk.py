"""`plurk` — 噗浪式 TRPG (DnD + CoC hybrid), seed 003.

Pure rules: state and an injected :class:`~rules.dice.source.DiceSource` in,
frozen result dataclasses out. No I/O, no chat text; every refusal is a
``RuleError("plurk.<code>", **params)`` (codes listed in ``docs/systems/plurk.md``).

Rule ids implemented (``../shared/RULES.md``):

- PL-1  dice come only from the injected source (the bot wraps Plurk emoticon dice
        in a source that yields the player's own values first); ``roll_dice``
        parses the tiny ``NdM±K`` form used for damage and SAN loss.
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
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from rules.dice.source import DiceSource
from rules.errors import RuleError
from rules.systems.base import GameSystem, Stat, StatKind

# --------------------------------------------------------------------------- system

SYSTEM = GameSystem(
    id="plurk",
    names=("噗浪式TRPG", "噗浪式 TRPG", "Plurk TRPG"),
    stats=(
        # attributes (decision 1)
        Stat("力量", "attribute", ("STR",)),
        Stat("靈巧", "attribute", ("灵巧", "DEX")),
        Stat("體質", "attribute", ("体质", "CON")),
        Stat("智力", "attribute", ("INT",)),
        Stat("感知", "attribute", ("WIS",)),
        Stat("魅力", "attribute", ("CHA",)),
        # skills named by the seed (decision 2)
        Stat("觀察", "skill", ("观察", "Observe", "Spot")),
        Stat("盲覺", "skill", ("盲觉", "Blindsense")),
        Stat("潛行", "skill", ("潜行", "Stealth")),
        Stat("心理學", "skill", ("心理学", "Psychology")),
        Stat("交涉", "skill", ("Negotiation",)),
        Stat("知識", "skill", ("知识", "Knowledge")),
        Stat("醫療", "skill", ("医疗", "Medicine")),
        # combat skills
        Stat("普通攻擊", "skill", ("普通攻击", "Attack"), combat=True),
        Stat("武器", "skill", ("Weapon", "Melee"), combat=True),
        Stat("擒拿", "skill", ("Grapple",), combat=True),
        Stat("武術", "skill", ("武术", "MartialArts"), combat=True),
        Stat("弓術", "skill", ("弓术", "Archery", "Bow"), combat=True),
        Stat("槍炮", "skill", ("槍砲", "枪炮", "枪砲", "Firearms", "Gun"), combat=True),
        Stat("投擲", "skill", ("投掷", "Throw"), combat=True),
        # resources
        Stat("體力", "resource", ("体力", "HP")),
        Stat("理智", "resource", ("SAN",)),
        Stat("因果點數", "resource", ("因果点数", "CP")),
    ),
    default_die="d20",
)

DEFAULT_THRESHOLD = 11
FATE_THRESHOLD = 11
CHECK_DIE = 20
SAN_DIE = 100
TAKE_10 = 10
TAKE_20 = 20
MULTIPLE_MIN = 2
MULTIPLE_MAX = 5
COLLECTIVE_MIN = 2
INTERVENTION_MIN_CP = 10
INTERVENTION_MIN_COST = 5
MAX_REROLLS = 100
DICE_MAX_COUNT = 100
DICE_MAX_FACES = 1000
DICE_MAX_LENGTH = 64
FIELD_DEFAULT = 8
FIELD_MAX = 26
KNOCKOUT_DICE = "3d6"
PASSIVE_BASE = 10

CHECK_MODES: tuple[str, ...] = ("roll", "take10", "take20")
OPPOSED_MODES: tuple[str, ...] = ("general", "zero_sum", "one_way")

_SPEC_SPLIT = re.compile(r"[:：]")


def resolve_stat(spelling: str) -> Stat | None:
    """The declared stat a spelling names, also for ``知識：醫學``-style specialisations."""
    text = spelling.strip()
    stat = SYSTEM.stat(text)
    if stat is None:
        base = _SPEC_SPLIT.split(text, maxsplit=1)[0].strip()
        if base and base != text:
            stat = SYSTEM.stat(base)
    return stat


def stat_label(spelling: str) -> str:
    """Canonical spelling of a stat name (``DEX`` → ``靈巧``, ``知识：医学`` → ``知識：医学``).

    Unknown names come back stripped but unchanged: the bot stores sheet entries
    the system does not declare and must still find them again.
    """
    text = spelling.strip()
    exact = SYSTEM.stat(text)
    if exact is not None:
        return exact.name
    parts = _SPEC_SPLIT.split(text, maxsplit=1)
    if len(parts) == 2:
        base = SYSTEM.stat(parts[0].strip())
        if base is not None:
            return f"{base.name}：{parts[1].strip()}"
    return text


def stat_kind(spelling: str | None) -> StatKind | None:
    """Kind of a stat for the kind-sensitive rules (decision 2: unknown name = skill)."""
    if spelling is None:
        return None
    stat = resolve_stat(spelling)
    return stat.kind if stat is not None else "skill"


def is_combat_skill(spelling: str | None) -> bool:
    """Whether a stat name is a combat skill (no push, no collective check)."""
    if spelling is None:
        return False
    stat = resolve_stat(spelling)
    return stat is not None and stat.combat


# --------------------------------------------------------------------------- helpers


def _plain(value: Any) -> Any:
    """Tuples to lists, recursively, so ``to_dict`` output is plain JSON."""
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _non_negative(value: int, name: str) -> None:
    if value < 0:
        raise RuleError("plurk.negative_amount", name=name, amount=value)


def _roll(source: DiceSource, faces: int) -> int:
    return int(source.roll(faces))


# --------------------------------------------------------------------------- dice (PL-1)

_DICE_TERM = re.compile(r"([+-]?)\s*(?:(\d*)\s*[dD]\s*(\d+)|(\d+))\s*")


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """One term of a tiny dice expression: ``sign × count d faces`` or a constant."""

    sign: int
    count: int
    faces: int  # 0 for a constant term (then ``count`` is the constant)


@dataclass(frozen=True, slots=True)
class DiceRoll:
    """A rolled ``NdM±K`` expression: every face kept for the GM's audit."""

    expr: str
    rolls: tuple[int, ...]
    modifier: int
    total: int
    impale: bool = False


def parse_dice(expr: str) -> tuple[DiceTerm, ...]:
    """Parse ``1d6+2``, ``3D6``, ``d4``, ``1d3-1``, ``2`` (sums of dice and constants).

    Deliberately tiny: the full dice engine lives in ``rules.dice``; this only
    covers damage and SAN-loss expressions, so the system does not depend on it.
    """
    text = expr.strip()
    if not text or len(text) > DICE_MAX_LENGTH:
        raise RuleError("plurk.bad_dice", expr=expr)
    terms: list[DiceTerm] = []
    pos = 0
    while pos < len(text):
        match = _DICE_TERM.match(text, pos)
        if match is None or match.end() == pos:
            raise RuleError("plurk.bad_dice", expr=expr)
        sign_text, count_text, faces_text, const_text = match.groups()
        if terms and not sign_text:
            raise RuleError("plurk.bad_dice", expr=expr)
        sign = -1 if sign_text == "-" else 1
        if const_text is not None:
            terms.append(DiceTerm(sign, int(const_text), 0))
        else:
            count = int(count_text) if count_text else 1
            faces = int(faces_text)
            if count < 1 or faces < 1:
                raise RuleError("plurk.bad_dice", expr=expr)
            terms.append(DiceTerm(sign, count, faces))
        pos = match.end()
    dice = sum(t.count for t in terms if t.faces)
    if dice > DICE_MAX_COUNT or any(t.faces > DICE_MAX_FACES for t in terms):
        raise RuleError(
            "plurk.dice_limit", expr=expr, max_dice=DICE_MAX_COUNT, max_faces=DICE_MAX_FACES
        )
    return tuple(terms)


def roll_dice(source: DiceSource, expr: str, *, passes: int = 1) -> DiceRoll:
    """Roll a tiny expression; ``passes=2`` rolls every dice term twice (impale)."""
    terms = parse_dice(expr)
    if sum(t.count for t in terms if t.faces) * passes > DICE_MAX_COUNT:
        raise RuleError(
            "plurk.dice_limit", expr=expr, max_dice=DICE_MAX_COUNT, max_faces=DICE_MAX_FACES
        )
    rolls: list[int] = []
    total = 0
    for _ in range(passes):
        for term in terms:
            if term.faces:
                for _ in range(term.count):
                    face = _roll(source, term.faces)
                    rolls.append(face)
                    total += term.sign * face
    modifier = sum(t.sign * t.count for t in terms if not t.faces)
    return DiceRoll(expr.strip(), tuple(rolls), modifier, total + modifier, passes > 1)


# --------------------------------------------------------------------------- checks (PL-2, 3, 10)


@dataclass(frozen=True, slots=True)
class CheckResult:
    """One d20 check with every number a GM audits.

    ``modifier`` is the sheet value, ``bonus`` the situational modifier. ``crit``
    and ``fumble`` are independent of ``success`` (PL-3). ``kind``/``combat``
    come from the stat name and drive the push and collective refusals.
    """

    raw: int
    modifier: int
    bonus: int
    value: int
    threshold: int
    success: bool
    crit: bool
    fumble: bool
    stat: str | None = None
    kind: str | None = None
    combat: bool = False
    mode: str = "roll"

    @property
    def margin(self) -> int:
        """value − threshold (≥ 0 on success)."""
        return self.value - self.threshold

    def to_dict(self) -> dict[str, Any]:
        """Plain dict, so the bot can keep the last check for a later push / fate check."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CheckResult:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


def _evaluate(
    raw: int,
    modifier: int,
    bonus: int,
    threshold: int,
    stat: str | None,
    mode: str,
    *,
    kind: str | None = None,
    combat: bool | None = None,
) -> CheckResult:
    value = raw + modifier + bonus
    success = value >= threshold
    natural = mode in ("roll", "push")
    crit = natural and raw == CHECK_DIE
    fumble = natural and raw == 1
    if mode == "push" and not success:
        fumble = True
    label = stat_label(stat) if stat is not None else None
    return CheckResult(
        raw=raw,
        modifier=modifier,
        bonus=bonus,
        value=value,
        threshold=threshold,
        success=success,
        crit=crit,
        fumble=fumble,
        stat=label,
        kind=kind if kind is not None else stat_kind(stat),
        combat=combat if combat is not None else is_combat_skill(stat),
        mode=mode,
    )


def _raw_for(source: DiceSource, mode: str) -> int:
    if mode == "roll":
        return _roll(source, CHECK_DIE)
    if mode == "take10":
        return TAKE_10
    if mode == "take20":
        return TAKE_20
    raise RuleError("plurk.bad_mode", mode=mode, allowed=", ".join(CHECK_MODES))


def check(
    source: DiceSource,
    modifier: int = 0,
    *,
    bonus: int = 0,
    threshold: int = DEFAULT_THRESHOLD,
    stat: str | None = None,
    mode: str = "roll",
) -> CheckResult:
    """PL-2/3/10: raw 1d20 (or 10 / 20 taken) + modifier + bonus vs threshold.

    A secret roll (PL-7) is exactly this; only the bot's routing differs.
    """
    raw = _raw_for(source, mode)
    return _evaluate(raw, modifier, bonus, threshold, stat, mode)


def push(original: CheckResult, source: DiceSource) -> CheckResult:
    """PL-10 push roll (孤注一擲): reroll a failed skill check; failing again is a fumble.

    Takes the original result so the refusals (combat skill, attribute, fumbled
    or successful original) are decided by the rules, not by the caller.
    """
    if original.combat:
        raise RuleError("plurk.push_combat", stat=original.stat)
    if original.kind == "attribute":
        raise RuleError("plurk.push_not_skill", stat=original.stat)
    if original.fumble:
        raise RuleError("plurk.push_after_fumble", stat=original.stat)
    if original.success:
        raise RuleError("plurk.push_not_failed", stat=original.stat)
    raw = _roll(source, CHECK_DIE)
    return _evaluate(
        raw,
        original.modifier,
        original.bonus,
        original.threshold,
        original.stat,
        "push",
        kind=original.kind,
        combat=original.combat,
    )


# --------------------------------------------------------------------------- fate (PL-4)


@dataclass(frozen=True, slots=True)
class FateResult:
    """A fate check after a crit/fumble and what it does to the original outcome."""

    raw: int
    threshold: int
    success: bool
    trigger: str  # "crit" | "fumble" | "crit+fumble"
    certain: str | None  # "success" | "failure" | None
    original_success: bool
    final_success: bool


def fate_check(
    original: CheckResult, source: DiceSource, *, threshold: int = FATE_THRESHOLD
) -> FateResult:
    """PL-4: 1d20 ≥ threshold; certain success after a crit, certain failure after a fumble."""
    if not (original.crit or original.fumble):
        raise RuleError("plurk.fate_not_allowed", stat=original.stat, raw=original.raw)
    raw = _roll(source, CHECK_DIE)
    success = raw >= threshold
    certain: str | None = None
    if original.crit and success:
        certain = "success"
    elif original.fumble and not success:
        certain = "failure"
    final = original.success if certain is None else certain == "success"
    trigger = "+".join(n for n, on in (("crit", original.crit), ("fumble", original.fumble)) if on)
    return FateResult(raw, threshold, success, trigger, certain, original.success, final)


# --------------------------------------------------------------------------- secret (PL-7)


@dataclass(frozen=True, slots=True)
class SecretNotice:
    """All the channel may learn about a secret roll: who, and which stat. No numbers."""

    investigator: str
    stat: str | None


def secret_notice(result: CheckResult, investigator: str) -> SecretNotice:
    """PL-7: the public part of a secret check (the full result goes to the GMs only)."""
    return SecretNotice(investigator, result.stat)


# --------------------------------------------------------------------------- losses, CP (PL-5, 12)


def is_fatal(current: int, loss: int) -> bool:
    """PL-12: a loss is a fatal event when it would bring HP or SAN to 0 (or below)."""
    return loss > 0 and current - loss <= 0


@dataclass(frozen=True, slots=True)
class LossResult:
    """An HP/SAN loss applied to a current value (never below 0)."""

    before: int
    loss: int
    after: int
    fatal: bool


def apply_loss(current: int, loss: int) -> LossResult:
    """Apply an HP/SAN loss; reports the fatal event so the bot can offer intervention."""
    _non_negative(loss, "loss")
    return LossResult(current, loss, max(0, current - loss), is_fatal(current, loss))


@dataclass(frozen=True, slots=True)
class Intervention:
    """常世干預: CP spent to cancel a fatal event."""

    cp_before: int
    cost: int
    cp_after: int


def intervene(cp: int, cost: int = INTERVENTION_MIN_COST) -> Intervention:
    """PL-12: spend ≥ 5 CP (GM may ask more) while holding ≥ 10 CP."""
    if cost < INTERVENTION_MIN_COST:
        raise RuleError("plurk.intervention_cost_too_low", cost=cost, minimum=INTERVENTION_MIN_COST)
    if cp < INTERVENTION_MIN_CP:
        raise RuleError("plurk.intervention_cp_too_low", cp=cp, minimum=INTERVENTION_MIN_CP)
    if cost > cp:
        raise RuleError("plurk.intervention_cp_insufficient", cp=cp, cost=cost)
    return Intervention(cp, cost, cp - cost)


def award_cp(cp: int, amount: int) -> int:
    """PL-12: the GM awards CP at the end of an act (a negative amount corrects, ≥ 0 kept)."""
    if cp + amount < 0:
        raise RuleError("plurk.cp_negative", cp=cp, amount=amount)
    return cp + amount


@dataclass(frozen=True, slots=True)
class SanLoss:
    """The two loss expressions of a sanity check: on success / on failure."""

    success: str
    failure: str


def parse_san_loss(text: str) -> SanLoss:
    """Parse ``1/1d6``, ``0/1d4``, ``1d3/1d10`` (each side a tiny dice expression)."""
    parts = text.strip().split("/")
    if len(parts) != 2 or not all(p.strip() for p in parts):
        raise RuleError("plurk.bad_san_loss", expr=text)
    for part in parts:
        try:
            parse_dice(part)
        except RuleError as exc:
            if exc.code == "plurk.dice_limit":  # well written, only too many dice / faces
                raise
            raise RuleError("plurk.bad_san_loss", expr=text) from exc
    return SanLoss(parts[0].strip(), parts[1].strip())


@dataclass(frozen=True, slots=True)
class SanityResult:
    """PL-5 result: the d100, outcome, loss rolled and the new SAN."""

    roll: int
    san_before: int
    success: bool
    loss_expr: str
    loss_rolls: tuple[int, ...]
    loss: int
    san_after: int
    fatal: bool


def sanity_check(source: DiceSource, san: int, loss: str | SanLoss) -> SanityResult:
    """PL-5: 1d100 ≤ current SAN succeeds; then the matching loss is rolled and applied."""
    _non_negative(san, "san")
    pair = parse_san_loss(loss) if isinstance(loss, str) else loss
    roll = _roll(source, SAN_DIE)
    success = roll <= san
    expr = pair.success if success else pair.failure
    dice = roll_dice(source, expr)
    amount = max(0, dice.total)
    applied = apply_loss(san, amount)
    return SanityResult(roll, san, success, expr, dice.rolls, amount, applied.after, applied.fatal)


# --------------------------------------------------------------------------- opposed (PL-6, 14)


@dataclass(frozen=True, slots=True)
class OpposedSide:
    """One side of an opposed check: a label (who), its modifier and stat name."""

    label: str
    modifier: int = 0
    stat: str | None = None
    bonus: int = 0


@dataclass(frozen=True, slots=True)
class OpposedRoll:
    """One side's final roll (``raw`` is None for the passive side of a one-way check)."""

    label: str
    stat: str | None
    raw: int | None
    modifier: int
    bonus: int
    value: int
    crit: bool
    fumble: bool
    passive: bool = False


@dataclass(frozen=True, slots=True)
class OpposedResult:
    """PL-6 result. ``winner`` is "a", "b" or None (draw, general mode only).

    ``decided_by``: "value", "modifier" (zero-sum tie on value) or "draw".
    ``rerolls`` lists the raw pairs of earlier fully tied zero-sum rolls.
    """

    mode: str
    a: OpposedRoll
    b: OpposedRoll
    winner: str | None
    decided_by: str
    rerolls: tuple[tuple[int, int], ...] = ()

    @property
    def winner_label(self) -> str | None:
        return {"a": self.a.label, "b": self.b.label}.get(self.winner or "")


def _roll_side(source: DiceSource, side: OpposedSide) -> OpposedRoll:
    raw = _roll(source, CHECK_DIE)
    return OpposedRoll(
        side.label,
        stat_label(side.stat) if side.stat else None,
        raw,
        side.modifier,
        side.bonus,
        raw + side.modifier + side.bonus,
        raw == CHECK_DIE,
        raw == 1,
    )


def _check_pair_kinds(a: OpposedSide, b: OpposedSide) -> None:
    kind_a, kind_b = stat_kind(a.stat), stat_kind(b.stat)
    if kind_a is not None and kind_b is not None and kind_a != kind_b:
        raise RuleError(
            "plurk.opposed_mixed_kinds",
            a=a.label,
            a_stat=a.stat,
            a_kind=kind_a,
            b=b.label,
            b_stat=b.stat,
            b_kind=kind_b,
        )


def opposed(
    source: DiceSource,
    a: OpposedSide,
    b: OpposedSide,
    *,
    mode: str = "general",
    max_rerolls: int = MAX_REROLLS,
) -> OpposedResult:
    """PL-6 opposed check; ``a`` is the active side in one-way mode.

    Dice order: a then b, repeated for each zero-sum reroll.
    """
    if mode not in OPPOSED_MODES:
        raise RuleError("plurk.bad_opposed_mode", mode=mode, allowed=", ".join(OPPOSED_MODES))
    _check_pair_kinds(a, b)
    if mode == "one_way":
        roll_a = _roll_side(source, a)
        value_b = PASSIVE_BASE + b.modifier + b.bonus
        roll_b = OpposedRoll(
            b.label,
            stat_label(b.stat) if b.stat else None,
            None,
            b.modifier,
            b.bonus,
            value_b,
            False,
            False,
            passive=True,
        )
        winner = "a" if roll_a.value >= value_b else "b"
        return OpposedResult(mode, roll_a, roll_b, winner, "value")
    rerolls: list[tuple[int, int]] = []
    while True:
        roll_a, roll_b = _roll_side(source, a), _roll_side(source, b)
        if roll_a.value != roll_b.value:
            winner = "a" if roll_a.value > roll_b.value else "b"
            return OpposedResult(mode, roll_a, roll_b, winner, "value", tuple(rerolls))
        if mode == "general":
            return OpposedResult(mode, roll_a, roll_b, None, "draw", tuple(rerolls))
        mod_a, mod_b = a.modifier + a.bonus, b.modifier + b.bonus
        if mod_a != mod_b:
            winner = "a" if mod_a > mod_b else "b"
            return OpposedResult(mode, roll_a, roll_b, winner, "modifier", tuple(rerolls))
        assert roll_a.raw is not None and roll_b.raw is not None
        rerolls.append((roll_a.raw, roll_b.raw))
        if len(rerolls) > max_rerolls:
            raise RuleError("plurk.reroll_limit", limit=max_rerolls)


@dataclass(frozen=True, slots=True)
class SurpriseResult:
    """PL-14: 潛行 (a) vs 觀察/盲覺 (b); ``surprised`` iff the sneaking side won."""

    opposed: OpposedResult
    surprised: bool


def surprise_check(
    source: DiceSource,
    stealth: OpposedSide,
    perception: OpposedSide,
    *,
    mode: str = "general",
) -> SurpriseResult:
    """PL-14 surprise (先制/背襲) for one sneaker/watcher pair; a draw is no surprise.

    The bot combines pairs as the GM rules and passes the winning side to
    ``start_battle(first_side=...)``.
    """
    result = opposed(source, stealth, perception, mode=mode)
    return SurpriseResult(result, result.winner == "a")


# --------------------------------------------------------------------------- multiple (PL-8, 9)


@dataclass(frozen=True, slots=True)
class CheckItem:
    """One stat of a merged check, with its own bonus and threshold."""

    stat: str | None
    modifier: int = 0
    bonus: int = 0
    threshold: int = DEFAULT_THRESHOLD


@dataclass(frozen=True, slots=True)
class StatRef:
    """A stat name with its sheet value (compound check input)."""

    stat: str | None
    modifier: int = 0


@dataclass(frozen=True, slots=True)
class MergedResult:
    """PL-8 merged check: one raw, one result per stat."""

    raw: int
    results: tuple[CheckResult, ...]

    @property
    def all_success(self) -> bool:
        return all(r.success for r in self.results)


@dataclass(frozen=True, slots=True)
class CompoundResult:
    """PL-8 compound check: the modifiers, their floored mean, and the single check."""

    stats: tuple[str | None, ...]
    modifiers: tuple[int, ...]
    mean_modifier: int
    result: CheckResult


def _check_multiple(stats: Sequence[str | None]) -> None:
    if not MULTIPLE_MIN <= len(stats) <= MULTIPLE_MAX:
        raise RuleError(
            "plurk.multiple_count", count=len(stats), min=MULTIPLE_MIN, max=MULTIPLE_MAX
        )
    seen: set[str] = set()
    for stat in stats:
        if stat is None:
            continue
        label = stat_label(stat)
        if label in seen:
            raise RuleError("plurk.multiple_duplicate", stat=label)
        seen.add(label)


def merged_check(
    source: DiceSource, items: Sequence[CheckItem], *, mode: str = "roll"
) -> MergedResult:
    """PL-8 merged (合併檢定): one raw d20 shared by 2–5 stats, each judged on its own."""
    _check_multiple([i.stat for i in items])
    raw = _raw_for(source, mode)
    results = tuple(_evaluate(raw, i.modifier, i.bonus, i.threshold, i.stat, mode) for i in items)
    return MergedResult(raw, results)


def compound_check(
    source: DiceSource,
    items: Sequence[StatRef],
    *,
    bonus: int = 0,
    threshold: int = DEFAULT_THRESHOLD,
    mode: str = "roll",
) -> CompoundResult:
    """PL-8 compound (複合檢定): one d20 + floor(mean of the modifiers) vs one threshold."""
    _check_multiple([i.stat for i in items])
    modifiers = tuple(i.modifier for i in items)
    mean = sum(modifiers) // len(modifiers)
    labels = tuple(stat_label(i.stat) if i.stat else None for i in items)
    kinds = [stat_kind(i.stat) for i in items]
    kind = (
        "attribute"
        if all(k == "attribute" for k in kinds)
        else ("skill" if any(k is not None for k in kinds) else None)
    )
    combat = any(is_combat_skill(i.stat) for i in items)
    raw = _raw_for(source, mode)
    joined = "+".join(label or "?" for label in labels)
    result = _evaluate(raw, mean, bonus, threshold, None, mode, kind=kind, combat=combat)
    result = replace(result, stat=joined)
    return CompoundResult(labels, modifiers, mean, result)


@dataclass(frozen=True, slots=True)
class Member:
    """An investigator taking part in a collective check."""

    name: str
    modifier: int = 0
    bonus: int = 0


@dataclass(frozen=True, slots=True)
class NamedCheck:
    """A check result with the name of whom it belongs to."""

    name: str
    result: CheckResult


@dataclass(frozen=True, slots=True)
class CollectiveResult:
    """PL-9: the shared raw and every member's own value and outcome."""

    stat: str
    raw: int
    results: tuple[NamedCheck, ...]


def collective_check(
    source: DiceSource,
    stat: str,
    members: Sequence[Member],
    *,
    threshold: int = DEFAULT_THRESHOLD,
    mode: str = "roll",
) -> CollectiveResult:
    """PL-9 集體檢定: one representative's raw, each member adds their own modifier."""
    if is_combat_skill(stat):
        raise RuleError("plurk.collective_combat", stat=stat_label(stat))
    if len(members) < COLLECTIVE_MIN:
        raise RuleError("plurk.collective_too_few", count=len(members), min=COLLECTIVE_MIN)
    seen: set[str] = set()
    for member in members:
        key = member.name.casefold()
        if key in seen:
            raise RuleError("plurk.collective_duplicate", name=member.name)
        seen.add(key)
    raw = _raw_for(source, mode)
    results = tuple(
        NamedCheck(m.name, _evaluate(raw, m.modifier, m.bonus, threshold, stat, mode))
        for m in members
    )
    return CollectiveResult(stat_label(stat), raw, results)


# --------------------------------------------------------------------------- action costs


def _alias_table(groups: Mapping[str, Iterable[str]]) -> dict[str, str]:
    table: dict[str, str] = {}
    for key, spellings in groups.items():
        table[key.casefold()] = key
        for spelling in spellings:
            table[spelling.casefold()] = key
    return table


def _resolve_action(
    name: str, aliases: Mapping[str, str], costs: Mapping[str, int], code: str
) -> str:
    text = name.strip()
    key = aliases.get(text.casefold())
    if key is not None and key in costs:
        return key
    for existing in costs:
        if existing.casefold() == text.casefold():
            return existing
    raise RuleError(code, action=name, known=", ".join(sorted(costs)))


def _custom_key(name: str, aliases: Mapping[str, str], costs: Mapping[str, int]) -> str:
    text = name.strip()
    key = aliases.get(text.casefold())
    if key is not None:
        return key
    for existing in costs:
        if existing.casefold() == text.casefold():
            return existing
    return text


# --------------------------------------------------------------------------- AP (PL-11)

AP_DEFAULT_COSTS: dict[str, int] = {"observe": 1, "interview": 1, "move": 2, "item": 1}
AP_ACTION_ALIASES: dict[str, str] = _alias_table(
    {
        "observe": ("觀察", "观察", "搜索", "搜查", "調查", "调查", "search", "investigate"),
        "interview": ("詢問", "询问", "訪談", "访谈", "問話", "问话", "ask", "talk"),
        "move": ("移動", "移动", "前往", "go"),
        "item": ("道具", "使用道具", "物品", "use"),
    }
)


@dataclass(frozen=True)
class ApPool:
    """The group's shared AP (PL-11) and the GM's cost per investigation action."""

    points: int = 0
    costs: dict[str, int] = field(default_factory=lambda: dict(AP_DEFAULT_COSTS))

    def resolve(self, action: str) -> str:
        """Canonical key of an action name (``搜索`` → ``observe``)."""
        return _resolve_action(action, AP_ACTION_ALIASES, self.costs, "plurk.ap_unknown_action")

    def to_dict(self) -> dict[str, Any]:
        return {"points": self.points, "costs": dict(self.costs)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ApPool:
        costs = data.get("costs")
        return cls(
            int(data.get("points", 0)),
            {str(k): int(v) for k, v in costs.items()} if costs else dict(AP_DEFAULT_COSTS),
        )


@dataclass(frozen=True, slots=True)
class ApEvent:
    """What a change of the AP pool did. ``exhausted``: a spend reached 0 (劇情強制推進)."""

    op: str  # "spend" | "grant" | "set"
    action: str | None
    cost: int
    before: int
    after: int
    exhausted: bool


def grant_ap(pool: ApPool, amount: int) -> tuple[ApPool, ApEvent]:
    """The GM grants AP to the group."""
    _non_negative(amount, "amount")
    after = pool.points + amount
    return replace(pool, points=after), ApEvent("grant", None, 0, pool.points, after, False)


def set_ap(pool: ApPool, points: int) -> tuple[ApPool, ApEvent]:
    """The GM sets the AP pool to an exact value."""
    _non_negative(points, "points")
    return replace(pool, points=points), ApEvent("set", None, 0, pool.points, points, False)


def spend_ap(pool: ApPool, action: str, *, cost: int | None = None) -> tuple[ApPool, ApEvent]:
    """Spend AP for an action (its configured cost, or ``cost`` given by the GM).

    A spend that would go below 0 is refused; a spend that reaches 0 says so.
    An unknown action is accepted only with an explicit ``cost``.
    """
    if cost is None:
        key = pool.resolve(action)
        amount = pool.costs[key]
    else:
        _non_negative(cost, "cost")
        key = _custom_key(action, AP_ACTION_ALIASES, pool.costs)
        amount = cost
    if amount > pool.points:
        raise RuleError("plurk.ap_insufficient", action=key, cost=amount, points=pool.points)
    after = pool.points - amount
    return replace(pool, points=after), ApEvent(
        "spend", key, amount, pool.points, after, after == 0
    )


def set_ap_cost(pool: ApPool, action: str, cost: int) -> ApPool:
    """The GM changes (or adds) an action's AP cost."""
    _non_negative(cost, "cost")
    key = _custom_key(action, AP_ACTION_ALIASES, pool.costs)
    return replace(pool, costs={**pool.costs, key: cost})


# --------------------------------------------------------------------------- field (PL-15)

_CELL = re.compile(r"^\s*([A-Za-z])\s*(\d{1,2})\s*$")


def parse_cell(
    cell: str, width: int = FIELD_DEFAULT, height: int = FIELD_DEFAULT
) -> tuple[int, int]:
    """``A1`` → (column 0, row 0); refuses malformed and off-board cells."""
    match = _CELL.match(cell)
    if match is None:
        raise RuleError("plurk.bad_cell", cell=cell)
    col = ord(match.group(1).upper()) - ord("A")
    row = int(match.group(2)) - 1
    if not (0 <= col < width and 0 <= row < height):
        raise RuleError(
            "plurk.cell_off_board", cell=cell_name(col, row), width=width, height=height
        )
    return col, row


def cell_name(col: int, row: int) -> str:
    """(0, 0) → ``A1``."""
    return f"{chr(ord('A') + col)}{row + 1}"


def distance(a: str, b: str) -> int:
    """Chebyshev distance in cells between two cell names (diagonals count 1)."""
    ca, ra = parse_cell(a, FIELD_MAX, FIELD_MAX)
    cb, rb = parse_cell(b, FIELD_MAX, FIELD_MAX)
    return max(abs(ca - cb), abs(ra - rb))


# --------------------------------------------------------------------------- battle (PL-13, 14)

BP_DEFAULT_COSTS: dict[str, int] = {"move": 1, "attack": 2, "skill": 2, "item": 1, "parry": 1}
BP_ACTION_ALIASES: dict[str, str] = _alias_table(
    {
        "move": ("移動", "移动"),
        "attack": ("攻擊", "攻击", "atk"),
        "skill": ("技能", "使用技能"),
        "item": ("道具", "使用道具", "物品", "use"),
        "parry": ("招架",),
    }
)
COMBATANT_KINDS: tuple[str, ...] = ("investigator", "ally", "enemy")


def bp_max_for(dex: int) -> int:
    """PL-13: BP max = floor(靈巧 / 2) + 3 (never below 0)."""
    return max(0, dex // 2 + 3)


@dataclass(frozen=True, slots=True)
class Entrant:
    """A combatant as the GM or a sheet brings it into a battle.

    ``human_like`` defaults to True for investigators and allies, False for
    enemies (PL-17); ``bp_max`` None means the PL-13 formula.
    """

    name: str
    kind: str = "investigator"
    dex: int = 0
    con: int = 0
    owner: str | None = None
    hp: int | None = None
    armor: int = 0
    human_like: bool | None = None
    bp_max: int | None = None
    position: str | None = None
    weapon_durability: int | None = None
    initiative_bonus: int = 0


@dataclass(frozen=True, slots=True)
class Combatant:
    """One fighter in the turn state. ``position`` is a cell name or None (off board).

    ``unconscious`` counts the own turns still lost to a knock-out;
    ``parry_against`` names the enemy a parry was declared against.
    """

    name: str
    kind: str = "investigator"
    owner: str | None = None
    dex: int = 0
    con: int = 0
    bp_max: int = 3
    bp: int = 3
    hp: int | None = None
    armor: int = 0
    human_like: bool = True
    position: str | None = None
    parry_against: str | None = None
    weapon_durability: int | None = None
    unconscious: int = 0
    initiative: int = 0
    initiative_rolls: tuple[int, ...] = ()

    @property
    def side(self) -> str:
        """ "enemy" or "party" (investigators and allies)."""
        return "enemy" if self.kind == "enemy" else "party"

    @property
    def can_act(self) -> bool:
        return self.unconscious == 0 and (self.hp is None or self.hp > 0)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Combatant:
        names = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in names}
        values["initiative_rolls"] = tuple(values.get("initiative_rolls", ()))
        return cls(**values)


@dataclass(frozen=True)
class Battle:
    """The battle turn state (PL-13…16): order, round, current actor, costs, field.

    ``combatants`` is kept in initiative order. Immutable: every function
    returns a new ``Battle``. ``to_dict``/``from_dict`` give plain JSON.
    """

    combatants: tuple[Combatant, ...]
    round: int = 0
    current: int = 0
    costs: dict[str, int] = field(default_factory=lambda: dict(BP_DEFAULT_COSTS))
    width: int = FIELD_DEFAULT
    height: int = FIELD_DEFAULT
    first_side: str | None = None
    ended: bool = False

    @property
    def actor(self) -> Combatant:
        """The combatant whose turn it is."""
        return self.combatants[self.current]

    @property
    def order(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.combatants)

    def find(self, name: str) -> Combatant | None:
        """A combatant by name (case-insensitive), or None."""
        key = name.strip().casefold()
        for combatant in self.combatants:
            if combatant.name.casefold() == key:
                return combatant
        return None

    def index_of(self, name: str) -> int:
        """Position in the order of a named combatant; refuses unknown names."""
        key = name.strip().casefold()
        for i, combatant in enumerate(self.combatants):
            if combatant.name.casefold() == key:
                return i
        raise RuleError("plurk.unknown_combatant", name=name)

    def get(self, name: str) -> Combatant:
        return self.combatants[self.index_of(name)]

    def occupant(self, cell: str) -> Combatant | None:
        """Who stands on a cell (cell name in any case)."""
        col, row = parse_cell(cell, self.width, self.height)
        wanted = cell_name(col, row)
        for combatant in self.combatants:
            if combatant.position == wanted:
                return combatant
        return None

    def bp_cost(self, action: str) -> tuple[str, int]:
        """Canonical key and BP cost of an action (``攻擊`` → ("attack", 2))."""
        key = _resolve_action(action, BP_ACTION_ALIASES, self.costs, "plurk.bp_unknown_action")
        return key, self.costs[key]

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": 1,
            "combatants": [c.to_dict() for c in self.combatants],
            "round": self.round,
            "current": self.current,
            "costs": dict(self.costs),
            "width": self.width,
            "height": self.height,
            "first_side": self.first_side,
            "ended": self.ended,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Battle:
        costs = data.get("costs")
        return cls(
            combatants=tuple(Combatant.from_dict(c) for c in data["combatants"]),
            round=int(data.get("round", 0)),
            current=int(data.get("current", 0)),
            costs={str(k): int(v) for k, v in costs.items()} if costs else dict(BP_DEFAULT_COSTS),
            width=int(data.get("width", FIELD_DEFAULT)),
            height=int(data.get("height", FIELD_DEFAULT)),
            first_side=data.get("first_side"),
            ended=bool(data.get("ended", False)),
        )


@dataclass(frozen=True, slots=True)
class TurnEvent:
    """The turn moved on. ``skipped``: passed over (unconscious or HP ≤ 0)."""

    reason: str  # "pass" | "skip" | "bp_exhausted" | "removed"
    previous: str | None
    current: str
    round: int
    new_round: bool
    skipped: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class BpEvent:
    """BP spent by the actor; ``turn`` is set when the BP ran out and the turn passed."""

    actor: str
    action: str
    cost: int
    bp_before: int
    bp_after: int
    turn: TurnEvent | None = None


def _check_size(width: int, height: int) -> None:
    if not (1 <= width <= FIELD_MAX and 1 <= height <= FIELD_MAX):
        raise RuleError("plurk.field_size", width=width, height=height, max=FIELD_MAX)


def _require_active(battle: Battle) -> None:
    if battle.ended:
        raise RuleError("plurk.battle_ended")


def _check_kind(kind: str) -> None:
    if kind not in COMBATANT_KINDS:
        raise RuleError("plurk.bad_combatant_kind", kind=kind, allowed=", ".join(COMBATANT_KINDS))


def _side_rank(side: str, first_side: str | None) -> int:
    """1 for the surprising side (sorted first, descending), 0 otherwise."""
    return 1 if first_side is not None and side == first_side else 0


def _check_first_side(first_side: str | None) -> None:
    if first_side is not None and first_side not in ("party", "enemy"):
        raise RuleError("plurk.bad_side", side=first_side, allowed="party, enemy")


def _combatant_from(entrant: Entrant, initiative: int, rolls: Sequence[int]) -> Combatant:
    _check_kind(entrant.kind)
    bp_max = entrant.bp_max if entrant.bp_max is not None else bp_max_for(entrant.dex)
    _non_negative(bp_max, "bp_max")
    human_like = entrant.human_like if entrant.human_like is not None else entrant.kind != "enemy"
    return Combatant(
        name=entrant.name.strip(),
        kind=entrant.kind,
        owner=entrant.owner,
        dex=entrant.dex,
        con=entrant.con,
        bp_max=bp_max,
        bp=bp_max,
        hp=entrant.hp,
        armor=entrant.armor,
        human_like=human_like,
        position=None,
        weapon_durability=entrant.weapon_durability,
        initiative=initiative,
        initiative_rolls=tuple(rolls),
    )


def _merge_costs(costs: Mapping[str, int] | None) -> dict[str, int]:
    """GM costs over the defaults, keys canonicalised (``{"攻擊": 3}`` sets ``attack``)."""
    merged = dict(BP_DEFAULT_COSTS)
    for name, cost in (costs or {}).items():
        _non_negative(cost, "cost")
        merged[_custom_key(name, BP_ACTION_ALIASES, merged)] = cost
    return merged


def start_battle(
    source: DiceSource,
    entrants: Sequence[Entrant],
    *,
    costs: Mapping[str, int] | None = None,
    width: int = FIELD_DEFAULT,
    height: int = FIELD_DEFAULT,
    first_side: str | None = None,
    max_rerolls: int = MAX_REROLLS,
) -> Battle:
    """PL-13/14: initiative by 靈巧 checks, highest first, ties rerolled until resolved.

    Every entrant rolls 1d20 + 靈巧 (+ ``initiative_bonus``) in the given order;
    then each tied group (highest value first) rerolls plain d20s, recursively.
    ``first_side`` ("party"/"enemy") puts the side that won surprise first;
    ``costs`` overrides some default BP costs (aliases accepted).
    Starts at round 0 with the first in order acting and everyone at full BP.
    """
    if not entrants:
        raise RuleError("plurk.battle_empty")
    _check_size(width, height)
    _check_first_side(first_side)
    seen: set[str] = set()
    for entrant in entrants:
        _check_kind(entrant.kind)
        key = entrant.name.strip().casefold()
        if not key or key in seen:
            raise RuleError("plurk.battle_duplicate_name", name=entrant.name)
        seen.add(key)
    n = len(entrants)
    rolls: list[list[int]] = []
    keys: list[list[int]] = []
    for entrant in entrants:
        raw = _roll(source, CHECK_DIE)
        rolls.append([raw])
        side = "enemy" if entrant.kind == "enemy" else "party"
        keys.append([_side_rank(side, first_side), raw + entrant.dex + entrant.initiative_bonus])
    budget = [max_rerolls]

    def resolve(group: list[int]) -> None:
        buckets: dict[tuple[int, ...], list[int]] = {}
        for i in group:
            buckets.setdefault(tuple(keys[i]), []).append(i)
        for key in sorted(buckets, reverse=True):
            tied = buckets[key]
            if len(tied) < 2:
                continue
            budget[0] -= 1
            if budget[0] < 0:
                raise RuleError("plurk.reroll_limit", limit=max_rerolls)
            for i in tied:
                raw = _roll(source, CHECK_DIE)
                rolls[i].append(raw)
                keys[i].append(raw)
            resolve(tied)

    resolve(list(range(n)))
    order = sorted(range(n), key=lambda i: keys[i], reverse=True)
    combatants = tuple(_combatant_from(entrants[i], keys[i][1], rolls[i]) for i in order)
    battle = Battle(
        combatants,
        costs=_merge_costs(costs),
        width=width,
        height=height,
        first_side=first_side,
    )
    for i in order:
        if entrants[i].position is not None:
            battle = place(battle, entrants[i].name, entrants[i].position)
    return battle


def _actor_index(battle: Battle, actor: str | None) -> int:
    _require_active(battle)
    if actor is None:
        return battle.current
    index = battle.index_of(actor)
    if index != battle.current:
        raise RuleError("plurk.not_current_actor", actor=actor, current=battle.actor.name)
    return index


def _advance(battle: Battle, reason: str) -> tuple[Battle, TurnEvent]:
    combatants = list(battle.combatants)
    n = len(combatants)
    previous = combatants[battle.current]
    combatants[battle.current] = replace(previous, bp=previous.bp_max)
    index, rnd, new_round = battle.current, battle.round, False
    skipped: list[str] = []
    for _ in range(n):
        index += 1
        if index >= n:
            index, rnd, new_round = 0, rnd + 1, True
        candidate = combatants[index]
        if candidate.unconscious > 0:
            combatants[index] = replace(
                candidate, unconscious=candidate.unconscious - 1, parry_against=None
            )
            skipped.append(candidate.name)
            continue
        if candidate.hp is not None and candidate.hp <= 0:
            skipped.append(candidate.name)
            continue
        break
    incoming = combatants[index]
    combatants[index] = replace(incoming, bp=incoming.bp_max, parry_against=None)
    new = replace(battle, combatants=tuple(combatants), current=index, round=rnd)
    event = TurnEvent(reason, previous.name, incoming.name, rnd, new_round, tuple(skipped))
    return new, event


def pass_turn(battle: Battle, actor: str | None = None) -> tuple[Battle, TurnEvent]:
    """PL-13: the actor passes; BP refills and the next in order acts (new round on wrap)."""
    _actor_index(battle, actor)
    return _advance(battle, "pass")


def skip_turn(battle: Battle) -> tuple[Battle, TurnEvent]:
    """The GM skips the current actor (same as a pass, reported as a skip)."""
    _require_active(battle)
    return _advance(battle, "skip")


def _spend(battle: Battle, index: int, action: str, cost: int) -> tuple[Battle, BpEvent]:
    combatant = battle.combatants[index]
    if cost > combatant.bp:
        raise RuleError(
            "plurk.bp_insufficient", actor=combatant.name, action=action, cost=cost, bp=combatant.bp
        )
    after = combatant.bp - cost
    combatants = list(battle.combatants)
    combatants[index] = replace(combatant, bp=after)
    battle = replace(battle, combatants=tuple(combatants))
    turn = None
    if after == 0:
        battle, turn = _advance(battle, "bp_exhausted")
    return battle, BpEvent(combatant.name, action, cost, combatant.bp, after, turn)


def spend_bp(
    battle: Battle,
    action: str,
    *,
    actor: str | None = None,
    count: int = 1,
    cost: int | None = None,
) -> tuple[Battle, BpEvent]:
    """PL-13: the current actor spends BP for ``count`` × an action (or a GM ``cost``).

    Refused when BP would go below 0; reaching 0 passes the turn (``event.turn``).
    ``actor`` (optional) must be the current actor; who may act for whom is the bot's.
    """
    index = _actor_index(battle, actor)
    if cost is None:
        if count < 1:
            raise RuleError("plurk.negative_amount", name="count", amount=count)
        key, unit = battle.bp_cost(action)
        total = unit * count
    else:
        _non_negative(cost, "cost")
        key = _custom_key(action, BP_ACTION_ALIASES, battle.costs)
        total = cost
    return _spend(battle, index, key, total)


def set_bp_cost(battle: Battle, action: str, cost: int) -> Battle:
    """The GM changes (or adds) an action's BP cost."""
    _non_negative(cost, "cost")
    key = _custom_key(action, BP_ACTION_ALIASES, battle.costs)
    return replace(battle, costs={**battle.costs, key: cost})


def _replace_combatant(battle: Battle, index: int, **changes: Any) -> Battle:
    combatants = list(battle.combatants)
    combatants[index] = replace(combatants[index], **changes)
    return replace(battle, combatants=tuple(combatants))


_UPDATABLE = {
    "owner",
    "dex",
    "con",
    "bp_max",
    "bp",
    "hp",
    "armor",
    "human_like",
    "weapon_durability",
    "unconscious",
    "kind",
}
_NON_NEGATIVE = {"bp_max", "bp", "armor", "weapon_durability", "unconscious"}


def update_combatant(battle: Battle, name: str, **changes: Any) -> Battle:
    """GM corrections (hp, armor, bp_max, durability, …). ``bp`` is capped at ``bp_max``.

    Position and parry have their own functions (they check the board / target).
    """
    index = battle.index_of(name)
    for key, value in changes.items():
        if key not in _UPDATABLE:
            raise RuleError("plurk.bad_field", field=key, allowed=", ".join(sorted(_UPDATABLE)))
        if key in _NON_NEGATIVE and value is not None:
            _non_negative(value, key)
    if "kind" in changes:
        _check_kind(changes["kind"])
    updated = replace(battle.combatants[index], **changes)
    if updated.bp > updated.bp_max:
        updated = replace(updated, bp=updated.bp_max)
    combatants = list(battle.combatants)
    combatants[index] = updated
    return replace(battle, combatants=tuple(combatants))


def add_combatant(
    battle: Battle,
    entrant: Entrant,
    source: DiceSource | None = None,
    *,
    initiative: int | None = None,
) -> Battle:
    """Add a combatant mid-battle; rolls its 靈巧 initiative unless one is given.

    It goes after everyone with an equal or higher value (no tie reroll, so the
    existing order never changes); inserted before the current actor it first
    acts next round.
    """
    _require_active(battle)
    if battle.find(entrant.name) is not None or not entrant.name.strip():
        raise RuleError("plurk.battle_duplicate_name", name=entrant.name)
    rolls: list[int] = []
    if initiative is None:
        if source is None:
            raise RuleError("plurk.initiative_needed", name=entrant.name)
        raw = _roll(source, CHECK_DIE)
        rolls.append(raw)
        initiative = raw + entrant.dex + entrant.initiative_bonus
    newcomer = _combatant_from(entrant, initiative, rolls)
    new_key = (_side_rank(newcomer.side, battle.first_side), initiative)
    at = len(battle.combatants)
    for i, c in enumerate(battle.combatants):
        if (_side_rank(c.side, battle.first_side), c.initiative) < new_key:
            at = i
            break
    combatants = list(battle.combatants)
    combatants.insert(at, newcomer)
    current = battle.current + 1 if at <= battle.current else battle.current
    battle = replace(battle, combatants=tuple(combatants), current=current)
    if entrant.position is not None:
        battle = place(battle, newcomer.name, entrant.position)
    return battle


def remove_combatant(battle: Battle, name: str) -> tuple[Battle, TurnEvent | None]:
    """Remove a combatant; removing the current actor passes the turn (reason "removed")."""
    _require_active(battle)
    index = battle.index_of(name)
    if len(battle.combatants) == 1:
        raise RuleError("plurk.battle_last_combatant", name=battle.combatants[0].name)
    removed = battle.combatants[index]
    event: TurnEvent | None = None
    if index == battle.current:
        battle, event = _advance(battle, "removed")
    current_name = battle.actor.name
    rest = tuple(
        replace(c, parry_against=None) if c.parry_against == removed.name else c
        for c in battle.combatants
        if c.name != removed.name
    )
    if current_name == removed.name:  # everyone else was passed over
        current = index % len(rest)
    else:
        current = next(i for i, c in enumerate(rest) if c.name == current_name)
    return replace(battle, combatants=rest, current=current), event


def end_battle(battle: Battle) -> Battle:
    """Mark the battle ended; every later action on it is refused."""
    _require_active(battle)
    return replace(battle, ended=True)


# ------------------------------------------------------------------ field on a battle (PL-15)


def place(battle: Battle, name: str, cell: str | None) -> Battle:
    """The GM puts a combatant on a cell (no BP), or takes it off the board with None."""
    index = battle.index_of(name)
    if cell is None:
        return _replace_combatant(battle, index, position=None)
    col, row = parse_cell(cell, battle.width, battle.height)
    wanted = cell_name(col, row)
    occupant = battle.occupant(wanted)
    if occupant is not None and occupant.name != battle.combatants[index].name:
        raise RuleError("plurk.cell_occupied", cell=wanted, occupant=occupant.name)
    return _replace_combatant(battle, index, position=wanted)


@dataclass(frozen=True, slots=True)
class MoveEvent:
    """A move on the field: cells, Chebyshev distance and the BP it cost."""

    actor: str
    from_cell: str
    to_cell: str
    distance: int
    cost: int
    bp_before: int
    bp_after: int
    turn: TurnEvent | None = None


def move(battle: Battle, to: str, *, actor: str | None = None) -> tuple[Battle, MoveEvent]:
    """PL-15: the current actor moves; cost = Chebyshev distance × move cost per cell."""
    index = _actor_index(battle, actor)
    mover = battle.combatants[index]
    if mover.position is None:
        raise RuleError("plurk.not_placed", name=mover.name)
    col, row = parse_cell(to, battle.width, battle.height)
    target = cell_name(col, row)
    if target == mover.position:
        raise RuleError("plurk.same_cell", cell=target)
    occupant = battle.occupant(target)
    if occupant is not None:
        raise RuleError("plurk.cell_occupied", cell=target, occupant=occupant.name)
    steps = distance(mover.position, target)
    key, unit = battle.bp_cost("move")
    cost = steps * unit
    if cost > mover.bp:
        raise RuleError(
            "plurk.bp_insufficient", actor=mover.name, action=key, cost=cost, bp=mover.bp
        )
    moved = _replace_combatant(battle, index, position=target)
    moved, spent = _spend(moved, index, key, cost)
    return moved, MoveEvent(
        mover.name, mover.position, target, steps, cost, spent.bp_before, spent.bp_after, spent.turn
    )


def set_field(battle: Battle, width: int, height: int) -> Battle:
    """The GM resizes the field (1…26 each way); refused if someone would fall off."""
    _check_size(width, height)
    for combatant in battle.combatants:
        if combatant.position is None:
            continue
        col, row = parse_cell(combatant.position, FIELD_MAX, FIELD_MAX)
        if col >= width or row >= height:
            raise RuleError(
                "plurk.field_too_small",
                name=combatant.name,
                cell=combatant.position,
                width=width,
                height=height,
            )
    return replace(battle, width=width, height=height)


def board_grid(battle: Battle) -> list[list[str | None]]:
    """The field as rows (row 1 first) of columns (A first): a combatant name or None."""
    grid: list[list[str | None]] = [[None] * battle.width for _ in range(battle.height)]
    for combatant in battle.combatants:
        if combatant.position is not None:
            col, row = parse_cell(combatant.position, battle.width, battle.height)
            grid[row][col] = combatant.name
    return grid


def render_board(
    battle: Battle, *, markers: Mapping[str, str] | None = None, empty: str = "."
) -> list[str]:
    """Language-neutral text board: a header of column letters, then one line per row.

    Each occupied cell shows ``markers[name]`` or the name's first character;
    the bot adds a legend and chooses the font/code block.
    """
    header = "   " + " ".join(chr(ord("A") + c) for c in range(battle.width))
    lines = [header]
    for r, row in enumerate(board_grid(battle)):
        cells = [empty if name is None else (markers or {}).get(name, name[:1]) for name in row]
        lines.append(f"{r + 1:>2} " + " ".join(cells))
    return lines


# --------------------------------------------------------------------------- damage (PL-16, 17, 18)

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
DAMAGE_TYPES: dict[str, str] = _alias_table(
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
    victim = battle.combatants[index]
    if victim.hp is None:
        raise RuleError("plurk.hp_unknown", name=victim.name)
    source_c = battle.get(attacker) if attacker is not None else None
    attacker_name = source_c.name if source_c is not None else attacker
    durability = victim.weapon_durability
    parried = (
        parry
        and source_c is not None
        and victim.parry_against == source_c.name
        and victim.unconscious == 0
        and dtype not in ARMORLESS_TYPES
        and durability is not None
        and durability > 0
        and can_parry(kind, source_c.human_like)
    )
    absorbed = min(raw, durability) if parried and durability is not None else 0
    after_durability = durability - absorbed if parried and durability is not None else durability
    broken = parried and after_durability == 0
    armor = effective_armor(victim.armor, penetration, dtype)
    taken = max(0, raw - absorbed - armor)
    hp_after = max(0, victim.hp - taken)
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
    )
    battle = _replace_combatant(battle, index, hp=hp_after, weapon_durability=after_durability)
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
    victim = battle.get(target)
    if victim.hp is None:
        raise RuleError("plurk.hp_unknown", name=victim.name)
    if not victim.human_like:
        raise RuleError("plurk.knockout_not_human", target=victim.name)
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
    if decided.knocked_out:
        index = battle.index_of(victim.name)
        now = battle.combatants[index]
        battle = _replace_combatant(
            battle, index, unconscious=max(now.unconscious, decided.rounds), parry_against=None
        )
    return battle, KnockOutEvent(decided, hit)


def wake(battle: Battle, name: str) -> Battle:
    """A successful 知識：醫學 / 醫療 check wakes a knocked-out combatant at once."""
    return _replace_combatant(battle, battle.index_of(name), unconscious=0)


def declare_parry(
    battle: Battle,
    enemy: str,
    *,
    actor: str | None = None,
    durability: int | None = None,
) -> tuple[Battle, BpEvent]:
    """PL-16: at the end of its action the current actor declares a parry against one
    named enemy (costs the parry BP). ``durability`` sets the parrying weapon's
    remaining durability; otherwise the combatant's recorded one is used."""
    index = _actor_index(battle, actor)
    me = battle.combatants[index]
    other = battle.get(enemy)
    if other.name == me.name:
        raise RuleError("plurk.parry_self", name=me.name)
    key, cost = battle.bp_cost("parry")
    if cost > me.bp:
        raise RuleError("plurk.bp_insufficient", actor=me.name, action=key, cost=cost, bp=me.bp)
    changes: dict[str, Any] = {"parry_against": other.name}
    if durability is not None:
        _non_negative(durability, "durability")
        changes["weapon_durability"] = durability
    battle = _replace_combatant(battle, index, **changes)
    return _spend(battle, index, key, cost)
