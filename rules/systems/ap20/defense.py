"""AP-2: the defence level — armor + dodge + block + parry, each clamped at ≥ 0.

At 0 action points or when incapacitated (失能) only armor counts. A tactical layer may
take parts away from one attack (v6: a back attack cannot be defended, so only armor
counts; ``lost``), and an attack against a target that does not react (``nodef``)
counts armor only too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rules.kits.advantage import DEFENSE_PARTS


@dataclass(frozen=True, slots=True)
class Defense:
    """Every number of a defence level.

    ``parts``: each part after its modifier, before clamping (may be negative);
    ``clamped``: each at ≥ 0; ``counted``: what counts against this attack;
    ``armor_only``: why only armor counts (``no_ap``, ``incapacitated``,
    ``undefendable``, ``nodef``) or None; ``lost``: parts a layer took away."""

    parts: dict[str, int]
    clamped: dict[str, int]
    counted: dict[str, int]
    total: int
    armor_only: str | None = None
    lost: tuple[str, ...] = ()


def defense_level(parts: Mapping[str, int], mods: Mapping[str, int] | None = None, *,
                  ap: int | None = None, incapacitated: bool = False,
                  lost: Iterable[str] = (), armor_only: str | None = None) -> Defense:
    """AP-2 for one attack: ``parts`` (armor/dodge/block/parry, missing = 0) plus ``mods``,
    each clamped at 0; only armor at ``ap == 0``, when ``incapacitated``, or when the
    caller says why (``armor_only``); ``lost`` parts count 0."""
    mods = mods or {}
    raw = {p: int(parts.get(p, 0)) + int(mods.get(p, 0)) for p in DEFENSE_PARTS}
    clamped = {p: max(0, v) for p, v in raw.items()}
    reason = armor_only
    if reason is None and incapacitated:
        reason = "incapacitated"
    if reason is None and ap is not None and ap <= 0:
        reason = "no_ap"
    gone = tuple(p for p in DEFENSE_PARTS if p in set(lost) and p != "armor")
    counted = {p: v for p, v in clamped.items()
               if p == "armor" or (reason is None and p not in gone)}
    return Defense(raw, clamped, counted, sum(counted.values()), reason, gone)
