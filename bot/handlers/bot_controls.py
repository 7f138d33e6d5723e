"""Group controls, as SealDice / Dice! users know them: `.bot on|off`, `.dismiss`,
`.ban` / `.unban`.

Who may use them: a GM of the channel, or whoever the platform says runs the channel
(``Incoming.channel_admin``: a QQ group's owner or admin, a Discord member with
Manage Server) — a group's admins can silence or dismiss the bot without claiming
the GM seat. Everyone may look (`.bot`, `.ban list`).

What they store is one table document (:data:`bot.controls.CONTROLS`); what
silences a command is the dispatcher's (:func:`bot.controls.silenced`).
"""

from __future__ import annotations

from bot.context import Context
from bot.controls import COMMAND, CONTROLS, Controls
from bot.errors import CommandError
from bot.kits.references import mention
from bot.messages import Outgoing
from bot.router import command

CONFIRM = ("confirm", "確認", "确认")


def require_controller(ctx: Context) -> None:
    """Refuse unless the speaker is a GM of the channel or its platform admin."""
    if not (ctx.is_gm or ctx.incoming.channel_admin):
        raise CommandError("core.error.controls_only")


@command(COMMAND, "機器人", "机器人")
async def bot(ctx: Context) -> list[Outgoing]:
    verb = ctx.args.strip().casefold()
    controls = await ctx.uow.load(CONTROLS)
    here = ctx.incoming.channel
    if not verb:
        state = "off" if here in controls.off else "on"
        return [ctx.reply(ctx.t(f"core.bot.state_{state}"))]
    if verb not in ("on", "off"):
        raise CommandError("core.error.bot_usage")
    if verb == "on" and here not in controls.off:
        # on already: in a group of several dice bots it is another one being woken
        return []
    require_controller(ctx)
    if verb == "off" and here in controls.off:
        return [ctx.reply(ctx.t("core.bot.already_off"))]
    switch(controls, here, off=verb == "off")
    ctx.uow.save(CONTROLS, controls)
    return [ctx.reply(ctx.t(f"core.bot.now_{verb}"))]


def switch(controls: Controls, channel: str, *, off: bool) -> None:
    if off and channel not in controls.off:
        controls.off.append(channel)
    elif not off and channel in controls.off:
        controls.off.remove(channel)


@command("dismiss", "退群")
async def dismiss(ctx: Context) -> list[Outgoing]:
    """`.dismiss` asks; `.dismiss confirm` says goodbye and leaves. The channel is off
    from then on, so that a platform where the bot cannot leave (a thread it still
    sees) hears nothing more from it, and a group that invites it back wakes it with
    `.bot on`."""
    if ctx.incoming.is_private:
        raise CommandError("core.error.dismiss_private")
    require_controller(ctx)
    if ctx.args.strip().casefold() not in CONFIRM:
        return [ctx.reply(ctx.t("core.bot.dismiss_ask"))]
    controls = await ctx.uow.load(CONTROLS)
    switch(controls, ctx.incoming.channel, off=True)
    ctx.uow.save(CONTROLS, controls)
    return [Outgoing("channel", ctx.incoming.channel, ctx.t("core.bot.dismissed"),
                     leave=True)]


@command("ban", "封禁")
async def ban(ctx: Context) -> list[Outgoing]:
    controls = await ctx.uow.load(CONTROLS)
    wanted = ctx.args.strip()
    if wanted.casefold() in ("", "list", "ls"):
        if not controls.banned:
            return [ctx.reply(ctx.t("core.bot.ban_none"))]
        return [ctx.reply(ctx.t("core.bot.ban_list", users=controls.banned))]
    require_controller(ctx)
    user = user_named(wanted)
    if user in ctx.gm_users:
        raise CommandError("core.error.ban_gm", user=user)
    if user == ctx.user:
        raise CommandError("core.error.ban_self")
    if user in controls.banned:
        return [ctx.reply(ctx.t("core.bot.ban_already", user=user))]
    controls.banned.append(user)
    ctx.uow.save(CONTROLS, controls)
    return [ctx.reply(ctx.t("core.bot.banned", user=user))]


@command("unban", "解封")
async def unban(ctx: Context) -> list[Outgoing]:
    require_controller(ctx)
    user = user_named(ctx.args.strip())
    controls = await ctx.uow.load(CONTROLS)
    if user not in controls.banned:
        raise CommandError("core.error.ban_not_banned", user=user)
    controls.banned.remove(user)
    ctx.uow.save(CONTROLS, controls)
    return [ctx.reply(ctx.t("core.bot.unbanned", user=user))]


def user_named(text: str) -> str:
    """The user a `.ban` names: `@user`, a Discord `<@id>`, a QQ at, or a bare id."""
    user = mention(text)
    if user is None and text and not text.split()[1:]:
        user = text
    if not user:
        raise CommandError("core.error.ban_usage")
    return user
