"""`ace` single actions (AE-2, AE-3): `.ra` (also `.ww`, the pool SealDice and Dice!
players type), `.rah` (hidden: the roller and the GMs read the result) and `.secret`
(the GM's: only the GMs read it).

`.ra 運動` rolls the sheet's 運動 level in d10s; `.ra 力量` lets the attribute stand
in — DP = ⌊(1d20 + 力量) / 10⌋ — unless the GM has switched that off (`.ace attr
off`); `.ra 4` rolls a bare pool. `+N` adds dice, `dcN` / `>=N` (or a number right
after the stat) sets the DC, `專業` adds the specialty's success, other words are the
reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial

from bot.context import Context
from bot.errors import CommandError
from bot.kits import hidden
from bot.kits.references import investigator
from bot.messages import Outgoing
from bot.permissions import require_gm
from bot.systems.ace.args import MAX_REASON, MAX_VALUE, dc_of, echo, join_spaced
from bot.systems.ace.documents import OPTIONS
from bot.systems.ace.sheet import sheet_key
from bot.systems.ace.state import require_sheet_active
from bot.systems.ace.table import command
from bot.systems.ace.text import check_line, data, readable
from bot.systems.ace.words import SPECIALTY, any_of
from bot.unit_of_work import Sheet
from rules.systems import ace
from rules.systems.ace import pool

_STAT_BONUS = re.compile(r"^(?P<stat>.*?[^\d+\-])(?P<bonus>(?:[+-]\d{1,4})+)$")
_BONUS = re.compile(r"^(?:[+-]\d{1,4})+$")
_NUMBER = re.compile(r"^\d{1,4}$")
_COMPARISON = frozenset("<>=≤≥≦≧")
_BARE_DC = re.compile(r"^(?:dc|>=|≥|≧|=>)$", re.IGNORECASE)
SILENT = ("silent", "靜默", "静默", "無聲", "无声")


@dataclass
class CheckArgs:
    stat: str | None = None
    bare: int | None = None
    bonus: int = 0
    dc: int = pool.DEFAULT_DC
    specialty: bool = False
    reason: str | None = None


def _sum(signed_numbers: str) -> int:
    return sum(int(n) for n in re.findall(r"[+-]\d+", signed_numbers))


def parse_check(text: str, usage: str = "ace.error.check_usage") -> CheckArgs:
    """``運動+1 dc2 專業 爬牆`` → stat 運動, 1 more die, DC 2, specialty, reason 爬牆."""
    args = CheckArgs()
    dc_given = False
    reason: list[str] = []
    tokens = join_spaced(text).split()
    for index, token in enumerate(tokens):
        dc = dc_of(token)
        if _BARE_DC.match(token):  # `.ra 運動 dc`: a DC without its number
            raise CommandError(usage)
        if dc is not None:
            if dc_given:
                raise CommandError(usage)
            args.dc, dc_given = dc, True
        elif any_of(token, SPECIALTY):
            args.specialty = True
        elif _BONUS.match(token):
            args.bonus += _sum(token)
        elif args.stat is None and args.bare is None and not reason:
            if _NUMBER.match(token):
                args.bare = int(token)
            elif token[:1] in _COMPARISON:
                raise CommandError("ace.error.syntax", text=echo(token))
            else:
                match = _STAT_BONUS.match(token)
                args.stat = match["stat"] if match else token
                args.bonus += _sum(match["bonus"]) if match else 0
        elif _NUMBER.match(token) and args.stat is not None and index == 1 and not dc_given:
            args.dc, dc_given = int(token), True  # `.ra 運動 2`: the DC, as CoC bots read it
        elif token[:1] in _COMPARISON:
            raise CommandError("ace.error.syntax", text=echo(token))
        elif _NUMBER.match(token):
            raise CommandError(usage)
        else:
            reason.append(token)
    if args.stat is None and args.bare is None:
        raise CommandError(usage)
    if args.dc > MAX_VALUE:
        raise CommandError("ace.error.dc_too_big", limit=MAX_VALUE)
    if abs(args.bonus) > pool.POOL_LIMITS.max_dice:
        raise CommandError("ace.error.dice_too_many", limit=pool.POOL_LIMITS.max_dice)
    if reason:
        args.reason = " ".join(reason)[:MAX_REASON]
    return args


def precheck(text: str) -> None:
    parse_check(text)


async def roll_for(ctx: Context, character: Sheet | None,
                   args: CheckArgs) -> pool.CheckResult:
    """AE-2/3 with the sheet's numbers (a bare pool needs no sheet)."""
    check = partial(pool.check, ctx.dice, bonus=args.bonus, specialty=args.specialty,
                    dc=args.dc)
    if character is not None:
        await require_sheet_active(ctx, character)
    if args.stat is None:
        first = (args.reason or "").split(" ")[0]
        if character is not None and first and sheet_key(dict(character.stats or {}),
                                                         first) is not None:
            raise CommandError("ace.error.check_usage")  # `.ra 2 運動`: the order swapped
        return check(args.bare or 0)
    if character is None:
        raise CommandError("core.error.pc_no_active")
    stats = dict(character.stats or {})
    key = sheet_key(stats, args.stat)
    attribute = ace.is_attribute(args.stat) or (key is not None and ace.is_attribute(key))
    if key is None or not isinstance(stats.get(key), int):
        usage = "ace.error.attribute_missing" if attribute else "ace.error.stat_missing"
        raise CommandError(usage, pc=character.name, name=echo(args.stat))
    if attribute:
        if not (await ctx.uow.load(OPTIONS)).attr and ctx.gm_users and not ctx.is_gm:
            raise CommandError("ace.error.attr_not_allowed", name=key)
        return check(stat=key, attribute=int(stats[key]))
    return check(int(stats[key]), stat=key)


