"""d20 checks: `.ra` (an attribute check, AP-8 tier), `.save` (AP-5), `.dc` (AP-5) and
`.def` (AP-2 defence level) — each with AP-6 advantage layers where a d20 is rolled."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bot.context import Context
from bot.errors import CommandError
from bot.kits.args import is_word, key_value
from bot.kits.encounter import for_gms
from bot.kits.references import active_sheet, require_may_read
from bot.messages import Outgoing
from bot.systems.ap20.args import ECHO, layer
from bot.systems.ap20.state import (
    actor,
    attribute,
    find,
    load,
    numbers,
    numbers_hidden,
    own_fighter,
    require_able,
)
from bot.systems.ap20.table import command
from bot.systems.ap20.text import comparison, label, signed
from rules.kits.advantage import DEFENSE_PARTS, Layer
from rules.systems import ap20
from rules.systems.ap20 import Check, Fighter

_NUMBER = re.compile(r"^(?:>=|≥|dc=?)?(\d{1,6})$", re.IGNORECASE)
MAX_DC = 1000
"""The highest DC a check takes (a larger number is refused, naming this limit)."""
_MOD = re.compile(r"^[+-]\d{1,3}$")


@dataclass
class CheckArgs:
    stat: str | None = None
    modifier: int | None = None
    dc: int | None = None
    mods: int = 0
    layers: list[Layer] = field(default_factory=list)
    by: str | None = None


def parse_check(ctx: Context, text: str, usage: str) -> CheckArgs:
    args = CheckArgs()
    for token in text.split():
        pair = key_value(token)
        declared = ap20.SYSTEM.stat(token)
        if pair is not None and is_word(pair[0], "by", "由"):
            args.by = pair[1]
        elif args.stat is None and declared is not None and declared.name in ap20.ATTRIBUTES:
            if args.dc is not None:  # `.ra 2 敏捷`: a number before the stat is no DC
                raise CommandError(usage)
            args.stat = declared.name
        elif _MOD.match(token):
            args.mods += int(token)
        elif (found := layer(token)) is not None:
            args.layers.append(found)
        elif (match := _NUMBER.match(token)) and args.dc is None:
            args.dc = int(match.group(1))
            if args.dc > MAX_DC:
                raise CommandError("ap20.error.dc_too_big", dc=args.dc, limit=MAX_DC)
        else:
            raise CommandError("ap20.error.check_word", word=token[:ECHO],
                               attributes=list(ap20.ATTRIBUTES), usage=ctx.t(usage))
    return args


async def subject(ctx: Context, by: str | None, read: bool = False
                  ) -> tuple[str, dict[str, int], Fighter | None]:
    """Who rolls: a fighter named with ``by=`` (own, or a GM's), the speaker's fighter,
    for a speaker without a character (a GM) in a fight the GM-run fighter whose turn
    it is, else the speaker's active character. With ``read`` (`.dc`, which
    rolls nothing) naming a fighter is reading its numbers, not acting for it
    (``require_may_read``): anyone's in a channel without GMs."""
    combat = await load(ctx)
    if by is not None:
        if combat is None:
            raise CommandError("ap20.error.no_fight")
        if read:
            fighter = find(combat, by)
            require_may_read(ctx, fighter.owner)
        else:
            fighter = await actor(ctx, combat, by)
        return fighter.name, await numbers(ctx, fighter), fighter
    if combat is not None:
        mine = await own_fighter(ctx, combat)
        if mine is None and not read and await ctx.uow.active_sheet(ctx.user) is None:
            mine = await actor(ctx, combat, None)  # a GM: the GM-run fighter whose turn it is
        if mine is not None:
            return mine.name, await numbers(ctx, mine), mine
    character = await active_sheet(ctx)
    sheet = Fighter(character.name, character_id=character.id)
    return character.name, await numbers(ctx, sheet), None


