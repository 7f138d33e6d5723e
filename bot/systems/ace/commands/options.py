"""`.ace`: the table's options — attribute substitution (AE-2: on unless the GM refuses
it) and supernatural attributes (AE-12: off unless the GM turns them on)."""

from __future__ import annotations

from dataclasses import asdict, replace

from bot.context import Context
from bot.errors import CommandError
from bot.messages import Outgoing
from bot.permissions import require_gm_if_any
from bot.systems.ace.documents import OPTIONS, Options
from bot.systems.ace.table import command
from bot.systems.ace.text import data
from bot.systems.ace.words import OFF, ON, any_of

KEYS: dict[str, tuple[str, ...]] = {
    "attr": ("attr", "屬性代判", "属性代判", "代判", "substitution"),
    "super": ("super", "超自然", "supernatural"),
}


def show(ctx: Context, values: Options) -> Outgoing:
    items = ctx.t("ace.bar").join(ctx.t(f"ace.option.{k}", state=ctx.t("ace.option.on" if on
                                                            else "ace.option.off"))
                     for k, on in asdict(values).items())
    return ctx.reply(ctx.t("ace.option.show", items=items), data("options", **asdict(values)))


@command("ace", "王牌", "王牌進化", "王牌进化")
async def ace_options(ctx: Context) -> list[Outgoing]:
    """`.ace` shows the options; `.ace attr on|off`, `.ace super on|off` (GM)."""
    tokens = ctx.args.split()
    if not tokens:
        return [show(ctx, await ctx.uow.load(OPTIONS))]
    if len(tokens) != 2:
        raise CommandError("ace.error.option_usage")
    key = next((k for k, spellings in KEYS.items() if any_of(tokens[0], spellings)), None)
    if key is None or not (any_of(tokens[1], ON) or any_of(tokens[1], OFF)):
        raise CommandError("ace.error.option_usage")
    require_gm_if_any(ctx)
    values = replace(await ctx.uow.load(OPTIONS), **{key: any_of(tokens[1], ON)})
    ctx.uow.save(OPTIONS, values)
    return [show(ctx, values)]
