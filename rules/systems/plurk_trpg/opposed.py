"""Opposed checks (PL-6) and surprise (PL-14): general, zero-sum and one-way."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.dice.source import DiceSource
from rules.errors import RuleError
from rules.systems.plurk_trpg.checks import CHECK_DIE
from rules.systems.plurk_trpg.common import MAX_REROLLS, _roll
from rules.systems.plurk_trpg.vocabulary import stat_kind, stat_label

PASSIVE_BASE = 10

OPPOSED_MODES: tuple[str, ...] = ("general", "zero_sum", "one_way")


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


@dataclass(frozen=True, slots=True)
class GroupSurpriseResult:
    """PL-14 for two groups: the sneaking side's 潛行 against each watcher's 觀察/盲覺.

    ``stealth`` is the side the sneakers are judged by (the member with the lowest
    潛行: a group is as quiet as its loudest); ``checks`` holds one
    :class:`SurpriseResult` per watcher, in the given order; ``surprised`` iff the
    sneakers beat every watcher (a draw, or one watcher who notices, spoils it).
    """

    stealth: OpposedSide
    checks: tuple[SurpriseResult, ...]
    surprised: bool


def group_surprise(
    source: DiceSource,
    sneakers: Sequence[OpposedSide],
    watchers: Sequence[OpposedSide],
    *,
    mode: str = "general",
) -> GroupSurpriseResult:
    """PL-14 surprise of one side by the other (seed: 先察覺方以〈潛行〉對抗未察覺方的
    〈觀察〉或〈盲覺〉), built on :func:`surprise_check`.

    The sneakers' representative is the one with the lowest modifier (first such
    in the given order); it rolls against every watcher in turn. Dice order: per
    watcher, the 潛行 d20 then the watcher's d20. No watcher: the surprise succeeds.
    """
    if not sneakers:
        raise RuleError("plurk.surprise_nobody")
    stealth = min(sneakers, key=lambda s: s.modifier + s.bonus)
    checks = tuple(surprise_check(source, stealth, watcher, mode=mode) for watcher in watchers)
    return GroupSurpriseResult(stealth, checks, all(c.surprised for c in checks))
