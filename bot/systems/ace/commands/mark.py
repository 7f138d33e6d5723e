"""`ace` nightmare mark (AE-14): `.mark`, `.store`, `.take` — each character's
inventory slots and kill count, kept with the sheet (it moves with `.campaign bind`).

- `.mark [名字|@玩家]` shows a mark (its player's or a GM's to see);
- `.mark level 2 [名字]`, `.mark kills +1 [名字]` (GM; in a channel without GMs a
  player changes only their own character's mark);
- `.store 恢復食物 3 每格=10` / `.store 太刀 佔格=2` — a standard action;
- `.take 恢復食物 [5]` — a swift action to select plus a standard action.
"""

from __future__ import annotations

import re

from bot.context import Context
from bot.errors import CommandError
from bot.kits.args import is_word
from bot.kits.references import (
    active_sheet,
    investigator,
    require_may_read,
    require_owner_or_gm,
)
from bot.messages import Outgoing
from bot.names import fold
from bot.permissions import require_gm_if_any
from bot.systems.ace.args import check_name, join_spaced, number, option
from bot.systems.ace.documents import MARK
from bot.systems.ace.state import require_sheet_active
from bot.systems.ace.table import command
from bot.systems.ace.text import data, joined, readable
from rules.systems.ace import mark

LEVEL = ("level", "lv", "等級", "等级")
KILLS = ("kills", "kill", "殺戮", "杀戮", "殺戮值", "杀戮值")
PER = ("per", "每格", "stack")
SPAN = ("span", "佔格", "占格", "slots", "格數", "格数")
_COUNT = re.compile(r"^[x×*]?(\d{1,5})$", re.IGNORECASE)


def stored_name(m: mark.Mark, item: str) -> str:
    """The name an item is stored under, matched 繁/简- and case-folded (恢复食物 finds
    恢復食物); a new item keeps the name as typed."""
    return next((s.item for s in m.stacks if fold(s.item) == fold(item)), item)


def stack_text(ctx: Context, stack: mark.Stack) -> str:
    key = "ace.mark.stack_long" if stack.span > 1 else "ace.mark.stack"
    return ctx.t(key, item=stack.item, count=stack.count, slots=stack.slots)


def mark_text(ctx: Context, name: str, m: mark.Mark) -> str:
    items = joined(ctx, [stack_text(ctx, s) for s in m.stacks]) or ctx.t("ace.mark.empty")
    return ctx.t("ace.mark.show", name=name, level=m.level, used=m.used, capacity=m.capacity,
                 items=items, kills=m.kills)


def actions_text(ctx: Context, actions: tuple[str, ...]) -> str:
    return "+".join(ctx.t(f"ace.action.{a}") for a in actions)


@command("mark", "印記", "印记", "夢魘印記", "梦魇印记")
@readable
async def mark_command(ctx: Context) -> list[Outgoing]:
    tokens = ctx.args.split()
    verb = tokens[0] if tokens else ""
    if verb and is_word(verb, *LEVEL, *KILLS):
        require_gm_if_any(ctx)
        if len(tokens) not in (2, 3):
            raise CommandError("ace.error.mark_usage")
        character = await investigator(ctx, tokens[2]) if len(tokens) == 3 \
            else await active_sheet(ctx)
        require_owner_or_gm(ctx, character.owner)
        m = await ctx.uow.load(MARK, character)
        if is_word(verb, *LEVEL):
            m = mark.set_level(m, number(tokens[1], "ace.error.mark_usage"))
        else:
            m = mark.add_kills(m, number(tokens[1], "ace.error.mark_usage", signed=True))
        ctx.uow.save(MARK, m, character)
        return [ctx.reply(mark_text(ctx, character.name, m),
                          data("mark", character=character.name, mark=m))]
    if len(tokens) > 1:
        raise CommandError("ace.error.mark_usage")
    if tokens:
        character = await investigator(ctx, tokens[0])
        require_may_read(ctx, character.owner)  # showing a mark is reading, not acting
    else:
        character = await active_sheet(ctx)
    m = await ctx.uow.load(MARK, character)
    return [ctx.reply(mark_text(ctx, character.name, m),
                      data("mark", character=character.name, mark=m))]


def parse_item(text: str, usage: str) -> tuple[str, int, int | None, int | None]:
    """``恢復食物 3 每格=10`` → (item, count, per slot, slots per unit)."""
    tokens = join_spaced(text).split()
    words: list[str] = []
    count, per, span = None, None, None
    for token in tokens:
        parsed = option(token)
        found = _COUNT.match(token)
        if parsed is not None and parsed[1] == "set" and is_word(parsed[0], *PER):
            per = parsed[2]
        elif parsed is not None and parsed[1] == "set" and is_word(parsed[0], *SPAN):
            span = parsed[2]
        elif found is not None and words and count is None:
            count = int(found.group(1))
        else:
            words.append(token)
    if len(words) != 1:
        raise CommandError(usage)
    return check_name(words[0], usage), count or 1, per, span


@command("store", "存入", "收納", "收纳")
@readable
async def store(ctx: Context) -> list[Outgoing]:
    """AE-14: put items in the speaker's mark (a standard action)."""
    item, count, per, span = parse_item(ctx.args, "ace.error.store_usage")
    character = await active_sheet(ctx)
    await require_sheet_active(ctx, character)
    m = await ctx.uow.load(MARK, character)
    m, event = mark.store(m, stored_name(m, item), count, per_slot=per, span=span)
    ctx.uow.save(MARK, m, character)
    text = ctx.t("ace.mark.stored", name=character.name, item=event.item, moved=event.moved,
                 count=event.count, used=event.used, capacity=event.capacity,
                 actions=actions_text(ctx, event.actions))
    return [ctx.reply(text, data("mark_store", character=character.name, event=event,
                                 mark=m))]


@command("take", "取出")
@readable
async def take(ctx: Context) -> list[Outgoing]:
    """AE-14: take items out (a swift action to select, a standard action to take)."""
    item, count, per, span = parse_item(ctx.args, "ace.error.take_usage")
    if per is not None or span is not None:
        raise CommandError("ace.error.take_usage")
    character = await active_sheet(ctx)
    await require_sheet_active(ctx, character)
    m = await ctx.uow.load(MARK, character)
    m, event = mark.take(m, stored_name(m, item), count)
    ctx.uow.save(MARK, m, character)
    text = ctx.t("ace.mark.taken", name=character.name, item=event.item, moved=event.moved,
                 count=event.count, used=event.used, capacity=event.capacity,
                 actions=actions_text(ctx, event.actions))
    return [ctx.reply(text, data("mark_take", character=character.name, event=event,
                                 mark=m))]
