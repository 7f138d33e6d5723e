"""Checks (PL-2, 3, 4, 7, 10): the d20 check, crit / fumble, take 10 / 20, push,
the fate check and the public notice of a secret roll."""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice.source import DiceSource
from rules.errors import RuleError
from rules.systems.plurk_trpg.common import _roll
from rules.systems.plurk_trpg.vocabulary import is_combat_skill, stat_kind, stat_label

DEFAULT_THRESHOLD = 11
FATE_THRESHOLD = 11
CHECK_DIE = 20
TAKE_10 = 10
TAKE_20 = 20

CHECK_MODES: tuple[str, ...] = ("roll", "take10", "take20")


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


def check_pushable(original: CheckResult) -> None:
    """PL-10: refuse a push of a combat skill, an attribute, a fumbled or a successful
    check — before any die, so the bot can ask the GM's consent for a push that
    could happen (issue 12 item 5) and never for one that could not."""
    if original.combat:
        raise RuleError("plurk.push_combat", stat=original.stat)
    if original.kind == "attribute":
        raise RuleError("plurk.push_not_skill", stat=original.stat)
    if original.fumble:
        raise RuleError("plurk.push_after_fumble", stat=original.stat)
    if original.success:
        raise RuleError("plurk.push_not_failed", stat=original.stat)


def push(original: CheckResult, source: DiceSource) -> CheckResult:
    """PL-10 push roll (孤注一擲): reroll a failed skill check; failing again is a fumble.

    Takes the original result so the refusals (combat skill, attribute, fumbled
    or successful original) are decided by the rules, not by the caller.
    """
    check_pushable(original)
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


@dataclass(frozen=True, slots=True)
class SecretNotice:
    """All the channel may learn about a secret roll: who, and which stat. No numbers."""

    investigator: str
    stat: str | None


def secret_notice(result: CheckResult, investigator: str) -> SecretNotice:
    """PL-7: the public part of a secret check (the full result goes to the GMs only)."""
    return SecretNotice(investigator, result.stat)