def roll_text(ctx: Context, result: Check) -> str:
    if len(result.rolls) == 1:
        return ctx.t("ap20.roll.one", raw=result.raw)
    key = "ap20.roll.high" if result.advantage > result.disadvantage else "ap20.roll.low"
    return ctx.t(key, a=result.rolls[0], b=result.rolls[1], raw=result.raw)


def check_text(ctx: Context, key: str, who: str, stat: str | None, result: Check,
               *, hidden: bool = False) -> str:
    """A check as read; ``hidden`` (a fighter whose numbers are the GMs') keeps the die,
    the DC and the outcome, not the modifier, tier and total that tell its numbers."""
    parts = [roll_text(ctx, result)]
    if stat is not None and not hidden:
        parts.append(ctx.t("ap20.check.stat", stat=stat, value=signed(result.modifier)))
    if result.tier_bonus and not hidden:
        parts.append(ctx.t("ap20.check.tier", value=signed(result.tier_bonus)))
    if result.mods and not hidden:
        parts.append(signed(result.mods))
    counts = [ctx.t(key, n=n) for key, n in (("ap20.attack.adv", result.advantage),
                                             ("ap20.attack.dis", result.disadvantage)) if n]
    if counts:
        parts.append(ctx.t("ap20.check.layers", layers="·".join(counts)))
    if result.dc is None:
        outcome = ""
    else:
        word = ctx.t("ap20.check.success" if result.success else "ap20.check.failure")
        outcome = ctx.t("ap20.check.outcome_hidden", dc=result.dc, result=word) if hidden \
            else ctx.t("ap20.check.outcome", dc=result.dc, result=word,
                       cmp=comparison(bool(result.success), result.total, result.dc))
        if result.auto:
            outcome += ctx.t(f"ap20.check.{result.auto}")
    return ctx.t(f"{key}_hidden" if hidden else key, who=who,
                 stat=stat or ctx.t("ap20.check.unnamed"), body=" ".join(parts),
                 total=result.total, outcome=outcome)


def told(ctx: Context, fighter: Fighter | None, key: str, who: str, stat: str | None,
         result: Check, kind: str) -> list[Outgoing]:
    """A check's reply: in the channel — unless it is by a fighter whose numbers are
    the GMs' (issue 24), whose die and outcome the channel reads, its numbers the GMs."""
    text, data = check_text(ctx, key, who, stat, result), check_data(kind, who, stat, result)
    if fighter is None or not numbers_hidden(ctx, fighter):
        return [ctx.reply(text, data)]
    public = {k: data[k] for k in ("kind", "who", "stat", "rolls", "raw", "dc", "success",
                                   "auto", "critical_taken", "advantage", "disadvantage")}
    return for_gms(ctx, check_text(ctx, key, who, stat, result, hidden=True), public,
                   text, data)


def check_data(kind: str, who: str, stat: str | None, result: Check) -> dict[str, Any]:
    return {"kind": kind, "who": who, "stat": stat, "rolls": list(result.rolls),
            "raw": result.raw, "modifier": result.modifier, "tier_bonus": result.tier_bonus,
            "mods": result.mods, "total": result.total, "dc": result.dc,
            "success": result.success, "auto": result.auto,
            "critical_taken": result.critical_taken,
            "advantage": result.advantage, "disadvantage": result.disadvantage}


def modifier_of(values: dict[str, int], stat: str | None, who: str) -> int:
    if stat is None:
        return 0
    score = attribute(values, stat)
    if score is None:
        raise CommandError("ap20.error.no_stat", name=who, stat=stat)
    return ap20.modifier(score)


def tier_of(fighter: Fighter | None, values: dict[str, int]) -> int:
    return fighter.tier if fighter is not None else max(1, values.get("tier", 1))


