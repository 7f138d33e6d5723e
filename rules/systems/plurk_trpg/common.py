"""Helpers shared by the plurk modules (not part of the public API)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import Field, replace
from typing import Any, ClassVar, Protocol, TypeVar

from rules.dice.source import DiceSource
from rules.errors import RuleError
from rules.kits.costs import CostTable

MAX_REROLLS = 100



class _HasCombatants(Protocol):
    """A dataclass with a ``combatants`` tuple (a battle, a setup)."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def combatants(self) -> tuple[Any, ...]: ...


_B = TypeVar("_B", bound=_HasCombatants)


def _non_negative(value: int, name: str) -> None:
    if value < 0:
        raise RuleError("plurk.negative_amount", name=name, amount=value)


def _roll(source: DiceSource, faces: int) -> int:
    return int(source.roll(faces))


def _replace_combatant(battle: _B, index: int, **changes: Any) -> _B:
    """The battle with one combatant changed (any dataclass with ``combatants``)."""
    combatants = list(battle.combatants)
    combatants[index] = replace(combatants[index], **changes)
    return replace(battle, combatants=tuple(combatants))


def _resolve_action(table: CostTable, name: str, costs: Mapping[str, int], code: str) -> str:
    """The cost key an action name means; refused with ``code`` (``action``, ``known``)."""
    key = table.resolve(name, costs)
    if key is None:
        raise RuleError(code, action=name, known=", ".join(sorted(costs)))
    return key
