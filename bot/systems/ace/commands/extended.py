"""`ace` extended actions (AE-4): `.ext`, several at once, by name, kept in the channel
state (they survive a restart).

- `.ext new 修車 dc5 [期限3] [過失]` starts one (DC, a deadline in periods, the
  mishap rule);
- `.ext 修車 機械+1 [專業]` rolls one period with the speaker's sheet (or `.ext 修車 4`,
  a bare pool) and adds its successes (and, with the mishap rule, its 1s);
- `.ext` lists them, `.ext restart 修車` starts over, `.ext drop 修車` removes one
  (the one who started it, or a GM — in a channel without GMs too: another player's
  extended action is not anyone's to wipe, issue 22).
"""

from __future__ import annotations

import re
from dataclasses import asdict

from bot.context import Context
from bot.errors import CommandError
from bot.kits.args import is_word
from bot.kits.references import may_act_for
from bot.messages import Outgoing
from bot.names import fold
from bot.systems.ace.args import check_name, dc_of, echo, join_spaced, option
from bot.systems.ace.commands.checks import parse_check, roll_for
from bot.systems.ace.documents import EXTENDED, Started
from bot.systems.ace.table import command
from bot.systems.ace.text import data, dp_label, joined, pool_text, readable
from bot.systems.ace.words import any_of
from rules.systems.ace import extended, pool

MAX_ACTIONS = 20
NEW = ("new", "start", "add", "開始", "开始", "新增", "建立")
RESTART = ("restart", "reset", "重來", "重来", "重新開始", "重新开始")
DROP = ("drop", "end", "del", "rm", "刪除", "删除", "結束", "结束", "放棄", "放弃")
LIST = ("list", "ls", "show", "列表")
MISHAP = ("過失", "过失", "mishap")
DEADLINE = ("期限", "deadline", "limit")


def find(actions: dict[str, Started], ref: str) -> str:
    name = ref.strip()
    if name in actions:
        return name
    found = next((k for k in actions if fold(k) == fold(name)), None)
    if found is None:
        raise CommandError("ace.error.ext_unknown", name=echo(ref),
                           known=list(actions) or "-")
    return found


def progress(ctx: Context, action: extended.Extended, *, status: bool = True) -> str:
    """``成功3/5`` with the 1s, the deadline and the status when they matter."""
    parts = [ctx.t("ace.ext.successes", successes=action.successes, dc=action.dc)]
    if action.mishap:
        parts.append(ctx.t("ace.ext.ones", ones=action.ones, dc=action.dc))
    if action.deadline is not None and action.open:
        parts.append(ctx.t("ace.ext.left", left=action.left))
    if not action.open and status:
        parts.append(ctx.t(f"ace.extended.status.{action.status}"))
    return " ".join(parts)


def summary(ctx: Context, name: str, action: extended.Extended) -> str:
    return ctx.t("ace.ext.item", name=name, progress=progress(ctx, action))


@command("ext", "延長", "延长", "延長動作", "延长动作")
@readable
async def ext(ctx: Context) -> list[Outgoing]:
    tokens = ctx.args.split()
    if not tokens or (len(tokens) == 1 and is_word(tokens[0], *LIST)):
        return await show(ctx)
    verb, rest = tokens[0], tokens[1:]
    if is_word(verb, *NEW):
        return await new(ctx, " ".join(rest))
    if is_word(verb, *RESTART):
        return await restart(ctx, rest)
    if is_word(verb, *DROP):
        return await drop(ctx, rest)
    return await roll(ctx, verb, " ".join(rest))


async def show(ctx: Context) -> list[Outgoing]:
    actions = (await ctx.uow.load(EXTENDED)).actions
    if not actions:
        return [ctx.reply(ctx.t("ace.ext.none"), data("extended", actions={}))]
    items = [summary(ctx, name, action) for name, action in actions.items()]
    return [ctx.reply(ctx.t("ace.ext.list", items=joined(ctx, items)),
                      data("extended", actions=actions))]


def parse_new(text: str) -> tuple[str, int, int | None, bool]:
    """``修車 dc5 期限3 過失`` → (name, DC, deadline, mishap)."""
    tokens = join_spaced(text).split()
    if not tokens:
        raise CommandError("ace.error.ext_usage")
    name = check_name(tokens[0], "ace.error.ext_usage")
    dc = deadline = None
    mishap = False
    for token in tokens[1:]:
        found = dc_of(token)
        parsed = option(token)
        if found is not None and dc is None:
            dc = found
        elif any_of(token, MISHAP):
            mishap = True
        elif parsed is not None and parsed[1] == "set" and is_word(parsed[0], *DEADLINE) \
                and deadline is None:
            deadline = parsed[2]
        elif re.fullmatch(r"\d{1,4}", token) and dc is None:
            dc = int(token)
        else:
            raise CommandError("ace.error.ext_usage")
    if dc is None or dc_of(name) is not None:
        raise CommandError("ace.error.ext_usage")
    return name, dc, deadline, mishap


