"""`.r` / `.roll` (public roll), `.rh` (hidden roll) and `.set` (the channel's default die)."""

from __future__ import annotations

import re

from bot import systems
from bot.context import Context
from bot.errors import CommandError
from bot.kits.acting import acting_name
from bot.messages import Outgoing
from bot.permissions import require_gm_if_any
from bot.router import command
from rules import dice


def precheck_roll(args: str) -> None:
    """Parse (and so check every limit of) the expression before any I/O."""
    expression, _reason = dice.split_expression(args)
    if expression:
        dice.parse(expression, dice.DEFAULT_LIMITS)


def default_die(ctx: Context) -> str:
    """The channel's own die, else its system's — read from the system's manifest, so
    that a roll imports no rule system (issue 23)."""
    return ctx.channel.default_die or systems.default_die(ctx.channel.system,
                                                         ctx.services.default_system)


def roll_in(ctx: Context) -> dice.RollResult:
    return dice.roll(ctx.args, ctx.dice, default=default_die(ctx))


def describe(ctx: Context, result: dice.RollResult, name: str) -> str:
    key = "core.roll.result_reason" if result.reason else "core.roll.result"
    return ctx.t(key, name=name, reason=result.reason, detail=result.render())


def roll_data(result: dice.RollResult) -> dict:
    return {"kind": "roll", **result.to_data()}


@command("r", "roll", "骰", "擲骰", "掷骰", precheck=precheck_roll)
async def public_roll(ctx: Context) -> list[Outgoing]:
    result = roll_in(ctx)
    return [ctx.reply(describe(ctx, result, await acting_name(ctx)), roll_data(result))]


@command("rh", "暗骰", precheck=precheck_roll, hidden=True)
async def hidden_roll(ctx: Context) -> list[Outgoing]:
    """PL-7: the channel learns that a hidden roll happened; the roller and every GM
    get the result privately. Nothing of the result enters the channel message."""
    result = roll_in(ctx)
    data = roll_data(result)
    name = await acting_name(ctx)
    detail = describe(ctx, result, name)
    own = ctx.private(ctx.user, ctx.t("core.roll.hidden_result", detail=detail), data)
    if ctx.incoming.is_private:
        return [own]
    announce = ctx.reply(ctx.t("core.roll.hidden_announce", name=name),
                         {"kind": "hidden_roll", "user": ctx.user})
    gm_text = ctx.t("core.roll.hidden_result_gm", name=name, detail=detail)
    return [announce, own, *ctx.to_gms(gm_text, data, exclude=ctx.user)]


_DIE = re.compile(r"^d?(\d{1,6})$", re.IGNORECASE)
# SealDice's `.set coc` / `.set dnd`: the habit of CoC (d100) and D&D (d20) tables.
_GAME_DIE = {"coc": 100, "dnd": 20}


@command("set")
async def set_default_die(ctx: Context) -> list[Outgoing]:
    """`.set 100` / `.set d100` / `.set coc` / `.set dnd`: the die `.r` rolls when no
    expression is given, and what `d` / `2d` / `d优势` roll."""
    if not ctx.args:
        return [ctx.reply(ctx.t("core.set.show", die=default_die(ctx)))]
    require_gm_if_any(ctx)
    word = ctx.args.strip().lower()
    match = _DIE.match(word)
    if word in _GAME_DIE:
        faces = _GAME_DIE[word]
    elif match is not None:
        faces = int(match.group(1))
    else:
        raise CommandError("core.error.set_usage")
    expression = f"d{faces}"
    dice.parse(expression, dice.DEFAULT_LIMITS)  # d0 or too many faces → RuleError
    ctx.channel.default_die = expression
    return [ctx.reply(ctx.t("core.set.done", die=expression))]
