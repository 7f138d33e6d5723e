"""`.nn`: the name the bot calls a player by when they have no character sheet.

Replies name the character who acts (`艾莉絲`), not the account (`alice`); a player
without a sheet — the GM, a guest rolling a die — is named by their nickname
(`.nn 守密人`, as SealDice and Dice! users set it), else by their display name.
"""

from __future__ import annotations

from bot.context import Context
from bot.errors import CommandError
from bot.handlers.pc import check_name
from bot.kits.acting import NICKNAMES
from bot.messages import Outgoing
from bot.normalize import normalize, strip_prefix
from bot.router import command

CLEAR = ("del", "clear", "rm", "刪除", "删除")


def typed_with_arguments(ctx: Context) -> bool:
    """Whether the command was typed with arguments that the core's removal of
    invisible format characters emptied (`.nn` + zero-width spaces): the text as typed
    (``Incoming.typed``) still has a word after the command's. Invisible characters
    glued to the command word (`.nn​`) are no argument."""
    typed = ctx.incoming.typed
    if typed is None:
        return False
    body = strip_prefix(normalize(typed)) or ""
    return len(body.split(maxsplit=1)) > 1


@command("nn", "暱稱", "昵称")
async def nn(ctx: Context) -> list[Outgoing]:
    wanted = ctx.args.strip()
    stored = await ctx.uow.load(NICKNAMES)
    names = stored.names
    if not wanted and typed_with_arguments(ctx):
        raise CommandError("core.error.blank_name")  # `.nn ​​​`: a blank name, not `.nn`
    if not wanted:
        current = names.get(ctx.user)
        if current is None:
            return [ctx.reply(ctx.t("core.nn.none", name=ctx.name))]
        return [ctx.reply(ctx.t("core.nn.show", name=current))]
    if wanted.casefold() in CLEAR:
        if names.pop(ctx.user, None) is None:
            raise CommandError("core.error.nn_none")
        ctx.uow.save(NICKNAMES, stored)
        return [ctx.reply(ctx.t("core.nn.cleared", name=ctx.name))]
    names[ctx.user] = check_name(wanted)
    ctx.uow.save(NICKNAMES, stored)
    return [ctx.reply(ctx.t("core.nn.set", name=names[ctx.user]))]