async def speaker_check(ctx: Context, *, hidden_result: bool) -> list[Outgoing]:
    args = parse_check(ctx.args)
    character = await ctx.uow.active_sheet(ctx.user)
    result = await roll_for(ctx, character, args)
    who = character.name if character is not None else ctx.name
    text = check_line(ctx, who, result, args.reason)
    payload = data("check", result=result, character=who, user=ctx.user, reason=args.reason)
    return hidden.deliver(ctx, ctx.user, who, text, payload, hidden=hidden_result,
                          kind="ace.hidden_check")


@command("ra", "ww", "rc", "檢定", "检定", precheck=precheck)
@readable
async def ra(ctx: Context) -> list[Outgoing]:
    """AE-2/3: `.ra 運動+1 dc2 專業 爬牆`."""
    return await speaker_check(ctx, hidden_result=False)


@command("rah", "暗檢", "暗检", precheck=precheck, hidden=True)
@readable
async def rah(ctx: Context) -> list[Outgoing]:
    """AE-2/3 hidden: the channel reads that a check happened; the roller and every GM
    read the result privately."""
    return await speaker_check(ctx, hidden_result=True)


@command("secret", "秘密檢定", "秘密检定", hidden=True)
@readable
async def secret(ctx: Context) -> list[Outgoing]:
    """The GM's secret check for a character (a passive action the player must not see,
    the seed's 「由游戏主持人暗中进行判定」): only the GMs read the result; with
    ``靜默`` / ``silent`` the channel is not even told (AE-13's passive perception)."""
    require_gm(ctx)
    words = ctx.args.split()
    kept = [w for w in words if not any_of(w, SILENT)]
    silent = len(kept) != len(words)
    first, _, rest = " ".join(kept).partition(" ")
    if not first or not rest.strip():
        raise CommandError("ace.error.secret_usage")
    character = await investigator(ctx, first)
    args = parse_check(rest, "ace.error.secret_usage")
    result = await roll_for(ctx, character, args)
    stat = result.stat if result.stat is not None else ctx.t("ace.check.pool")
    announce = ctx.reply(ctx.t("ace.secret.announce", who=character.name, stat=stat),
                         data("secret", character=character.name, stat=result.stat))
    text = ctx.t("ace.secret.result", text=check_line(ctx, character.name, result,
                                                      args.reason))
    payload = data("check", result=result, character=character.name, user=character.owner,
                   reason=args.reason, secret=True)
    return [*([] if silent else [announce]), *ctx.to_gms(text, payload)]