async def new(ctx: Context, text: str) -> list[Outgoing]:
    """AE-4: a new extended action (DC, deadline, mishap)."""
    name, dc, deadline, mishap = parse_new(text)
    stored = await ctx.uow.load(EXTENDED)
    actions = stored.actions
    if any(fold(k) == fold(name) for k in actions):
        raise CommandError("ace.error.ext_exists", name=name)
    if len(actions) >= MAX_ACTIONS:
        raise CommandError("ace.error.ext_too_many", limit=MAX_ACTIONS)
    action = extended.start(name, dc, deadline=deadline, mishap=mishap)
    actions[name] = Started(**asdict(action), by=ctx.user)
    ctx.uow.save(EXTENDED, stored)
    options = []
    if deadline is not None:
        options.append(ctx.t("ace.ext.deadline", deadline=deadline))
    if mishap:
        options.append(ctx.t("ace.ext.mishap_on"))
    return [ctx.reply(ctx.t("ace.ext.started", name=name, dc=dc,
                            options="".join(ctx.t("ace.bar") + o for o in options)),
                      data("extended", action=action))]


async def roll(ctx: Context, ref: str, text: str) -> list[Outgoing]:
    """AE-4: one period rolled with the speaker's sheet."""
    stored = await ctx.uow.load(EXTENDED)
    name = find(stored.actions, ref)
    action = stored.actions[name]
    extended.check_open(action)  # before any die
    args = parse_check(text, "ace.error.ext_roll_usage")
    if args.dc != pool.DEFAULT_DC:
        raise CommandError("ace.error.ext_roll_usage")
    character = await ctx.uow.active_sheet(ctx.user)
    result = await roll_for(ctx, character, args)
    after, event = extended.advance(action, result.pool)
    stored.actions[name] = after
    ctx.uow.save(EXTENDED, stored)
    who = character.name if character is not None else ctx.name
    stat = result.stat if result.stat is not None else ctx.t("ace.check.pool")
    lines = [ctx.t("ace.ext.rolled", who=who, name=name, period=event.period, stat=stat,
                   pool=pool_text(ctx, result.pool, dp_label(result)),
                   progress=progress(ctx, after, status=False))]
    if event.status == "done":
        lines.append(ctx.t("ace.ext.done", name=name))
    elif event.status == "mishap":
        lines.append(ctx.t("ace.ext.mishap", name=name))
    elif event.status == "expired":
        lines.append(ctx.t("ace.ext.expired", name=name))
    elif event.at_risk:
        lines.append(ctx.t("ace.ext.at_risk"))
    return [ctx.reply(" ".join(lines), data("extended_roll", event=event, check=result,
                                            character=who, user=ctx.user))]


def _one(rest: list[str], usage: str) -> str:
    if len(rest) != 1:
        raise CommandError(usage)
    return rest[0]


def require_starter(ctx: Context, action: Started) -> None:
    """Restarting or dropping an extended action wipes its progress: its starter's or a
    GM's to do. One stored before starters were kept is everyone's where there is no GM."""
    if not may_act_for(ctx, action.by):
        raise CommandError("ace.error.ext_not_yours", name=action.name)


async def restart(ctx: Context, rest: list[str]) -> list[Outgoing]:
    """AE-4: start over (after a mishap, the seed's 「必须重新从头开始」)."""
    stored = await ctx.uow.load(EXTENDED)
    name = find(stored.actions, _one(rest, "ace.error.ext_usage"))
    require_starter(ctx, stored.actions[name])
    action = stored.actions[name] = extended.restart(stored.actions[name])
    ctx.uow.save(EXTENDED, stored)
    return [ctx.reply(ctx.t("ace.ext.restarted", name=name, progress=progress(ctx, action)),
                      data("extended", action=action.rules()))]


async def drop(ctx: Context, rest: list[str]) -> list[Outgoing]:
    stored = await ctx.uow.load(EXTENDED)
    name = find(stored.actions, _one(rest, "ace.error.ext_usage"))
    require_starter(ctx, stored.actions[name])
    action = stored.actions.pop(name)
    ctx.uow.save(EXTENDED, stored)
    return [ctx.reply(ctx.t("ace.ext.dropped", name=name, progress=progress(ctx, action)),
                      data("extended", dropped=name))]
