"""AP-5 saving throws, attribute checks with the monster tier (AP-8), and save DCs."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.dice.source import DiceSource
from rules.errors import RuleError
from rules.kits.advantage import Layer, roll_d20

BASE_DC = 10
"""AP-5: a DC is 10 + the casting (or maneuver) attribute's modifier + mods."""


def save_dc(attribute_modifier: int, mods: int = 0) -> int:
    """AP-5: 法術 / 戰技豁免難度 = 10 + attribute modifier + other mods."""
    return BASE_DC + attribute_modifier + mods


def tier_bonus(tier: int) -> int:
    """AP-8: +1 on every attribute check per tier above 1 (tier 1 adds nothing)."""
    if tier < 1:
        raise RuleError("ap20.bad_tier", tier=tier)
    return tier - 1


def monster_hp(con: int, tier: int) -> int:
    """AP-8: a monster's max HP = 體質 × 5 × tier."""
    tier_bonus(tier)
    if con < 0:
        raise RuleError("ap20.negative", name="con", value=con)
    return con * 5 * tier


@dataclass(frozen=True, slots=True)
class Check:
    """A d20 check: dice, kept raw, layers, modifier, tier bonus, mods, total and — with
    a DC — the outcome. A save (``save=True``) fails on a raw 1 and takes a critical
    (``critical_taken``) and succeeds on a raw 20 (AP-5), whatever the total."""

    rolls: tuple[int, ...]
    raw: int
    advantage: int
    disadvantage: int
    modifier: int
    tier_bonus: int
    mods: int
    total: int
    dc: int | None
    success: bool | None
    save: bool
    auto: str | None
    critical_taken: bool


def check(source: DiceSource, *, modifier: int = 0, mods: int = 0, tier: int = 1,
          dc: int | None = None, layers: Iterable[Layer] = (), save: bool = False) -> Check:
    """d20 (AP-6 layers) + modifier + tier bonus (AP-8) + mods against ``dc``."""
    bonus = tier_bonus(tier)
    d20 = roll_d20(source, layers)
    total = d20.kept + modifier + bonus + mods
    auto = None
    success = None if dc is None else total >= dc
    if save and d20.kept == 1:
        auto, success = "raw1", False
    elif save and d20.kept == 20:
        auto, success = "raw20", True
    return Check(d20.rolls, d20.kept, d20.advantage, d20.disadvantage, modifier, bonus, mods,
                 total, dc, success, save, auto, auto == "raw1")


def saving_throw(source: DiceSource, *, modifier: int, dc: int, mods: int = 0, tier: int = 1,
                 layers: Iterable[Layer] = ()) -> Check:
    """AP-5: d20 + save modifier (+ tier, AP-8) + mods ≥ DC; raw 1 fails and takes a
    critical, raw 20 succeeds."""
    return check(source, modifier=modifier, mods=mods, tier=tier, dc=dc, layers=layers,
                 save=True)