@command("ra", "check", "檢定", "检定")
async def ra(ctx: Context) -> list[Outgoing]:
    """An attribute check: d20 + modifier (+ tier, AP-8) [+ mods] [against a DC]."""
    args = parse_check(ctx, ctx.args, "ap20.error.ra_usage")
    who, values, fighter = await subject(ctx, args.by)
    if fighter is not None:
        await require_able(ctx, fighter)
    result = ap20.check(ctx.dice, modifier=modifier_of(values, args.stat, who), mods=args.mods,
                        tier=tier_of(fighter, values), dc=args.dc, layers=args.layers)
    return told(ctx, fighter, "ap20.check.line", who, args.stat, result, "ap20.check")


@command("save", "豁免")
async def save(ctx: Context) -> list[Outgoing]:
    """AP-5: d20 + the attribute's modifier (+ tier) + mods ≥ DC; raw 1 fails and takes
    a critical, raw 20 succeeds."""
    args = parse_check(ctx, ctx.args, "ap20.error.save_usage")
    if args.stat is None or args.dc is None:
        raise CommandError("ap20.error.save_usage")
    who, values, fighter = await subject(ctx, args.by)
    if fighter is not None:
        await require_able(ctx, fighter)
    result = ap20.saving_throw(ctx.dice, modifier=modifier_of(values, args.stat, who),
                               dc=args.dc, mods=args.mods, tier=tier_of(fighter, values),
                               layers=args.layers)
    return told(ctx, fighter, "ap20.check.save", who, args.stat, result, "ap20.save")


@command("dc", "難度", "难度")
async def dc(ctx: Context) -> list[Outgoing]:
    """AP-5: a spell's or maneuver's DC = 10 + the attribute's modifier + mods."""
    args = parse_check(ctx, ctx.args, "ap20.error.dc_usage")
    if args.stat is None or args.dc is not None or args.layers:
        raise CommandError("ap20.error.dc_usage")
    who, values, _ = await subject(ctx, args.by, read=True)
    mod = modifier_of(values, args.stat, who)
    value = ap20.save_dc(mod, args.mods)
    return [ctx.reply(ctx.t("ap20.check.dc", who=who, stat=args.stat, mod=signed(mod),
                            mods=signed(args.mods) if args.mods else "", dc=value),
                      {"kind": "ap20.dc", "who": who, "stat": args.stat, "modifier": mod,
                       "mods": args.mods, "dc": value})]


@command("def", "defense", "防禦", "防御")
async def def_(ctx: Context) -> list[Outgoing]:
    """AP-2: a fighter's defence level now — its four parts, and armor only at 0 AP or
    incapacitated."""
    named = ctx.args.strip() or None
    combat = await load(ctx)
    if combat is None:
        who, values, fighter = await subject(ctx, None)
        ap, down = None, False
    else:
        fighter = find(combat, named) if named else await actor(ctx, combat, None)
        who, values = fighter.name, await numbers(ctx, fighter)
        hp = values.get("hp")
        ap, down = fighter.ap, fighter.has("incapacitated") or (hp is not None and hp <= 0)
    result = ap20.defense_level({p: values.get(p, 0) for p in DEFENSE_PARTS}, ap=ap,
                                incapacitated=down)
    parts = "+".join(ctx.t("ap20.defense.part", part=label(ctx, "part", p), value=v)
                     for p, v in result.counted.items())
    note = ctx.t("ap20.attack.armor_only", reason=label(ctx, "armor_only", result.armor_only)) \
        if result.armor_only else ""
    text = ctx.t("ap20.defense.line", who=who, total=result.total, parts=parts, note=note)
    data = {"kind": "ap20.defense", "who": who, "total": result.total,
            "parts": result.parts, "clamped": result.clamped,
            "counted": result.counted, "armor_only": result.armor_only}
    if fighter is None or not numbers_hidden(ctx, fighter):
        return [ctx.reply(text, data)]
    public = ctx.t("ap20.defense.hidden", who=who)
    if not ctx.is_gm:
        return [ctx.reply(public, {"kind": "ap20.defense", "who": who})]
    return for_gms(ctx, public, {"kind": "ap20.defense", "who": who}, text, data)
