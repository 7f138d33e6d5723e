"""Checks (CO-1 … CO-4, CO-10): `.ra` / `.rc`, hidden `.rah`, the GM's `.secret`,
`.rb` / `.rp` (bonus / penalty dice) and `.rav` (opposed).

`.ra b2 困难侦查 60`: bonus dice, a difficulty, the skill, an inline value (which wins
over the sheet); a skill the sheet lacks is read at its base value (CO-9). The house
rule is the table's (`.setcoc`).
"""

from __future__ import annotations

from bot.context import Context
from bot.errors import CommandError
from bot.kits import hidden
from bot.kits.args import is_word
from bot.kits.references import active_sheet, find_character, investigator, mention
from bot.messages import Outgoing
from bot.permissions import require_gm
from bot.router import command
from bot.systems.coc7.args import CheckArgs, parse_check, precheck_check
from bot.systems.coc7.documents import OPTIONS
from bot.systems.coc7.sheet import skill_value, stat_name
from bot.systems.coc7.text import check_data, check_text, dice_text, extra_text, roll_data
from bot.unit_of_work import Sheet
from rules.dice.percentile import roll_percentile
from rules.systems import coc7
from rules.systems.coc7 import Check

SILENT = ("silent", "靜默", "静默", "無聲", "无声")


async def house_rule(ctx: Context) -> coc7.HouseRule:
    return coc7.house_rule((await ctx.uow.load(OPTIONS)).house_rule)


async def roll_check(ctx: Context, character: Sheet | None, args: CheckArgs
                     ) -> tuple[str | None, Check]:
    """(the stat's stored name, the check) for ``character`` (None: no sheet)."""
    stat = stat_name(args.stat, character) if args.stat is not None else None
    who = character.name if character is not None else ctx.name
    target = skill_value(character, stat, args.value, who) if stat is not None \
        else args.value
    assert target is not None  # parse_check: a stat or a value
    result = coc7.check(ctx.dice, max(0, target + args.modifier), bonus=args.bonus,
                        difficulty=args.difficulty, rule=await house_rule(ctx))
    return stat, result


async def speaker_check(ctx: Context, args: CheckArgs, *, hidden_result: bool
                        ) -> list[Outgoing]:
    character = await ctx.uow.active_sheet(ctx.user)
    who = character.name if character is not None else ctx.name
    stat, result = await roll_check(ctx, character, args)
    text = check_text(ctx, who, stat, result)
    data = check_data(who, ctx.user, stat, result)
    return hidden.deliver(ctx, ctx.user, who, text, data, hidden=hidden_result,
                          kind="coc7.hidden_check")


@command("ra", "rc", "檢定", "检定", precheck=precheck_check)
async def ra(ctx: Context) -> list[Outgoing]:
    """CO-1 … CO-4: `.ra [b|p][N] [困难|极难]技能 [值]`."""
    return await speaker_check(ctx, parse_check(ctx.args), hidden_result=False)


@command("rah", "rch", "暗檢", "暗检", precheck=precheck_check, hidden=True)
async def rah(ctx: Context) -> list[Outgoing]:
    """A hidden check: the channel reads that it happened; the roller and every GM
    read the result privately."""
    return await speaker_check(ctx, parse_check(ctx.args), hidden_result=True)


def extra_dice_line(text: str, sign: int) -> CheckArgs:
    """`.rb2 侦查` / `.rp 侦查 60` / `.rb`: the count glued to the command, then a check
    line (neither skill nor value: a bare roll)."""
    head, _, rest = text.strip().partition(" ")
    count = 1
    if head.isdigit() and len(head) <= 2:
        count, text = int(head), rest
    elif head[:1].isdigit():  # `.rb2侦查`
        digits = len(head) - len(head.lstrip("0123456789"))
        if digits > 2:
            raise CommandError("coc7.error.rb_usage")
        count, text = int(head[:digits]), head[digits:] + " " + rest
    prefix = ("b" if sign > 0 else "p") + str(count)
    if not text.strip():
        parse_check(prefix + " 1", "coc7.error.rb_usage")  # the count's limit, no die
        return CheckArgs(bonus=sign * count)
    return parse_check(f"{prefix} {text}", "coc7.error.rb_usage")


def precheck_extra(text: str) -> None:
    extra_dice_line(text, 1)


