"""AP-9: typed damage and resistances; AP-3 critical damage = dice × 2 + modifiers.

A damage roll carries one of the 17 types so that a resistance can apply (decision 6:
a resistance is a number taken off that type's damage, never below 0; 真實 — true
damage — ignores every resistance; a negative resistance is a weakness that adds).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.dice.flat import parse_flat, roll_flat
from rules.dice.limits import Limits
from rules.dice.source import DiceSource
from rules.errors import RuleError

DAMAGE_TYPES: dict[str, tuple[str, ...]] = {
    "blunt": ("鈍擊", "钝击"),
    "pierce": ("穿刺",),
    "slash": ("揮砍", "挥砍"),
    "fire": ("火焰",),
    "cold": ("寒冷",),
    "lightning": ("閃電", "闪电"),
    "acid": ("強酸", "强酸"),
    "poison": ("中毒",),
    "bleed": ("流血",),
    "sonic": ("音鳴", "音鸣"),
    "radiant": ("光耀",),
    "shadow": ("暗影",),
    "necrotic": ("死蝕", "死蚀"),
    "chaos": ("混沌",),
    "psychic": ("心靈", "心灵"),
    "force": ("力場", "力场"),
    "true": ("真實", "真实"),
}
"""AP-9: the 17 damage types, by key, with the spellings players type."""

UNRESISTED = frozenset({"true"})
"""Decision 6: 真實 damage destroys existence itself; no resistance applies."""

LIMITS = Limits(max_dice=100, max_faces=1000, max_rolls=200, max_length=64)
"""What one damage expression may roll (a crit counts its dice once: they are doubled,
not rolled again)."""

_TYPES = {spelling.casefold(): key for key, spellings in DAMAGE_TYPES.items()
          for spelling in (key, *spellings)}


def damage_type(name: str) -> str | None:
    """The key of a damage type in any spelling (揮砍 / 挥砍 / slash), else None."""
    return _TYPES.get(name.strip().casefold())


@dataclass(frozen=True, slots=True)
class DamageRoll:
    """Every number of one damage roll: the faces, their sum, ×2 on a crit, the
    constant modifiers, the rolled damage (≥ 0), the resistance and what is taken."""

    expression: str
    type: str | None
    dice: tuple[int, ...]
    dice_sum: int
    crit: bool
    dice_counted: int
    modifier: int
    rolled: int
    resistance: int
    taken: int


def check_expression(expression: str) -> None:
    """Refuse a damage expression before anything is rolled or spent: past a limit with
    the dice engine's refusal (it names the real limit), else as unreadable."""
    try:
        parse_flat(expression, LIMITS)
    except RuleError as exc:
        if exc.code.startswith("dice.too_"):
            raise
        raise RuleError("ap20.bad_damage", expr=expression) from exc


def resistance_against(kind: str | None, resistances: Mapping[str, int]) -> int:
    """The resistance that applies to damage of ``kind`` (0 for untyped and 真實)."""
    if kind is None or kind in UNRESISTED:
        return 0
    return int(resistances.get(kind, 0))


def roll_damage(source: DiceSource, expression: str, *, kind: str | None = None,
                crit: bool = False, resistances: Mapping[str, int] | None = None
                ) -> DamageRoll:
    """Roll ``expression`` (a flat ``NdM±K`` sum); on a crit the dice's sum counts twice
    (AP-3: 傷害骰×2 + other modifiers — decision 5: the dice are rolled once and their
    sum doubled). Then the type's resistance (AP-9) comes off, never below 0."""
    check_expression(expression)
    roll = roll_flat(expression, source, LIMITS)
    dice_sum = roll.total - roll.modifier
    counted = dice_sum * 2 if crit else dice_sum
    rolled = max(0, counted + roll.modifier)
    resist = resistance_against(kind, resistances or {})
    return DamageRoll(expression, kind, roll.dice, dice_sum, crit, counted, roll.modifier,
                      rolled, resist, max(0, rolled - resist))


def fixed_damage(amount: int, *, kind: str | None = None,
                 resistances: Mapping[str, int] | None = None) -> DamageRoll:
    """A known amount of typed damage (the GM's `.dmg 5 火焰`), resisted like a roll."""
    if amount < 0:
        raise RuleError("ap20.negative", name="damage", value=amount)
    resist = resistance_against(kind, resistances or {})
    return DamageRoll(str(amount), kind, (), 0, False, 0, amount, amount, resist,
                      max(0, amount - resist))
