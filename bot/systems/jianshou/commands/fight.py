"""`.init` (issue 24): the shared fight words of the encounter kit on a 剑手 table.

Each verb is a `.js` lobby word or a turn command under another name — ``join``
`.js join`, ``start`` `.js start`, ``next`` `.end`, ``list`` `.js`, ``end`` `.js reset`
(a referee's, or every player still in the game together), ``remove`` `.js kick`.
There is no ``add`` (nor the other systems' ``set``): every fighter is a seated
player, none is added by a GM, and HP changes only in play — said in one line.
"""

from __future__ import annotations

from dataclasses import replace

from bot.context import Context
from bot.errors import CommandError
from bot.kits.args import is_word
from bot.kits.encounter import Handler, init_verb, route_init
from bot.kits.refusals import refusal_text
from bot.messages import Outgoing
from bot.systems.jianshou.commands import lobby, play
from bot.systems.jianshou.table import command
from bot.systems.jianshou.text import readable
from rules.errors import RuleError


def _lobby(verb: lobby.Verb) -> Handler:
    @readable
    async def run(ctx: Context) -> list[Outgoing]:
        return await verb(ctx, ctx.args.split())

    return run


async def _next(ctx: Context) -> list[Outgoing]:
    """`.init next` ends the turn; discarding names cards of the hand, which `.end`
    does with its refusals kept private — so it is `.end`'s alone. Its refusals go
    where `.end`'s go: to the one who typed it (`.end` is a hidden command)."""
    if ctx.args:
        raise CommandError("jianshou.error.init_next_usage")
    try:
        return await play.end(replace(ctx, command="end"))  # readable already
    except (CommandError, RuleError) as exc:
        return [ctx.private(ctx.user, refusal_text(ctx, exc),
                            {"kind": "jianshou.refused", "command": "init next"})]


INIT = {
    "join": _lobby(lobby.join),
    "start": _lobby(lobby.start),
    "next": _next,
    "list": _lobby(lobby.show),
    "end": _lobby(lobby.reset),
    "remove": _lobby(lobby.kick),
}


SET_WORDS = ("set", "hp", "設", "设", "設定", "设定")
"""`.init set` of the other systems (a GM sets a combatant's HP): none here."""


@command("init", "先攻", "戰鬥", "战斗")
async def init(ctx: Context) -> list[Outgoing]:
    word = ctx.args.split(maxsplit=1)[0] if ctx.args.split() else ""
    if init_verb(word) == "add" or is_word(word, *SET_WORDS):
        raise CommandError("jianshou.error.init_no_gm")
    return await route_init(ctx, INIT)
