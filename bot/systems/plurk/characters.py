"""The numbers on a `plurk` investigator's sheet: stats for checks, HP / SAN / CP.

Which character a command is about is the kit's (``bot.kits.references``).
"""

from __future__ import annotations

from bot.errors import CommandError
from bot.names import canonical
from bot.store.models import Character
from bot.systems.plurk.system import CP
from rules.systems import plurk

# --------------------------------------------------------------------------- sheet values


def sheet_key(character: Character, spelling: str) -> str | None:
    """The sheet entry ``spelling`` names (folded, aliases), trying the base skill of a
    ``知識：醫學`` specialisation when the specialisation itself is not on the sheet."""
    stats = character.stats or {}
    name = canonical(spelling, plurk.SYSTEM, stats)
    if name in stats:
        return name
    base = plurk.resolve_stat(spelling)
    if base is not None and base.name in stats:
        return base.name
    return None


def stat_modifier(character: Character, spelling: str) -> tuple[str, int]:
    """(label, sheet value) of a stat for a check; refuses a stat not on the sheet,
    because a silent 0 would misreport a check the GM audits."""
    key = sheet_key(character, spelling)
    if key is None:
        raise CommandError("plurk.error.stat_missing", pc=character.name,
                           name=plurk.stat_label(spelling))
    value = character.stats[key]
    if not isinstance(value, int):
        raise CommandError("plurk.error.stat_missing", pc=character.name, name=key)
    return key, value


def resource_value(character: Character, resource: str) -> int:
    """Current HP / SAN / CP on the sheet; HP and SAN must be set (CP defaults to 0)."""
    value = (character.stats or {}).get(resource)
    if value is None:
        if resource == CP:
            return 0
        raise CommandError("plurk.error.stat_missing", pc=character.name, name=resource)
    return int(value)


def set_resource(character: Character, resource: str, value: int) -> None:
    """Write one sheet value (a new dict: JSON columns do not track mutation)."""
    character.stats = {**(character.stats or {}), resource: value}
