"""`.init` (issue 24): the shared fight words of the encounter kit on a 剑手 table.

Each verb is a `.js` lobby word or a turn command under another name — ``join``
`.js join`, ``start`` `.js start`, ``next`` `.end`, ``list`` `.js`, ``end`` `.js reset`
(a referee's, or every player still in the game together), ``remove`` `.js kick`.
There is no ``add``: every fighter is a seated player, none is added by a GM.
"""

from __future__ import annotations

from dataclasses import replace

from bot.context import Context
from bot.errors import CommandError
from bot.kits.encounter import Handler, route_init
from bot.messages import Outgoing
from bot.systems.jianshou.commands import lobby, play
from bot.systems.jianshou.table import command
from bot.systems.jianshou.text import readable


def _lobby(verb: lobby.Verb) -> Handler:
    @readable
    async def run(ctx: Context) -> list[Outgoing]:
        return await verb(ctx, ctx.args.split())

    return run


async def _next(ctx: Context) -> list[Outgoing]:
    """`.init next` ends the turn; discarding names cards of the hand, which `.end`
    does with its refusals kept private — so it is `.end`'s alone."""
    if ctx.args:
        raise CommandError("jianshou.error.init_next_usage")
    return await play.end(replace(ctx, command="end"))  # readable already


INIT = {
    "join": _lobby(lobby.join),
    "start": _lobby(lobby.start),
    "next": _next,
    "list": _lobby(lobby.show),
    "end": _lobby(lobby.reset),
    "remove": _lobby(lobby.kick),
}


@command("init", "先攻", "戰鬥", "战斗")
async def init(ctx: Context) -> list[Outgoing]:
    return await route_init(ctx, INIT)
