"""`.system` (which rule system the channel plays) and `.lang` (reply language)."""

from __future__ import annotations

from bot import systems
from bot.context import Context
from bot.errors import CommandError
from bot.i18n import LOCALES, canonical_locale
from bot.messages import Outgoing
from bot.permissions import require_gm_if_any
from bot.router import command


@command("system", "sys", "系統", "系统")
async def system(ctx: Context) -> list[Outgoing]:
    available = "、".join(f"{p.id}（{p.game.names[0]}）" for p in systems.plugins().values())
    wanted = ctx.args.strip()
    if not wanted:
        return [ctx.reply(ctx.t("core.system.show", id=ctx.system.id, name=ctx.system.names[0],
                                available=available))]
    require_gm_if_any(ctx)
    plugin = systems.get(wanted)
    if plugin is None:
        raise CommandError("core.error.system_unknown", id=wanted, available=available)
    chosen = plugin.game
    ctx.channel.system = chosen.id
    return [ctx.reply(ctx.t("core.system.set", id=chosen.id, name=chosen.names[0]))]


@command("lang", "language", "語言", "语言")
async def lang(ctx: Context) -> list[Outgoing]:
    wanted = ctx.args.strip()
    if not wanted:
        return [ctx.reply(ctx.t("core.lang.show", locale=ctx.locale, available=", ".join(LOCALES)))]
    require_gm_if_any(ctx)
    locale = canonical_locale(wanted)
    if locale is None:
        raise CommandError("core.error.lang_unknown", locale=wanted, available=", ".join(LOCALES))
    ctx.channel.locale = locale
    ctx.locale = locale
    return [ctx.reply(ctx.t("core.lang.set", locale=locale))]
