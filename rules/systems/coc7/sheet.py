"""CO-9 reading a skill off a sheet: its value there, else its base value.

``value(stats, name)`` takes the sheet's entries by their stored names (``canonical``
folding is the bot's); a declared skill the sheet lacks is read at its base
(闪避 needs DEX, 母语 EDU); anything else missing is refused by name.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.errors import RuleError
from rules.systems.coc7.vocabulary import BASES


def base_value(name: str, stats: Mapping[str, int]) -> int | None:
    """The base of a declared skill on this sheet, None for a name without one. A base
    drawn from an attribute the sheet lacks is refused naming that attribute."""
    base = BASES.get(name)
    if base is None:
        return None
    if base.attribute is None:
        return base.value
    attribute = stats.get(base.attribute)
    if not isinstance(attribute, int):
        raise RuleError("coc7.base_needs", stat=name, attribute=base.attribute)
    return attribute // base.divisor


def value(name: str, stats: Mapping[str, int]) -> tuple[int, bool]:
    """(value, from the sheet?) of ``name``: the sheet's entry, else the base value."""
    found = stats.get(name)
    if isinstance(found, int):
        return found, True
    base = base_value(name, stats)
    if base is None:
        raise RuleError("coc7.no_value", stat=name)
    return base, False
