"""`.system` (which rule system the channel plays) and `.lang` (reply language)."""

from __future__ import annotations

from bot.context import Context
from bot.errors import CommandError
from bot.i18n import LOCALES, canonical_locale
from bot.messages import Outgoing
from bot.permissions import require_gm_if_any
from bot.router import command
from rules.systems import registry


@command("system", "sys")
async def system(ctx: Context) -> list[Outgoing]:
    available = "、".join(f"{s.id}（{s.names[0]}）" for s in registry.SYSTEMS.values())
    wanted = ctx.args.strip()
    if not wanted:
        return [ctx.reply(ctx.t("system.show", id=ctx.system.id, name=ctx.system.names[0],
                                available=available))]
    require_gm_if_any(ctx)
    chosen = registry.get(wanted)
    if chosen is None:
        raise CommandError("error.system_unknown", id=wanted, available=available)
    ctx.channel.system = chosen.id
    return [ctx.reply(ctx.t("system.set", id=chosen.id, name=chosen.names[0]))]


@command("lang", "language")
async def lang(ctx: Context) -> list[Outgoing]:
    wanted = ctx.args.strip()
    if not wanted:
        return [ctx.reply(ctx.t("lang.show", locale=ctx.locale, available=", ".join(LOCALES)))]
    require_gm_if_any(ctx)
    locale = canonical_locale(wanted)
    if locale is None:
        raise CommandError("error.lang_unknown", locale=wanted, available=", ".join(LOCALES))
    ctx.channel.locale = locale
    ctx.locale = locale
    return [ctx.reply(ctx.t("lang.set", locale=locale))]
