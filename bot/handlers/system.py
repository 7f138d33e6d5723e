"""`.system` (which rule system the channel plays) and `.lang` (reply language)."""

from __future__ import annotations

from bot import systems
from bot.context import Context
from bot.errors import CommandError
from bot.i18n import LOCALES, canonical_locale, simplified
from bot.manifests import Manifest
from bot.messages import Outgoing
from bot.permissions import require_gm_if_any
from bot.router import command
from rules.kits.game_system import GameSystem


@command("system", "sys", "系統", "系统")
async def system(ctx: Context) -> list[Outgoing]:
    available = ctx.t("core.system.sep").join(
        ctx.t("core.system.entry", id=f"{m.layer_of[0]}+{m.id}" if m.layer_of else m.id,
              name=title(ctx, m)) for m in systems.declared().values())
    wanted = ctx.args.strip().replace(" ", "")
    if not wanted:
        text = ctx.t("core.system.show", id=ctx.channel.system,
                     name=names(ctx, ctx.channel.system), available=available)
        plugin = systems.get(ctx.channel.system)
        if plugin is not None and plugin.describe is not None:
            text += "\n" + await plugin.describe(ctx)
        return [ctx.reply(text)]
    require_gm_if_any(ctx)
    plugin = systems.get(wanted)
    if plugin is None:
        raise CommandError("core.error.system_unknown", id=wanted, available=available)
    if plugin.layer_of:  # a tactical layer alone is no game: name the base it needs
        raise CommandError("core.error.system_layer", id=plugin.id, base=plugin.layer_of[0])
    chosen = "+".join([plugin.id, *(p.id for p in systems.layers(wanted))])
    ctx.channel.system = chosen
    return [ctx.reply(ctx.t("core.system.set", id=chosen, name=names(ctx, chosen)))]


def title(ctx: Context, game: GameSystem | Manifest) -> str:
    """A system's name for the reader: its first (Chinese) name, in 简体 for 简体 readers
    (the catalog simplifies its templates, never the names filled into them), or for
    English readers its English one."""
    if ctx.locale == "en":
        return next((name for name in reversed(game.names) if name.isascii()), game.names[0])
    if ctx.locale == "zh-Hans":
        return simplified(game.names[0])
    return game.names[0]


def names(ctx: Context, system_id: str) -> str:
    """``規則書·戰鬥篇 + 站位与姿势``: the base's name and each layer's."""
    base = systems.get(system_id)
    parts = [title(ctx, base.game)] if base is not None else [system_id]
    return " + ".join(parts + [title(ctx, p.game) for p in systems.layers(system_id)])


@command("lang", "language", "語言", "语言")
async def lang(ctx: Context) -> list[Outgoing]:
    wanted = ctx.args.strip()
    available = [ctx.t("core.lang.entry", locale=code, name=ctx.t(f"core.lang.name.{code}"))
                 for code in LOCALES]
    if not wanted:
        return [ctx.reply(ctx.t("core.lang.show", locale=ctx.locale, available=available,
                                name=ctx.t(f"core.lang.name.{ctx.locale}")))]
    require_gm_if_any(ctx)
    locale = canonical_locale(wanted)
    if locale is None:
        raise CommandError("core.error.lang_unknown", locale=wanted, available=available)
    ctx.channel.locale = locale
    ctx.locale = locale  # the answer is in the new language, naming it as its readers do
    return [ctx.reply(ctx.t("core.lang.set", name=ctx.t(f"core.lang.name.{locale}")))]
