"""Who acts in a reply: the speaker's active character, else their `.nn` nickname,
else their display name — for the core's commands and every rule system (a system
cannot import a handler: `bot.handlers.nn` sets the nickname, this kit reads it)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.context import Context
from bot.documents import Doc


@dataclass
class Nicknames:
    """The nicknames of one table's players."""

    names: dict[str, str] = field(default_factory=dict)
    """user → nickname"""


NICKNAMES = Doc("core.nicknames", Nicknames, Nicknames)


async def nickname(ctx: Context, user: str | None = None) -> str | None:
    return (await ctx.uow.load(NICKNAMES)).names.get(user or ctx.user)


async def acting_name(ctx: Context) -> str:
    """Who acts in a reply: the speaker's active character, else their nickname, else
    their display name."""
    character = await ctx.uow.active_sheet(ctx.user)
    if character is not None:
        return character.name
    return await nickname(ctx) or ctx.name
