"""Growth and creation (CO-7, CO-8): `.en 技能 [值]` and `.coc [n]`."""

from __future__ import annotations

from bot.context import Context
from bot.errors import CommandError
from bot.messages import Outgoing
from bot.router import command
from bot.systems.coc7.args import parse_check
from bot.systems.coc7.sheet import skill_value, stat_name, write
from bot.systems.coc7.text import dice_text, roll_data
from rules.systems import coc7


def precheck_en(text: str) -> None:
    args = parse_check(text, "coc7.error.en_usage", extra_dice=False)
    if args.stat is None or args.difficulty != "regular":
        raise CommandError("coc7.error.en_usage")


@command("en", "成長", "成长", precheck=precheck_en)
async def en(ctx: Context) -> list[Outgoing]:
    """CO-7: a d100 over the skill (or over 95) adds 1d10, written to the sheet."""
    precheck_en(ctx.args)
    args = parse_check(ctx.args, "coc7.error.en_usage", extra_dice=False)
    assert args.stat is not None
    character = await ctx.uow.active_sheet(ctx.user)
    who = character.name if character is not None else ctx.name
    stat = stat_name(args.stat, character)
    before = skill_value(character, stat, args.value, who)
    result = coc7.improve(ctx.dice, before, stat)
    if character is not None and result.improved:
        write(character, stat, result.after)
    key = "coc7.growth.improved" if result.improved else "coc7.growth.same"
    text = ctx.t(key, who=who, stat=stat, dice=dice_text(ctx, result.roll, before),
                 gain=result.gain, before=result.before, after=result.after)
    return [ctx.reply(text, {"kind": "coc7.growth", "who": who, "user": ctx.user,
                             "stat": stat, **roll_data(result.roll),
                             "improved": result.improved, "gain": result.gain,
                             "before": result.before, "after": result.after})]


def parse_count(text: str) -> int:
    text = text.strip()
    if not text:
        return 1
    if not text.isdigit() or len(text) > 3:
        raise CommandError("coc7.error.coc_usage", max=coc7.MAX_INVESTIGATORS)
    count = int(text)
    if not 1 <= count <= coc7.MAX_INVESTIGATORS:
        raise CommandError("coc7.error.coc_usage", max=coc7.MAX_INVESTIGATORS)
    return count


def precheck_coc(text: str) -> None:
    parse_count(text)


NAMES = dict(zip(coc7.ORDER, coc7.ATTRIBUTE_NAMES, strict=True))
"""``STR`` → 力量: the data's keys are English, the text names them as the table does."""


@command("coc", "人物作成", "車卡", "车卡", precheck=precheck_coc)
async def coc(ctx: Context) -> list[Outgoing]:
    """CO-8: `.coc [n]` rolls n investigators (1–10) with their totals."""
    rolled = coc7.create(ctx.dice, parse_count(ctx.args))
    character = await ctx.uow.active_sheet(ctx.user)
    who = character.name if character is not None else ctx.name
    lines = [ctx.t("coc7.create.header", who=who, n=len(rolled))]
    for number, found in enumerate(rolled, 1):
        values = " ".join(f"{NAMES[key]}:{value}" for key, value in found.values.items())
        lines.append(ctx.t("coc7.create.line", n=number, values=values, total=found.total,
                           luck=found.total_with_luck))
    data = {"kind": "coc7.create", "characters": [dict(x.values) for x in rolled],
            "totals": [{"total": x.total, "with_luck": x.total_with_luck} for x in rolled]}
    return [ctx.reply("\n".join(lines), data)]
