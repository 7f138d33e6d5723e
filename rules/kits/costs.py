"""Action-cost tables: what an action is called, and what it costs.

A table knows canonical action keys, the spellings players type for each
(``攻擊`` / ``攻击`` / ``atk`` → ``attack``) and default costs. The costs in
play are a plain ``dict`` the caller keeps in its state (a GM may change them
or add actions); the table resolves names against them. Refusals are the
system's: ``resolve`` returns None for an unknown action.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field


def alias_table(groups: Mapping[str, Iterable[str]]) -> dict[str, str]:
    """``{"attack": ("攻擊", "atk")}`` → every spelling, casefolded, to its key."""
    table: dict[str, str] = {}
    for key, spellings in groups.items():
        table[key.casefold()] = key
        for spelling in spellings:
            table[spelling.casefold()] = key
    return table


def resolve(name: str, aliases: Mapping[str, str], costs: Mapping[str, int]) -> str | None:
    """The key in ``costs`` an action name means (alias first, then a key in any case)."""
    text = name.strip()
    key = aliases.get(text.casefold())
    if key is not None and key in costs:
        return key
    for existing in costs:
        if existing.casefold() == text.casefold():
            return existing
    return None


def custom_key(name: str, aliases: Mapping[str, str], costs: Mapping[str, int]) -> str:
    """The key under which a cost for ``name`` is stored: an alias's key, an existing
    key in any case, or the stripped name itself (a new, custom action)."""
    text = name.strip()
    key = aliases.get(text.casefold())
    if key is not None:
        return key
    for existing in costs:
        if existing.casefold() == text.casefold():
            return existing
    return text


@dataclass(frozen=True)
class CostTable:
    """Default costs and aliases of one kind of action points (AP, BP, …)."""

    defaults: Mapping[str, int]
    aliases: Mapping[str, str] = field(default_factory=dict)

    def fresh(self) -> dict[str, int]:
        """A new, mutable copy of the default costs."""
        return dict(self.defaults)

    def resolve(self, name: str, costs: Mapping[str, int]) -> str | None:
        return resolve(name, self.aliases, costs)

    def key(self, name: str, costs: Mapping[str, int]) -> str:
        return custom_key(name, self.aliases, costs)

    def with_cost(self, costs: Mapping[str, int], name: str, cost: int) -> dict[str, int]:
        """``costs`` with ``name``'s cost set (added as a custom action if unknown)."""
        return {**costs, self.key(name, costs): cost}

    def merged(self, overrides: Mapping[str, int] | None) -> dict[str, int]:
        """The defaults with ``overrides`` applied in order (aliases accepted)."""
        merged = self.fresh()
        for name, cost in (overrides or {}).items():
            merged[self.key(name, merged)] = cost
        return merged
