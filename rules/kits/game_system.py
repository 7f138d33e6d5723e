"""The small interface every game system declares (a kit: every system imports it).

A system declares its id, display names, the attributes and skills it knows
(with every alias a player types: traditional and simplified forms, English
abbreviations) and its default die. Resolution functions live in the system's
own module and are pure: state and a dice source in, a result dataclass out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

StatKind = Literal["attribute", "skill", "resource"]


@dataclass(frozen=True, slots=True)
class Stat:
    """One named number on a character sheet.

    ``name`` is the canonical name stored on the sheet (traditional Chinese
    where the seed text uses it); ``aliases`` are the other spellings that
    mean the same stat. ``combat`` marks combat skills, which several rules
    treat differently (no push, no collective check).
    """

    name: str
    kind: StatKind = "skill"
    aliases: tuple[str, ...] = ()
    combat: bool = False


@dataclass(frozen=True)
class GameSystem:
    """A rule system as the bot sees it: identity, vocabulary, default die."""

    id: str
    names: tuple[str, ...]
    stats: tuple[Stat, ...] = ()
    default_die: str = "d20"
    _index: dict[str, Stat] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for stat in self.stats:
            for spelling in (stat.name, *stat.aliases):
                self._index.setdefault(spelling.casefold(), stat)

    def stat(self, spelling: str) -> Stat | None:
        """The declared stat a spelling names (exact alias match, case-insensitive)."""
        return self._index.get(spelling.casefold())
