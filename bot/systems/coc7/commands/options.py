"""`.setcoc [0|1|2|3]`: the table's house rule for criticals and fumbles (CO-2), in
SealDice's numbering; shown in `.system`."""

from __future__ import annotations

from dataclasses import replace

from bot.context import Context
from bot.errors import CommandError
from bot.messages import Outgoing
from bot.permissions import require_gm_if_any
from bot.router import command
from bot.systems.coc7.documents import OPTIONS
from rules.systems import coc7


def rule_text(ctx: Context, number: int) -> str:
    return ctx.t("coc7.house.entry", rule=number, text=ctx.t(f"coc7.house.rule_{number}"))


async def describe(ctx: Context) -> str:
    """What `.system` says of a coc7 table: its house rule."""
    return ctx.t("coc7.house.current", rule=rule_text(
        ctx, (await ctx.uow.load(OPTIONS)).house_rule))


@command("setcoc", "房規", "房规")
async def setcoc(ctx: Context) -> list[Outgoing]:
    """`.setcoc` shows the house rule and the others; `.setcoc N` (GM) plays rule N."""
    wanted = ctx.args.strip()
    options = await ctx.uow.load(OPTIONS)
    if not wanted:
        known = "\n".join(rule_text(ctx, n) for n in coc7.HOUSE_RULES)
        return [ctx.reply(ctx.t("coc7.house.show", current=options.house_rule, known=known),
                          {"kind": "coc7.house_rule", "rule": options.house_rule})]
    require_gm_if_any(ctx)
    if not wanted.isdigit() or int(wanted) not in coc7.HOUSE_RULES:
        raise CommandError("coc7.error.unknown_house_rule", rule=wanted[:10],
                           known=[str(n) for n in coc7.HOUSE_RULES])
    ctx.uow.save(OPTIONS, replace(options, house_rule=int(wanted)))
    return [ctx.reply(ctx.t("coc7.house.set", rule=rule_text(ctx, int(wanted))),
                      {"kind": "coc7.house_rule", "rule": int(wanted)})]
