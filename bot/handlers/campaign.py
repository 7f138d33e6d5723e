"""`.campaign`: let several channels (Plurk threads, Discord threads) play at one table.

A GM running one game across several threads binds each thread to a named
campaign; every command in a bound thread then reads and writes the
campaign's table (GMs, sheets, AP, battle) while replies still go to the
thread the command came from.

Campaign names are global per platform, so a campaign belongs to the table that
created it: another channel joins only with the consent of one of its GMs — the
GM binds it in person, or hands out a one-time code (`.campaign invite`, sent
privately). A campaign without GMs cannot be joined from elsewhere at all.
"""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from bot.context import Context
from bot.documents import Document
from bot.errors import CommandError
from bot.messages import Outgoing
from bot.permissions import require_gm, require_gm_if_any
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
_CODE = re.compile(r"^[0-9A-Fa-f]{8}$")
INVITE_HOURS = 24


class CampaignInvites(Document):
    """A campaign table's one-time join codes: ``{"codes": {code: expiry ISO time}}``."""

    key = "core.campaign_invites"


@command("campaign", "戰役", "战役", rebinds=True)
async def campaign(ctx: Context) -> list[Outgoing]:
    verb, _, rest = ctx.args.partition(" ")
    verb = verb.casefold()
    key = (ctx.incoming.platform, ctx.incoming.channel)
    binding = await ctx.session.get(ChannelBinding, key)
    if verb in ("", "show"):
        if binding is None:
            return [ctx.reply(ctx.t("core.campaign.unbound"))]
        return [ctx.reply(ctx.t("core.campaign.bound", name=binding.campaign))]
    if verb == "bind":
        name, code = split_code(rest.strip())
        return [await bind(ctx, name, code, binding)]
    if verb == "invite":
        if binding is None:
            raise CommandError("core.error.campaign_not_bound")
        return await invite(ctx, binding.campaign)
    if verb == "unbind":
        if binding is None:
            raise CommandError("core.error.campaign_not_bound")
        require_gm_if_any(ctx)
        await ctx.session.delete(binding)
        return [ctx.reply(ctx.t("core.campaign.unbound_done", name=binding.campaign))]
    raise CommandError("core.error.campaign_usage")


def split_code(text: str) -> tuple[str, str]:
    """`龍穴 1A2B3C4D` → (`龍穴`, `1A2B3C4D`); a name may hold spaces, a code is its last
    word of eight hex digits."""
    name, _, last = text.rpartition(" ")
    if name and _CODE.match(last):
        return name.strip(), last
    return text, ""


async def bind(ctx: Context, name: str, code: str, binding: ChannelBinding | None) -> Outgoing:
    """Bind this channel to ``name``: a new campaign is created from this table; an
    existing one is joined only by one of its GMs or with one of their codes."""
    if not name or len(name) > MAX_CAMPAIGN_NAME or name.startswith(CAMPAIGN_PREFIX):
        raise CommandError("core.error.campaign_name", limit=MAX_CAMPAIGN_NAME)
    require_gm_if_any(ctx)
    key = campaign_key(name)
    if key == ctx.channel.channel_key:
        return ctx.reply(ctx.t("core.campaign.bound", name=name))
    target = await ctx.session.scalar(select(Channel).where(
        Channel.platform == ctx.incoming.platform, Channel.channel_key == key))
    if target is not None:
        await consent(ctx, target, name, code)
    else:
        target = await ctx.core.channel_row(ctx.session, ctx.incoming.platform, key)
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
    text = ctx.t("core.campaign.bound_done", name=name)
    if moved:
        text += "\n" + ctx.t("core.campaign.moved", count=moved)
    return ctx.reply(text)


async def consent(ctx: Context, target: Channel, name: str, code: str) -> None:
    """Refuse to join an existing campaign without the consent of one of its GMs: the
    speaker is one of them, or gives a code one of them got (used up here)."""
    gms = {gm.user for gm in target.gms}
    if not gms:
        raise CommandError("core.error.campaign_closed", name=name)
    if ctx.user in gms:
        return
    if not code:
        raise CommandError("core.error.campaign_invite_needed", name=name)
    row = await ctx.session.get(ChannelState, (target.id, CampaignInvites.key))
    codes = dict((row.data or {}).get("codes", {})) if row is not None else {}
    expiry = codes.pop(code.upper(), None)
    if row is None or expiry is None or datetime.fromisoformat(expiry) < _now():
        raise CommandError("core.error.campaign_code")
    row.data = {**row.data, "codes": codes}


async def invite(ctx: Context, name: str) -> list[Outgoing]:
    """A one-time code for another channel to join this campaign, sent to the GM only
    (a code posted in the channel could be copied by anyone reading it)."""
    require_gm(ctx)
    row = await ctx.document(CampaignInvites)
    now = _now()
    codes = {code: expiry for code, expiry in (row.data or {}).get("codes", {}).items()
             if datetime.fromisoformat(expiry) >= now}  # expired ones are dropped
    code = secrets.token_hex(4).upper()
    codes[code] = (now + timedelta(hours=INVITE_HOURS)).isoformat()
    row.data = {**(row.data or {}), "codes": codes}
    private = ctx.private(ctx.user, ctx.t("core.campaign.invite", name=name, code=code,
                                          hours=INVITE_HOURS))
    if ctx.incoming.is_private:
        return [private]
    return [ctx.reply(ctx.t("core.campaign.invite_sent", name=ctx.name)), private]


def _now() -> datetime:
    return datetime.now(UTC)


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
        raise CommandError("core.error.campaign_clash", names=clashes)
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
