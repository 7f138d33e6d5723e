"""The numbers on a `coc7` sheet: a skill's value (the sheet's, an inline one, or its
base, CO-9), writing a new value back, and the `.st` guard that fills in HP, MP and
SAN the first time the attributes they come from are written."""

from __future__ import annotations

from bot.context import Context
from bot.errors import CommandError
from bot.names import canonical
from bot.unit_of_work import Sheet
from rules.errors import RuleError
from rules.systems import coc7

DERIVED = (coc7.HP, coc7.MP, coc7.SAN)


def stat_name(spelling: str, character: Sheet | None) -> str:
    """The stored name a spelling means (declared name, the sheet's own spelling, else
    as typed)."""
    return canonical(spelling, coc7.SYSTEM, dict(character.stats) if character else {})


def skill_value(character: Sheet | None, name: str, inline: int | None,
                who: str | None = None) -> int:
    """An inline value wins over the sheet; else the sheet's, else the base value. A
    value there is none of is refused naming whose sheet lacks it (``who``)."""
    if inline is not None:
        return inline
    try:
        return coc7.value(name, dict(character.stats) if character is not None else {})[0]
    except RuleError as exc:
        owner = who or (character.name if character is not None else "")
        raise CommandError(f"coc7.error.{exc.code.removeprefix('coc7.')}_of", who=owner,
                           **exc.params) from exc


def write(character: Sheet, name: str, value: int) -> None:
    character.stats = {**character.stats, name: value}


def derived(stats: dict[str, int]) -> dict[str, int]:
    """CO-9: HP, MP and SAN a sheet lacks and its attributes now give."""
    found: dict[str, int] = {}
    con, siz, pow_ = (stats.get(k) for k in (coc7.CON, coc7.SIZ, coc7.POW))
    if coc7.HP not in stats and isinstance(con, int) and isinstance(siz, int):
        found[coc7.HP] = coc7.hit_points(con, siz)
    if isinstance(pow_, int):
        if coc7.MP not in stats:
            found[coc7.MP] = coc7.magic_points(pow_)
        if coc7.SAN not in stats:
            found[coc7.SAN] = pow_
    return found


async def fill_in(ctx: Context, character: Sheet, name: str, old: int | None,
                  new: int) -> list[str] | None:
    """``bot.systems.SheetGuard`` for coc7. A write of CON, SIZ or POW also writes the
    HP, MP and SAN the sheet lacks (CO-9: their values at creation; later changes of
    the attributes leave them alone). A write of HP, MP or SAN is written here too, so
    that one `.st` naming both (`.st 生命12 體質50 體型60`) keeps the typed value.
    These are written into the sheet here, so that a later name of the same `.st`
    sees them; returning [] lets `.st` list what changed."""
    if name not in (*DERIVED, coc7.CON, coc7.SIZ, coc7.POW):
        return None
    stats = {**character.stats, name: new}
    more = derived(stats)
    if old == new and not more:
        return None  # nothing changes: `.st` lists it as typed
    character.stats = {**stats, **more}
    return []
