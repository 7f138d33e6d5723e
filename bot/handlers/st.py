"""`.st`: set, change, show and delete stats on the active character's sheet.

`.st 敏捷60力量50`, `.st 觀察 5 靈巧 12`, `.st 觀察=5`: set; `.st hp-3`,
`.st 理智 +2`: change by a signed amount; `.st 觀察=-1`: set a negative value;
`.st 觀察` alone: show it.
Names are folded (traditional/simplified, system aliases) onto one stored name.
A user without a character gets one named after them on the first `.st`.
"""

from __future__ import annotations

import re
from typing import Literal, overload

from bot.context import Context
from bot.errors import CommandError
from bot.handlers.pc import create_character
from bot.kits.references import mention, require_may_read
from bot.messages import Outgoing
from bot.names import canonical, glue_spaced_names
from bot.router import command
from bot.systems import guarded
from bot.unit_of_work import Sheet

MAX_STATS = 200
MAX_STAT_NAME = 20
MAX_VALUE = 1_000_000

_LONE_NAME = re.compile(r"[^\s\d+\-=]+")
"""`.st 生命`: one stat name alone, shown (not a syntax error)."""
_PAIR = re.compile(
    r"\s*(?P<name>[^\s\d+\-=]+?)\s*"
    r"(?:=\s*(?P<set>-?\d+)|(?P<op>[+-])\s*(?P<delta>\d+)|:?\s*(?P<value>\d+))"
)


def looks_like_a_name(name: str, glued: bool) -> bool:
    """A stat name has a letter in it; a lone Latin letter glued to a number is a typo'd
    number (`1e5`), not a stat called `e`. (`.st 觀察 5.5` → `.` is no name either.)"""
    if not any(ch.isalpha() for ch in name):
        return False
    return not (glued and len(name) == 1 and name.isascii())


def parse_pairs(text: str) -> list[tuple[str, str, int]]:
    """`name value` pairs as (name, "set"|"add", number); refuses leftovers."""
    pairs: list[tuple[str, str, int]] = []
    position = 0
    while position < len(text):
        if text[position:].strip() == "":
            break
        match = _PAIR.match(text, position)
        if match is None:
            raise CommandError("core.error.st_syntax", text=text[position:].strip()[:30])
        name = match["name"].rstrip(":")
        if not name or len(name) > MAX_STAT_NAME:
            raise CommandError("core.error.st_name", limit=MAX_STAT_NAME)
        if not looks_like_a_name(name, glued=position > 0 and text[position - 1].isdigit()):
            raise CommandError("core.error.st_syntax", text=text[position:].strip()[:30])
        if match["delta"] is not None:
            sign = -1 if match["op"] == "-" else 1
            pairs.append((name, "add", sign * int(match["delta"])))
        else:
            pairs.append((name, "set", int(match["set"] or match["value"])))
        if abs(pairs[-1][2]) > MAX_VALUE:
            raise CommandError("core.error.st_value", limit=MAX_VALUE)
        position = match.end()
    return pairs


@overload
async def sheet(ctx: Context, create: Literal[True]) -> Sheet: ...


@overload
async def sheet(ctx: Context, create: Literal[False]) -> Sheet | None: ...


async def sheet(ctx: Context, create: bool) -> Sheet | None:
    """The active character; a player with no character at all gets one named after
    them, but one whose characters are all inactive is asked to pick (`.pc switch`)."""
    character = await ctx.uow.active_sheet(ctx.user)
    if character is None and create:
        if await ctx.uow.sheets(ctx.user):
            raise CommandError("core.error.pc_none_active")
        character = await create_character(ctx, ctx.name[:50])
    return character


GROUPS = ("attribute", "skill", "resource", "other")
"""The order `.st show` lists a sheet in: what the system declares as attributes,
skills and resources, then everything else."""


def change(name: str, old: int | None, new: int) -> str:
    """``生命:25→20`` (``生命:40`` for a new entry). An English reader reads a declared
    stat by its name in the table's system (the catalog's ``text_at``: 精神力 is ap20's
    MP but ace's SPI)."""
    return f"{name}:{old}→{new}" if old is not None else f"{name}:{new}"


