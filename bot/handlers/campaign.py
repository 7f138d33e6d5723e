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
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from bot.context import Context
from bot.documents import Doc
from bot.errors import CommandError
from bot.messages import Outgoing
from bot.permissions import require_gm, require_gm_if_any
from bot.router import command
from bot.unit_of_work import CAMPAIGN_PREFIX, SheetClash, Table, campaign_key

MAX_CAMPAIGN_NAME = 50
_CODE = re.compile(r"^[0-9A-Fa-f]{8}$")
INVITE_HOURS = 24


@dataclass
class Invites:
    """A campaign table's one-time join codes."""

    codes: dict[str, str] = field(default_factory=dict)
    """code → expiry (ISO time)"""


INVITES = Doc("core.campaign_invites", Invites, Invites)


@command("campaign", "戰役", "战役", rebinds=True)
async def campaign(ctx: Context) -> list[Outgoing]:
    verb, _, rest = ctx.args.partition(" ")
    verb = verb.casefold()
    binding = await ctx.uow.binding(ctx.incoming.platform, ctx.incoming.channel)
    if verb in ("", "show"):
        if binding is None:
            return [ctx.reply(ctx.t("core.campaign.unbound"))]
        return [ctx.reply(ctx.t("core.campaign.bound", name=binding))]
    if verb == "bind":
        name, code = split_code(rest.strip())
        return [await bind(ctx, name, code, binding)]
    if verb == "invite":
        if binding is None:
            raise CommandError("core.error.campaign_not_bound")
        return await invite(ctx, binding)
    if verb == "unbind":
        if binding is None:
            raise CommandError("core.error.campaign_not_bound")
        require_gm_if_any(ctx)
        await ctx.uow.bind(ctx.incoming.platform, ctx.incoming.channel, None)
        return [ctx.reply(ctx.t("core.campaign.unbound_done", name=binding))]
    raise CommandError("core.error.campaign_usage")


def split_code(text: str) -> tuple[str, str]:
    """`龍穴 1A2B3C4D` → (`龍穴`, `1A2B3C4D`); a name may hold spaces, a code is its last
    word of eight hex digits."""
    name, _, last = text.rpartition(" ")
    if name and _CODE.match(last):
        return name.strip(), last
    return text, ""


async def bind(ctx: Context, name: str, code: str, binding: str | None) -> Outgoing:
    """Bind this channel to ``name``: a new campaign is created from this table; an
    existing one is joined only by one of its GMs or with one of their codes."""
    if not name or len(name) > MAX_CAMPAIGN_NAME or name.startswith(CAMPAIGN_PREFIX):
        raise CommandError("core.error.campaign_name", limit=MAX_CAMPAIGN_NAME)
    require_gm_if_any(ctx)
    key = campaign_key(name)
    if key == ctx.channel.channel_key:
        return ctx.reply(ctx.t("core.campaign.bound", name=name))
    target = await ctx.uow.table(ctx.incoming.platform, key, ctx.services.default_system)
    if target is not None:
        await consent(ctx, target, name, code)
    else:
        target = await ctx.uow.table(ctx.incoming.platform, key,
                                     ctx.services.default_system, create=True)
        assert target is not None
    try:
        moved = await ctx.uow.move_to(target)
    except SheetClash as clash:
        raise CommandError("core.error.campaign_clash", names=clash.names) from None
    if not target.gms:
        # a new campaign starts with this table's GMs, rule system and language
        ctx.uow.copy_gms(target)
        target.system, target.locale = ctx.channel.system, ctx.channel.locale
    await ctx.uow.bind(ctx.incoming.platform, ctx.incoming.channel, name)
    text = ctx.t("core.campaign.bound_done", name=name)
    if moved:
        text += "\n" + ctx.t("core.campaign.moved", count=moved)
    return ctx.reply(text)


async def consent(ctx: Context, target: Table, name: str, code: str) -> None:
    """Refuse to join an existing campaign without the consent of one of its GMs: the
    speaker is one of them, or gives a code one of them got (used up here)."""
    gms = {gm.user for gm in target.gms}
    if not gms:
        raise CommandError("core.error.campaign_closed", name=name)
    if ctx.user in gms:
        return
    if not code:
        raise CommandError("core.error.campaign_invite_needed", name=name)
    invites = await ctx.uow.load(INVITES, table=target)
    expiry = invites.codes.pop(code.upper(), None)
    if expiry is None or datetime.fromisoformat(expiry) < _now():
        raise CommandError("core.error.campaign_code")
    ctx.uow.save(INVITES, invites, table=target)


async def invite(ctx: Context, name: str) -> list[Outgoing]:
    """A one-time code for another channel to join this campaign, sent to the GM only
    (a code posted in the channel could be copied by anyone reading it)."""
    require_gm(ctx)
    invites = await ctx.uow.load(INVITES)
    now = _now()
    codes = {code: expiry for code, expiry in invites.codes.items()
             if datetime.fromisoformat(expiry) >= now}  # expired ones are dropped
    code = secrets.token_hex(4).upper()
    codes[code] = (now + timedelta(hours=INVITE_HOURS)).isoformat()
    ctx.uow.save(INVITES, Invites(codes))
    private = ctx.private(ctx.user, ctx.t("core.campaign.invite", name=name, code=code,
                                          hours=INVITE_HOURS))
    if ctx.incoming.is_private:
        return [private]
    return [ctx.reply(ctx.t("core.campaign.invite_sent", name=ctx.name)), private]


def _now() -> datetime:
    return datetime.now(UTC)
