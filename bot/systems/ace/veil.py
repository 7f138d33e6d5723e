"""Who sees an enemy's numbers at an `ace` table (issue 24, item 4).

An enemy the GM has not revealed (`.enemy reveal`) keeps its numbers — HP, the
attributes behind its evasion, defence, bonuses — from the channel at a table with a
GM: a line that would show them goes to the GMs privately (the kit's ``for_gms``)
and the channel reads the same line with the enemy's numbers left out and its health
band in place of its HP. A player's own numbers stay in the channel.
"""

from __future__ import annotations

from typing import Any

from bot.context import Context
from bot.kits.encounter import band_text, for_gms
from bot.messages import Outgoing
from bot.systems.ace.state import Someone
from rules.kits.encounter import band
from rules.systems.ace.fight import Fight


def veiled(ctx: Context, who: Someone) -> bool:
    """Its numbers are kept from the channel: an unrevealed enemy at a table with a GM."""
    return who.is_enemy and not who.revealed and bool(ctx.gm_users)


def band_of(ctx: Context, who: Someone, fight: Fight) -> str:
    """Its health as the channel sees it (unhurt … badly wounded, down, dead)."""
    return band_text(ctx, band(who.hp, who.max_hp, who.life(fight)))


def band_line(ctx: Context, who: Someone, fight: Fight) -> str:
    """``狼人：重傷`` — a veiled enemy's HP as the channel reads it."""
    return ctx.t("ace.hp.band", name=who.name, band=band_of(ctx, who, fight))


def shown(ctx: Context, involved: list[Someone], public: str, public_data: dict[str, Any],
          secret: str, secret_data: dict[str, Any]) -> list[Outgoing]:
    """``secret`` in the channel, unless a veiled enemy is ``involved``: then the
    channel reads ``public`` and the GMs ``secret`` (``for_gms``)."""
    if any(veiled(ctx, who) for who in involved):
        return for_gms(ctx, public, public_data, secret, secret_data)
    return [ctx.reply(secret, secret_data)]
