"""Sanity (CO-5, CO-6): `.sc 1/1d6 [SAN]`, and the bouts of madness `.ti` / `.li`.

`.sc` reads the active sheet's 理智 (an inline value wins: it is the SAN the check
starts from) and writes the result back onto the sheet; without a sheet an inline
SAN is checked and nothing is written.
"""

from __future__ import annotations

from typing import Any

from bot.context import Context
from bot.errors import CommandError
from bot.messages import Outgoing
from bot.router import command
from bot.systems.coc7.commands.checks import house_rule
from bot.systems.coc7.sheet import write
from bot.systems.coc7.text import dice_text, roll_data
from rules.systems import coc7
from rules.systems.coc7 import Sanity


def parse_sc(text: str) -> tuple[coc7.Loss, int | None]:
    words = text.split()
    if not 1 <= len(words) <= 2 or (len(words) == 2 and not words[1].isdigit()):
        raise CommandError("coc7.error.sc_usage")
    loss = coc7.parse_loss(words[0])
    san = int(words[1]) if len(words) == 2 else None
    if san is not None and san > coc7.MAX_SKILL:
        raise CommandError("coc7.error.bad_san", value=san, max=coc7.MAX_SKILL)
    return loss, san


def precheck_sc(text: str) -> None:
    parse_sc(text)


def loss_text(ctx: Context, result: Sanity) -> str:
    """``1d6=4`` / ``1`` / a fumble's ``1d10+1 的最大值 11``."""
    if result.level == "fumble":
        return ctx.t("coc7.sanity.maximum", expr=result.expression, loss=result.loss)
    if result.loss_dice or result.expression != str(result.loss):
        return f"{result.expression}={result.loss}"
    return str(result.loss)


def sanity_lines(ctx: Context, who: str, result: Sanity) -> list[str]:
    lines = [ctx.t("coc7.sanity.line", who=who, dice=dice_text(ctx, result.roll, result.before),
                   outcome=ctx.t(f"coc7.level.{result.level}"), loss=loss_text(ctx, result),
                   before=result.before, after=result.after)]
    if result.after == 0:
        lines.append(ctx.t("coc7.sanity.zero", who=who))
    elif result.insanity_roll:
        lines.append(ctx.t("coc7.sanity.insanity_roll", who=who, loss=result.loss))
    return lines


def sanity_data(who: str, user: str, result: Sanity) -> dict[str, Any]:
    """Issue 26 item 7: ``coc7.sanity`` with roll, before, after, loss, success."""
    return {"kind": "coc7.sanity", "who": who, "user": user, **roll_data(result.roll),
            "level": result.level, "success": result.success, "before": result.before,
            "after": result.after, "loss": result.loss, "expression": result.expression,
            "loss_dice": list(result.loss_dice), "insanity_roll": result.insanity_roll}


@command("sc", "理智檢定", "理智检定", "san", precheck=precheck_sc)
async def sc(ctx: Context) -> list[Outgoing]:
    """CO-5/CO-6: `.sc 成功损失/失败损失 [当前理智]`."""
    loss, inline = parse_sc(ctx.args)
    character = await ctx.uow.active_sheet(ctx.user)
    who = character.name if character is not None else ctx.name
    san = inline
    if san is None:
        found = character.stats.get(coc7.SAN) if character is not None else None
        if not isinstance(found, int):
            raise CommandError("coc7.error.no_san", who=who)
        san = found
    result = coc7.sanity_check(ctx.dice, san, loss, rule=await house_rule(ctx))
    if character is not None:
        write(character, coc7.SAN, result.after)
    return [ctx.reply("\n".join(sanity_lines(ctx, who, result)),
                      sanity_data(who, ctx.user, result))]


async def madness(ctx: Context, kind: coc7.madness.Kind) -> list[Outgoing]:
    if ctx.args.strip():
        raise CommandError(f"coc7.error.{'ti' if kind == 'realtime' else 'li'}_usage")
    character = await ctx.uow.active_sheet(ctx.user)
    who = character.name if character is not None else ctx.name
    bout = coc7.bout(ctx.dice, kind)
    text = ctx.t(f"coc7.madness.{kind}", who=who, roll=bout.roll,
                 outcome=ctx.t(f"coc7.madness.{bout.outcome}"), duration=bout.duration)
    return [ctx.reply(text, {"kind": "coc7.madness", "who": who, "table": kind,
                             "roll": bout.roll, "outcome": bout.outcome,
                             "duration": bout.duration, "unit": bout.unit})]


@command("ti", "臨時瘋狂", "临时疯狂")
async def ti(ctx: Context) -> list[Outgoing]:
    """CO-6: a bout of madness in real time (d10 outcome, 1d10 rounds)."""
    return await madness(ctx, "realtime")


@command("li", "總結瘋狂", "总结疯狂")
async def li(ctx: Context) -> list[Outgoing]:
    """CO-6: a summary bout of madness (d10 outcome, 1d10 hours passed over)."""
    return await madness(ctx, "summary")
