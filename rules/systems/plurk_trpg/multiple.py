"""Multiple checks (PL-8: merged, compound) and the collective check (PL-9)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rules.dice.source import DiceSource
from rules.errors import RuleError
from rules.systems.plurk_trpg.checks import DEFAULT_THRESHOLD, CheckResult, _evaluate, _raw_for
from rules.systems.plurk_trpg.vocabulary import is_combat_skill, stat_kind, stat_label

MULTIPLE_MIN = 2
MULTIPLE_MAX = 5
COLLECTIVE_MIN = 2


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