def grouped(ctx: Context, stats: dict[str, int]) -> str:
    """``屬性 力量:2 靈巧:3｜技能 觀察:5``: one line, grouped by the system's kinds;
    a sheet of one kind only needs no labels."""
    groups: dict[str, list[str]] = {}
    for name, value in stats.items():
        declared = ctx.system.stat(name)
        groups.setdefault(declared.kind if declared else "other", []).append(
            f"{name}:{value}")
    if len(groups) <= 1:
        return " ".join(next(iter(groups.values()), [])) or ctx.t("core.st.empty")
    return ctx.t("core.st.group_sep").join(
        ctx.t(f"core.st.group_{kind}", stats=" ".join(groups[kind]))
        for kind in GROUPS if kind in groups)


def show(ctx: Context, character: Sheet, only: str | None = None) -> Outgoing:
    stats = dict(character.stats)
    if only is not None:
        name = canonical(only, ctx.system, stats)
        if name not in stats:
            raise CommandError("core.error.st_missing", name=only, pc=character.name)
        stats = {name: stats[name]}
    return ctx.reply(ctx.t("core.st.show", pc=character.name, stats=grouped(ctx, stats)),
                     {"kind": "sheet", "character": character.name, "stats": stats})


async def whose(ctx: Context, rest: str) -> tuple[Sheet | None, str]:
    """`.st show @bob [觀察]`: bob's active sheet (for the GM or bob; in a channel without
    GMs, for anyone) and what is left; otherwise the speaker's."""
    first, _, more = rest.strip().partition(" ")
    owner = mention(first)
    if owner is None:
        return await sheet(ctx, create=False), rest.strip()
    require_may_read(ctx, owner)
    character = await ctx.uow.active_sheet(owner)
    if character is None:
        raise CommandError("core.error.no_character", who=first)
    return character, more.strip()


@command("st", "數值", "数值", "屬性", "属性")
async def st(ctx: Context) -> list[Outgoing]:
    verb, _, rest = ctx.args.partition(" ")
    if verb.casefold() in ("", "show", "list"):
        character, only = await whose(ctx, rest)
        if character is None:
            raise CommandError("core.error.pc_no_active")
        return [show(ctx, character, only or None)]
    if verb.casefold() in ("del", "rm"):
        character = await sheet(ctx, create=False)
        if character is None:
            raise CommandError("core.error.pc_no_active")
        stats = dict(character.stats)
        removed = []
        for spelling in rest.split():
            name = canonical(spelling, ctx.system, stats)
            if stats.pop(name, None) is None:
                raise CommandError("core.error.st_missing", name=spelling, pc=character.name)
            removed.append(name)
        if not removed:
            raise CommandError("core.error.st_usage")
        character.stats = stats
        return [ctx.reply(ctx.t("core.st.deleted", pc=character.name,
                                names=removed))]
    args = glue_spaced_names(ctx.args, ctx.system)  # `.st Spot Hidden 60`
    if _LONE_NAME.fullmatch(args.strip()):  # `.st 生命`: that stat, not a syntax error
        character = await sheet(ctx, create=False)
        if character is None:
            raise CommandError("core.error.pc_no_active")
        return [show(ctx, character, args.strip())]
    pairs = parse_pairs(args)
    character = await sheet(ctx, create=True)
    stats = dict(character.stats)
    changes: list[str] = []
    events: list[str] = []
    for spelling, how, number in pairs:
        name = canonical(spelling, ctx.system, stats)
        old = stats.get(name)
        if how == "add":
            if old is None:
                raise CommandError("core.error.st_missing", name=spelling, pc=character.name)
            new = old + number
        else:
            new = number
        stored = dict(character.stats)
        taken = await guarded(ctx, character, name, old, new)
        if taken is not None:  # a rule event (e.g. a fatal loss) instead of a plain write
            events.extend(taken)
            for key, value in character.stats.items():  # what the system wrote (a cap,
                if stored.get(key) != value:  # the HP a new 體質 gives): kept, and listed
                    if not taken:  # as typed changes when the system says nothing else
                        changes.append(change(key, stats.get(key), value))
                    stats[key] = value
            continue
        stats[name] = new
        changes.append(change(name, old, new))
    if len(stats) > MAX_STATS:
        raise CommandError("core.error.st_too_many", limit=MAX_STATS)
    character.stats = stats
    lines = [ctx.t("core.st.set", pc=character.name, changes=" ".join(changes))] if changes else []
    return [ctx.reply("\n".join(lines + events),
                      {"kind": "sheet", "character": character.name, "stats": stats})]

