"""The numbers on a `plurk` investigator's sheet: stats for checks, HP / SAN / CP.

Which character a command is about is the kit's (``bot.kits.references``).
"""

from __future__ import annotations

import re

from bot.errors import CommandError
from bot.names import canonical, fold
from bot.systems.plurk_trpg.system import CP
from bot.unit_of_work import Sheet
from rules.systems import plurk_trpg as plurk

_SPEC_SPLIT = re.compile(r"[:：]")
"""``交涉：哄騙`` (the sheet stores ``交涉:哄騙``): a skill and its specialty."""

# --------------------------------------------------------------------------- sheet values


def sheet_key(character: Sheet, spelling: str) -> str | None:
    """The sheet entry ``spelling`` names (folded, aliases), trying the base skill of a
    ``知識：醫學`` specialisation when the specialisation itself is not on the sheet,
    and the one specialisation of a base name (``交涉`` finds ``交涉：哄騙`` when that
    is the only 交涉 on the sheet, issue 12 item 11)."""
    stats = character.stats or {}
    name = canonical(spelling, plurk.SYSTEM, stats)
    if name in stats:
        return name
    base = plurk.resolve_stat(spelling)
    if base is not None and base.name in stats:
        return base.name
    found = specialties(character, spelling)
    return found[0] if len(found) == 1 else None


def specialties(character: Sheet, spelling: str) -> list[str]:
    """The sheet's ``<base>：<specialty>`` entries whose base is ``spelling`` (folded,
    aliases): ``交涉`` → ``["交涉:哄騙", "交涉:威嚇"]``. Empty for a specialised name."""
    if _SPEC_SPLIT.search(spelling):
        return []
    wanted = _base_key(spelling)
    return [key for key in (character.stats or {})
            if _SPEC_SPLIT.search(key) and _base_key(_SPEC_SPLIT.split(key, 1)[0]) == wanted]


def _base_key(spelling: str) -> str:
    stat = plurk.resolve_stat(spelling)
    return fold(stat.name if stat is not None else spelling)


def stat_modifier(character: Sheet, spelling: str) -> tuple[str, int]:
    """(label, sheet value) of a stat for a check; refuses a stat not on the sheet,
    because a silent 0 would misreport a check the GM audits — naming the near
    misses (``觀查`` → 觀察) and, for a base name with several specialisations on
    the sheet, those."""
    key = sheet_key(character, spelling)
    if key is None:
        found = specialties(character, spelling)
        if found:
            raise CommandError("plurk.error.stat_ambiguous", pc=character.name,
                               name=spelling,
                               candidates=_or_list([plurk.stat_label(k) for k in found]))
        near = near_misses(character, spelling)
        if near:
            raise CommandError("plurk.error.stat_missing_suggest", pc=character.name,
                               name=plurk.stat_label(spelling), suggestion=_or_list(near))
        raise CommandError("plurk.error.stat_missing", pc=character.name,
                           name=plurk.stat_label(spelling))
    value = character.stats[key]
    if not isinstance(value, int):
        raise CommandError("plurk.error.stat_missing", pc=character.name, name=key)
    return key, value


def _or_list(names: list[str]) -> str:
    return " / ".join(names)


MAX_SUGGESTIONS = 3


def near_misses(character: Sheet, spelling: str) -> list[str]:
    """Stats a mistyped name probably meant (issue 12 item 10): the sheet's names and
    the system's, one edit away (two for names of five letters or more), compared
    folded (繁/简, case). The sheet's come first; at most three."""
    typed = fold(spelling)
    if not typed:
        return []
    allowed = 1 if len(typed) < 5 else 2
    candidates: dict[str, int] = {}
    names = [*(character.stats or {})]
    names += [n for stat in plurk.SYSTEM.stats for n in (stat.name, *stat.aliases)]
    for name in names:
        label = plurk.stat_label(name)
        distance = _distance(typed, fold(name))
        if 0 < distance <= allowed and distance < candidates.get(label, allowed + 1):
            candidates[label] = distance
    ranked = sorted(candidates, key=lambda label: candidates[label])  # stable: sheet first
    return ranked[:MAX_SUGGESTIONS]


def _distance(a: str, b: str) -> int:
    """Levenshtein distance (names are short: the plain dynamic programme)."""
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i]
        for j, char_b in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1,
                               previous[j - 1] + (char_a != char_b)))
        previous = current
    return previous[-1]


def resource_value(character: Sheet, resource: str) -> int:
    """Current HP / SAN / CP on the sheet; HP and SAN must be set (CP defaults to 0).
    The refusal says how to set the value: a modifier (as for a check) is no way out."""
    value = (character.stats or {}).get(resource)
    if value is None:
        if resource == CP:
            return 0
        raise CommandError("plurk.error.resource_missing", pc=character.name, name=resource)
    return int(value)


def set_resource(character: Sheet, resource: str, value: int) -> None:
    """Write one sheet value (a new dict: JSON columns do not track mutation)."""
    character.stats = {**(character.stats or {}), resource: value}
