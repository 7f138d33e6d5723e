"""`.gm`: claim the GM seat, list, add and remove GMs, re-send undelivered secrets."""

from __future__ import annotations

import re

from bot.context import Context
from bot.errors import CommandError
from bot.messages import Outgoing
from bot.permissions import require_gm
from bot.router import command

_MENTION = re.compile(r"^(?:<@!?(\d+)>|\[CQ:at,qq=(\d+)\]|@?(\S+))$")


def user_ref(text: str) -> str:
    """A user named in a command: a raw id, `@id`, a Discord `<@id>` or a QQ at-code."""
    match = _MENTION.match(text.strip())
    if match is None:
        raise CommandError("core.error.gm_usage")
    return next(group for group in match.groups() if group)


def gm_list(ctx: Context) -> str:
    if not ctx.channel.gms:
        return ctx.t("core.gm.none")
    return ctx.t("core.gm.list", names=[gm.display_name or gm.user for gm in ctx.channel.gms])


@command("gm")
async def gm(ctx: Context) -> list[Outgoing]:
    verb, _, rest = ctx.args.partition(" ")
    verb = verb.casefold()
    if verb in ("", "claim"):
        if not ctx.channel.gms:
            ctx.uow.add_gm(ctx.user, ctx.name)
            return [ctx.reply(ctx.t("core.gm.claimed", name=ctx.name))]
        if verb == "claim" and not ctx.is_gm:
            raise CommandError("core.error.gm_taken")
        return [ctx.reply(gm_list(ctx))]
    if verb in ("list", "ls"):
        return [ctx.reply(gm_list(ctx))]
    if verb == "add":
        require_gm(ctx)
        user = user_ref(rest)
        if not ctx.services.is_user_id(ctx.incoming.platform, user):
            # a GM receives every secret: `0` would make Plurk post them to all of the
            # bot's friends, and the bot itself or a typo reaches nobody who should read
            raise CommandError("core.error.gm_bad_user", user=user)
        if user in ctx.gm_users:
            raise CommandError("core.error.gm_already", user=user)
        ctx.uow.add_gm(user)
        return [ctx.reply(ctx.t("core.gm.added", user=user))]
    if verb in ("del", "rm", "remove"):
        require_gm(ctx)
        user = user_ref(rest) if rest.strip() else ctx.user
        removed = ctx.uow.remove_gm(user)
        if removed is not None:
            return [ctx.reply(ctx.t("core.gm.removed", user=removed or user))]
        raise CommandError("core.error.gm_not_gm", user=user)
    if verb == "pending":
        return await resend_pending(ctx)
    raise CommandError("core.error.gm_usage")


async def resend_pending(ctx: Context) -> list[Outgoing]:
    """Private messages the platform refused earlier, sent again to their recipient."""
    texts = await ctx.uow.take_pending(ctx.user)
    if not texts:
        return [ctx.private(ctx.user, ctx.t("core.gm.pending_none"), secret=False)]
    notice = ctx.reply(ctx.t("core.gm.pending_sent", count=len(texts)))
    # out of every game log: a secret was recorded when it was first sent, and a
    # player-private one (a hand) never is — its text is all a pending row keeps
    return [notice, *(ctx.player_private(ctx.user, text, "") for text in texts)]