async def extra_dice(ctx: Context, sign: int) -> list[Outgoing]:
    args = extra_dice_line(ctx.args, sign)
    if args.stat is not None or args.value is not None:
        return await speaker_check(ctx, args, hidden_result=False)
    character = await ctx.uow.active_sheet(ctx.user)
    who = character.name if character is not None else ctx.name
    rolled = roll_percentile(ctx.dice, args.bonus)
    return [ctx.reply(ctx.t("coc7.check.roll", who=who, dice=dice_text(ctx, rolled, None)
                            + extra_text(ctx, rolled)),
                      {"kind": "coc7.roll", "who": who, "user": ctx.user,
                       **roll_data(rolled)})]


@command("rb", "獎勵骰", "奖励骰", precheck=precheck_extra)
async def rb(ctx: Context) -> list[Outgoing]:
    """CO-4: `.rb[N] [技能 [值]]` — a check (or a bare d100) with N bonus dice."""
    return await extra_dice(ctx, 1)


@command("rp", "懲罰骰", "惩罚骰", precheck=precheck_extra)
async def rp(ctx: Context) -> list[Outgoing]:
    """CO-4: `.rp[N] [技能 [值]]` — a check (or a bare d100) with N penalty dice."""
    return await extra_dice(ctx, -1)


@command("secret", "秘密檢定", "秘密检定", hidden=True)
async def secret(ctx: Context) -> list[Outgoing]:
    """The keeper's secret check for an investigator (a Spot Hidden the player must not
    know they failed): only the GMs read the result; with ``silent`` the channel is not
    even told."""
    require_gm(ctx)
    words = ctx.args.split()
    kept = [w for w in words if not is_word(w, *SILENT)]
    silent = len(kept) != len(words)
    if len(kept) < 2:
        raise CommandError("coc7.error.secret_usage")
    character = await investigator(ctx, kept[0])
    args = parse_check(" ".join(kept[1:]), "coc7.error.secret_usage")
    stat, result = await roll_check(ctx, character, args)
    shown = stat if stat is not None else ctx.t("coc7.check.unnamed")
    announce = ctx.reply(ctx.t("coc7.secret.announce", who=character.name, stat=shown),
                         {"kind": "coc7.secret", "who": character.name, "stat": stat})
    text = ctx.t("coc7.secret.result", text=check_text(ctx, character.name, stat, result))
    data = check_data(character.name, character.owner, stat, result, secret=True)
    return [*([] if silent else [announce]), *ctx.to_gms(text, data)]


async def opponent(ctx: Context, words: list[str]) -> tuple[Sheet, list[str]]:
    """The opposing investigator (``@bob`` or a character's name, the last word) and
    what is left of the line."""
    if len(words) < 2:
        raise CommandError("coc7.error.rav_usage")
    ref = words[-1]
    found = await find_character(ctx, ref)
    if found is None:
        if mention(ref) is not None:
            raise CommandError("core.error.no_character", who=ref)
        raise CommandError("coc7.error.rav_usage")
    return found, words[:-1]


@command("rav", "對抗", "对抗")
async def rav(ctx: Context) -> list[Outgoing]:
    """CO-10: `.rav 力量 [对手技能] @bob` — both roll, the better level wins, a tie the
    higher skill; both failing, nobody."""
    mine = await active_sheet(ctx)
    other, words = await opponent(ctx, ctx.args.split())
    if other.id == mine.id:
        raise CommandError("coc7.error.rav_self")
    own_stat = stat_name(words[0], mine)
    other_stat = stat_name(words[1], other) if len(words) > 1 else stat_name(words[0], other)
    if len(words) > 2:
        raise CommandError("coc7.error.rav_usage")
    a_skill = skill_value(mine, own_stat, None)
    b_skill = skill_value(other, other_stat, None)
    result = coc7.opposed(ctx.dice, a_skill, b_skill, rule=await house_rule(ctx))
    sides = [(mine, own_stat, result.a), (other, other_stat, result.b)]
    lines = [check_text(ctx, who.name, stat, check) for who, stat, check in sides]
    winner = {"a": mine.name, "b": other.name}.get(result.winner or "")
    verdict = ctx.t(f"coc7.opposed.{result.decided_by}", who=winner or "")
    data = {"kind": "coc7.opposed", "winner": winner, "decided_by": result.decided_by,
            "a": check_data(mine.name, mine.owner, own_stat, result.a),
            "b": check_data(other.name, other.owner, other_stat, result.b)}
    return [ctx.reply(ctx.t("coc7.opposed.line", a=lines[0], b=lines[1], verdict=verdict),
                      data)]
