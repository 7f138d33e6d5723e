"""The numbers on an `ace` sheet (a character's, or an enemy's as the GM wrote it):
stats for checks, the fighter combat reads (AE-1, AE-5 … AE-12), energy resistances
and current HP.

Sheet names are the system's declared names (``.st 体质 5`` is stored as 體質);
undeclared skills (運動, 醫療 …) are found folded, as ``.st`` stores them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from bot.errors import CommandError
from bot.names import canonical, fold
from rules.systems import ace
from rules.systems.ace import combat
from rules.systems.ace import vocabulary as v
from rules.systems.ace.life import bounded

FIELDS: dict[str, str] = {
    "strength": v.STR, "dex": v.DEX, "con": v.CON, "spi": v.SPI,
    "footwork": v.FOOTWORK, "melee": v.MELEE, "ranged": v.RANGED, "shooting": v.SHOOTING,
    "grapple": v.GRAPPLE, "waist": v.WAIST, "weapon": v.WEAPON, "armor": v.ARMOR,
    "ammo": v.AMMO, "size": v.SIZE,
}
"""``Fighter`` field → the sheet name it is read from (missing skills and gear: 0)."""
NATURAL_WEAPON = 1
"""A missing 武器 is a natural weapon (fist, kick): attack 1 (the seed's PS1)."""

ENERGIES: dict[str, tuple[str, ...]] = {
    "fire": ("火", "火焰", "炎"),
    "cold": ("冰", "寒", "寒冷", "ice"),
    "electric": ("電", "电", "雷", "electricity", "lightning"),
    "acid": ("酸",),
    "sonic": ("音", "聲", "声", "sound"),
    "light": ("光", "聖", "圣", "holy"),
    "dark": ("暗", "闇", "shadow"),
    "poison": ("毒",),
}
"""Energies by their key (``ace.energy.<key>`` names them for the reader), with the
spellings players use (AE-11); any other word is an energy of its own."""
_RESIST = re.compile(r"^(?:抗(?P<a>.+)|(?P<b>.+?)(?:抗性?|res|resist|resistance))$",
                     re.IGNORECASE)


def energy_key(text: str) -> str:
    """``火`` / ``火焰`` / ``fire`` → fire; an energy the table lists nowhere stays as
    written."""
    key = fold(text)
    for name, spellings in ENERGIES.items():
        if key in (fold(name), *(fold(s) for s in spellings)):
            return name
    return text.strip()


def resistance_energy(name: str) -> str | None:
    """The energy a sheet entry resists (``火抗`` → fire), or None."""
    match = _RESIST.match(name)
    return energy_key(match["a"] or match["b"]) if match is not None else None


def resistances(stats: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    """AE-11 from sheet entries ``火抗 5`` / ``抗火 5`` / ``fireres 5``."""
    found = []
    for name, value in stats.items():
        energy = resistance_energy(name)
        if energy is not None and isinstance(value, int):
            found.append((energy, value))
    return tuple(found)


def sheet_key(stats: Mapping[str, int], spelling: str) -> str | None:
    """The entry ``spelling`` names on a sheet (declared name, alias, 繁/简 fold)."""
    name = canonical(spelling, ace.SYSTEM, stats)
    return name if name in stats else None


def missing_attributes(stats: Mapping[str, int]) -> list[str]:
    return [name for name in ace.ATTRIBUTES if not isinstance(stats.get(name), int)]


def require_attributes(who: str, stats: Mapping[str, int]) -> None:
    """Combat reads all four attributes (AE-1): a silent 0 would misreport the fight."""
    missing = missing_attributes(stats)
    if missing:
        raise CommandError("ace.error.attributes_missing", who=who, names=list(missing))


def fighter(name: str, stats: Mapping[str, int]) -> combat.Fighter:
    """The fighter a sheet describes (posture and holds come from the fight)."""
    require_attributes(name, stats)

    def read(field: str) -> int:
        return int(stats.get(FIELDS[field], 0) or 0)

    weapon = read("weapon") if isinstance(stats.get(v.WEAPON), int) else NATURAL_WEAPON
    return combat.Fighter(
        name=name, strength=read("strength"), dex=read("dex"), con=read("con"),
        spi=read("spi"), footwork=read("footwork"), melee=read("melee"),
        ranged=read("ranged"), shooting=read("shooting"), grapple=read("grapple"),
        waist=read("waist"), weapon=weapon, armor=read("armor"), ammo=read("ammo"),
        size=read("size"), resist=resistances(stats))


def hp_of(stats: Mapping[str, int]) -> int:
    """Current HP: the sheet's 生命, else full — never above 體質 × 10 (AE-1)."""
    con, value = stats.get(v.CON), stats.get(v.HP)
    if isinstance(value, int):
        return bounded(value, con) if isinstance(con, int) else value
    return ace.hp_max(con if isinstance(con, int) else 0)


def level(stats: Mapping[str, int], spelling: str) -> int:
    """A skill's level for a pool (missing: 0 — an untrained general skill)."""
    key = sheet_key(stats, spelling)
    return int(stats[key]) if key is not None else 0
