"""`.campaign`: let several channels (Plurk threads, Discord threads) play at one table.

A GM running one game across several threads binds each thread to a named
campaign; every command in a bound thread then reads and writes the
campaign's table (GMs, sheets, AP, battle) while replies still go to the
thread the command came from.
"""

from __future__ import annotations

from sqlalchemy import select

from bot.context import Context
from bot.errors import CommandError
from bot.messages import Outgoing
from bot.permissions import require_gm_if_any
from bot.router import command
from bot.store.models import (
    CAMPAIGN_PREFIX,
    Channel,
    ChannelBinding,
    ChannelGM,
    ChannelState,
    Character,
    campaign_key,
)

MAX_CAMPAIGN_NAME = 50


@command("campaign", "戰役", "战役")
async def campaign(ctx: Context) -> list[Outgoing]:
    verb, _, rest = ctx.args.partition(" ")
    verb = verb.casefold()
    key = (ctx.incoming.platform, ctx.incoming.channel)
    binding = await ctx.session.get(ChannelBinding, key)
    if verb in ("", "show"):
        if binding is None:
            return [ctx.reply(ctx.t("campaign.unbound"))]
        return [ctx.reply(ctx.t("campaign.bound", name=binding.campaign))]
    if verb == "bind":
        return [await bind(ctx, rest.strip(), binding)]
    if verb == "unbind":
        if binding is None:
            raise CommandError("error.campaign_not_bound")
        require_gm_if_any(ctx)
        await ctx.session.delete(binding)
        return [ctx.reply(ctx.t("campaign.unbound_done", name=binding.campaign))]
    raise CommandError("error.campaign_usage")


async def bind(ctx: Context, name: str, binding: ChannelBinding | None) -> Outgoing:
    """Bind this channel to ``name``; the GMs of this table must agree with the campaign's."""
    if not name or len(name) > MAX_CAMPAIGN_NAME or name.startswith(CAMPAIGN_PREFIX):
        raise CommandError("error.campaign_name", limit=MAX_CAMPAIGN_NAME)
    require_gm_if_any(ctx)
    target = await ctx.core.channel_row(ctx.session, ctx.incoming.platform, campaign_key(name))
    if target.gms and ctx.user not in {gm.user for gm in target.gms}:
        raise CommandError("error.gm_only")
    if target.id == ctx.channel.id:
        return ctx.reply(ctx.t("campaign.bound", name=name))
    moved = await move_table(ctx, target)
    if not target.gms:
        # a new campaign starts with this table's GMs, rule system and language
        target.gms = [ChannelGM(user=gm.user, display_name=gm.display_name)
                      for gm in ctx.channel.gms]
        target.system, target.locale = ctx.channel.system, ctx.channel.locale
    if binding is None:
        ctx.session.add(ChannelBinding(platform=ctx.incoming.platform,
                                       channel_key=ctx.incoming.channel, campaign=name))
    else:
        binding.campaign = name
    text = ctx.t("campaign.bound_done", name=name)
    if moved:
        text += "\n" + ctx.t("campaign.moved", count=moved)
    return ctx.reply(text)


async def move_table(ctx: Context, target: Channel) -> int:
    """Bring this table's characters (and game state the campaign does not have yet)
    into the campaign, so binding never hides a sheet. Refuses, changing nothing, when
    a player has a character of the same name on both sides."""
    ours = list(await ctx.session.scalars(
        select(Character).where(Character.channel_id == ctx.channel.id)))
    theirs = list(await ctx.session.scalars(
        select(Character).where(Character.channel_id == target.id)))
    taken = {(c.owner, c.name) for c in theirs}
    clashes = sorted({c.name for c in ours if (c.owner, c.name) in taken})
    if clashes:
        raise CommandError("error.campaign_clash", names="、".join(clashes))
    active_owners = {c.owner for c in theirs if c.active}
    for character in ours:
        character.channel_id = target.id
        character.active = character.active and character.owner not in active_owners
    their_state = set(await ctx.session.scalars(
        select(ChannelState.key).where(ChannelState.channel_id == target.id)))
    for row in await ctx.session.scalars(
            select(ChannelState).where(ChannelState.channel_id == ctx.channel.id)):
        if row.key not in their_state:  # the campaign's own state wins
            row.channel_id = target.id
    return len(ours)
