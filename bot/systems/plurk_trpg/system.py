"""The `plurk` system as the commands see it: its declared sheet names and the
guard that a channel plays it."""

from __future__ import annotations

from bot.context import Context
from bot.errors import CommandError
from bot.names import canonical
from rules.systems import plurk_trpg as plurk


def declared(alias: str) -> str:
    """The canonical sheet name the system declares for ``alias`` (HP → 體力)."""
    stat = plurk.SYSTEM.stat(alias)
    assert stat is not None, alias
    return stat.name


HP = declared("HP")
"""Sheet name of hit points (體力)."""
SAN = declared("SAN")
"""Sheet name of sanity (理智)."""
CP = declared("CP")
"""Sheet name of causality points (因果點數)."""
DEX = declared("DEX")
"""Sheet name of dexterity (靈巧): initiative and BP in battle."""
CON = declared("CON")
"""Sheet name of constitution (體質)."""
FATAL_RESOURCES = (HP, SAN)
"""The resources whose loss to 0 is a fatal event (PL-12)."""


def require_plurk(ctx: Context) -> None:
    """The plurk commands only make sense in a channel that plays plurk."""
    if ctx.system.id != plurk.SYSTEM.id:
        raise CommandError("plurk.error.wrong_system", system=ctx.system.id)


def resource_name(spelling: str) -> str:
    """``hp`` / ``体力`` / ``SAN`` → the declared sheet name; refuses anything else."""
    name = canonical(spelling, plurk.SYSTEM)
    if name not in (HP, SAN, CP):
        raise CommandError("plurk.error.not_resource", name=spelling)
    return name
