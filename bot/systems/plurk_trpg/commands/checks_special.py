"""`plurk` checks of their own kind: `.sc` `.op` `.secret` `.rm` `.rg` (PL-5 … PL-9).

Sanity (a SAN loss that may be a fatal event), opposed (two sides), secret (the
GM's, never stored), multiple (several stats on one die) and collective (several
investigators on one die). As in ``plurk_checks.py`` the handlers parse, look
numbers up and render; ``rules.systems.plurk_trpg`` decides.
"""

from __future__ import annotations

from dataclasses import asdict

from bot.context import Context
from bot.errors import CommandError
from bot.kits.args import is_word
from bot.kits.references import (
    active_sheet,
    find_character,
    investigator,
    mention,
    require_owner_or_gm,
    target_or_self,
)
from bot.messages import Outgoing
from bot.permissions import require_gm
from bot.systems.plurk_trpg.characters import resource_value, stat_modifier
from bot.systems.plurk_trpg.check_args import check_args, roll_for
from bot.systems.plurk_trpg.check_records import (
    needs_consent,
    refuse_without_consent,
    remember,
    require_replaceable,
)
from bot.systems.plurk_trpg.fatal import lose, refuse_if_pending
from bot.systems.plurk_trpg.rendering import (
    check_body,
    check_data,
    check_text,
    outcome_text,
    result_dict,
)
from bot.systems.plurk_trpg.system import SAN, require_plurk
from bot.systems.plurk_trpg.table import command
from bot.systems.plurk_trpg.terms import Term, attach_bonuses, parse_terms
from bot.unit_of_work import Sheet
from rules.errors import RuleError
from rules.systems import plurk_trpg as plurk

COMPOUND_WORDS = frozenset({"compound", "複合", "复合"})
MERGED_WORDS = frozenset({"merged", "merge", "合併", "合并"})
VS_WORDS = frozenset({"vs", "vs.", "對", "对"})
OPPOSED_MODES: dict[str, str] = {
    "general": "general", "一般": "general",
    "zerosum": "zero_sum", "zero-sum": "zero_sum", "zero_sum": "zero_sum", "zs": "zero_sum",
    "零和": "zero_sum",
    "oneway": "one_way", "one-way": "one_way", "one_way": "one_way", "ow": "one_way",
    "單向": "one_way", "单向": "one_way",
}


async def require_consent(ctx: Context, mode: str | None) -> None:
    """PL-10 「若局方允許」: a player's take 10 / take 20 in `.rm` / `.rg` needs the GM's
    standing consent (`.ra allow take10 on`); unlike `.ra` these are not queued."""
    if mode in ("take10", "take20") and await needs_consent(ctx, mode):
        refuse_without_consent(ctx, mode)


# --------------------------------------------------------------------------- sanity (PL-5)


@command("sc", "理智檢定", "理智检定")
async def sanity(ctx: Context) -> list[Outgoing]:
    """PL-5: `.sc 1/1d6 [investigator]`: 1d100 ≤ SAN, the loss goes onto the sheet —
    unless it would reach 0, which is a fatal event (PL-12) waiting for
    `.intervene` / `.accept`."""
    require_plurk(ctx)
    parts = ctx.args.split()
    losses = [p for p in parts if "/" in p]
    others = [p for p in parts if "/" not in p]
    if len(losses) != 1 or len(others) > 1:
        raise CommandError("plurk.error.sc_usage")
    character = await target_or_self(ctx, others[0] if others else None)
    await refuse_if_pending(ctx, character, SAN)  # before any die: one event at a time
    san = resource_value(character, SAN)
    result = plurk.sanity_check(ctx.dice, san, losses[0])
    # a constant loss (`1/1d6` on a success) has no dice to list: "損失 1"
    line_key = "plurk.sanity.line" if result.loss_rolls else "plurk.sanity.line_flat"
    lines = [ctx.t(line_key, pc=character.name, roll=result.roll, san=san,
                   cmp="≤" if result.success else ">",
                   outcome=outcome_text(ctx, result.success),
                   expr=result.loss_expr, rolls=",".join(map(str, result.loss_rolls)),
                   loss=result.loss)]
    fatal_lines, fatal = await lose(ctx, character, SAN, result.loss, source="sanity")
    if fatal:
        lines.extend(fatal_lines)
    else:
        lines.append(ctx.t("plurk.sanity.applied", resource=SAN, before=san,
                           after=resource_value(character, SAN)))
    data = {"kind": "plurk_sanity", "character": character.name, "roll": result.roll,
            "san_before": san, "success": result.success, "loss_expr": result.loss_expr,
            "loss_rolls": list(result.loss_rolls), "loss": result.loss,
            "san_after": resource_value(character, SAN), "fatal": fatal}
    return [ctx.reply("\n".join(lines), data)]


# --------------------------------------------------------------------------- opposed (PL-6)


async def classify(ctx: Context, terms: list[Term]) -> tuple[str | None, str | None, int | None,
                                                               int]:
    """(investigator ref, stat, NPC modifier, bonus) of one side's terms; every
    ``+N`` of the side, wherever written, is that side's situational bonus."""
    ref = stat = number = None
    bonus = 0
    for term in terms:
        bonus += term.bonus
        if term.threshold is not None:  # opposed checks have no threshold (PL-6)
            raise CommandError("plurk.error.op_usage")
        if term.number is not None:
            if number is not None:
                raise CommandError("plurk.error.op_usage")
            number = term.number
            continue
        if term.word is None:
            continue
        word = term.word
        is_ref = mention(word) is not None or (
            plurk.resolve_stat(word) is None and await find_character(ctx, word) is not None)
        if is_ref:
            if ref is not None:
                raise CommandError("plurk.error.op_usage")
            ref = word
        else:
            if stat is not None:
                raise CommandError("plurk.error.op_usage")
            stat = word
    if ref is not None and number is not None:
        raise CommandError("plurk.error.op_usage")
    return ref, stat, number, bonus


async def build_side(ctx: Context, terms: list[Term], *, left: bool,
                     default_stat: str | None) -> plurk.OpposedSide:
    """An investigator (named, or the speaker on the left) or an NPC's modifier; the
    right side defaults to the left side's stat (`.op 力量 vs @bob`)."""
    ref, stat, number, bonus = await classify(ctx, terms)
    stat = stat or default_stat
    if number is not None:
        label = ctx.t("plurk.op.npc")
        return plurk.OpposedSide(label, number, stat, bonus)
    if ref is None and not left:
        raise CommandError("plurk.error.op_usage")
    if ref is None:
        character = await ctx.uow.active_sheet(ctx.user)
        if character is None:
            # a GM runs NPCs and usually has no sheet: say how to name the left side
            # rather than "you have no active character" (issue 12 item 11)
            raise CommandError("plurk.error.op_left_missing" if ctx.is_gm
                               else "core.error.pc_no_active")
    else:
        character = await investigator(ctx, ref)
        if left:
            require_owner_or_gm(ctx, character.owner)
    if stat is None:
        raise CommandError("plurk.error.op_usage")
    key, modifier = stat_modifier(character, stat)
    return plurk.OpposedSide(character.name, modifier, key, bonus)


def opposed_roll_text(ctx: Context, roll: plurk.OpposedRoll) -> str:
    """One side's roll; the passive side of a one-way check rolls no die."""
    stat = roll.stat or ctx.t("plurk.check.mod")
    if roll.passive:
        return ctx.t("plurk.op.passive", who=roll.label, stat=stat, mod=f"{roll.modifier:+d}",
                     bonus=f"{roll.bonus:+d}" if roll.bonus else "", value=roll.value)
    special = ""
    if roll.crit:
        special += ctx.t("plurk.check.special", text=ctx.t("plurk.check.crit"))
    if roll.fumble:
        special += ctx.t("plurk.check.special", text=ctx.t("plurk.check.fumble"))
    return ctx.t("plurk.op.roll", who=roll.label, stat=stat, raw=roll.raw,
                 mod=f"{roll.modifier:+d}", bonus=f"{roll.bonus:+d}" if roll.bonus else "",
                 value=roll.value, special=special)


@command("op", "對抗", "对抗")
async def opposed_check(ctx: Context) -> list[Outgoing]:
    """PL-6: `.op 潛行 vs 觀察 @bob [zerosum|oneway]`, `.op 交涉+2 vs 12 oneway`.

    The left side is the speaker's character unless it names one (a GM may speak
    for anyone); the right side is an investigator or an NPC's modifier. Attribute
    against skill is refused by the rules.
    """
    require_plurk(ctx)
    terms, _mode = parse_terms(ctx.args)
    mode = "general"
    kept: list[Term] = []
    for term in terms:
        key = (term.word or "").casefold()
        if key in OPPOSED_MODES and not term.bonus and term.threshold is None:
            mode = OPPOSED_MODES[key]
        else:
            kept.append(term)
    split = [i for i, t in enumerate(kept) if (t.word or "").casefold() in VS_WORDS]
    if len(split) != 1:
        raise CommandError("plurk.error.op_usage")
    index = split[0]
    a = await build_side(ctx, kept[:index], left=True, default_stat=None)
    b = await build_side(ctx, kept[index + 1:], left=False, default_stat=a.stat)
    result = plurk.opposed(ctx.dice, a, b, mode=mode)
    lines = [ctx.t("plurk.op.header", mode=ctx.t(f"plurk.op.mode_{result.mode}"))]
    # zero-sum full ties first, in the order they were rolled, then the deciding roll
    # (issue 12 item 15)
    for number, (raw_a, raw_b) in enumerate(result.rerolls, 1):
        lines.append(ctx.t("plurk.op.tied", n=number, a=result.a.label, raw_a=raw_a,
                           b=result.b.label, raw_b=raw_b,
                           value=raw_a + result.a.modifier + result.a.bonus))
    lines += [opposed_roll_text(ctx, result.a), opposed_roll_text(ctx, result.b)]
    if result.winner is None:
        lines.append(ctx.t("plurk.op.draw"))
    else:
        lines.append(ctx.t(f"plurk.op.winner_{result.decided_by}", who=result.winner_label))
    data = {"kind": "plurk_opposed", "mode": result.mode, "winner": result.winner,
            "winner_label": result.winner_label, "decided_by": result.decided_by,
            "a": asdict(result.a), "b": asdict(result.b),
            "rerolls": [list(pair) for pair in result.rerolls]}
    return [ctx.reply("\n".join(lines), data)]


# --------------------------------------------------------------------------- secret (PL-7)


@command("secret", "秘密檢定", "秘密检定", hidden=True)
async def secret(ctx: Context) -> list[Outgoing]:
    """PL-7: `.secret <investigator> 觀察 [+2] [>=15]` — GM only. The full result goes
    to the GMs privately; the channel learns who and which stat, nothing else.
    Not kept as the investigator's last check (a push would reveal it). With
    `silent` (a passive check, issue 24) the channel is not told at all."""
    require_plurk(ctx)
    require_gm(ctx)
    words = ctx.args.split()
    silent = [w for w in words if is_word(w, *SILENT_WORDS)]
    terms, mode = parse_terms(" ".join(w for w in words if w not in silent))
    if not terms or terms[0].word is None or terms[0].bonus or terms[0].threshold is not None:
        raise CommandError("plurk.error.secret_usage")
    character = await investigator(ctx, terms[0].word)
    args = check_args(terms[1:], mode)
    if args.stat is None and args.bare is None:
        raise CommandError("plurk.error.secret_usage")
    result = roll_for(ctx, character, args)
    notice = plurk.secret_notice(result, character.name)
    stat = notice.stat or ctx.t("plurk.check.unnamed")
    announce = ctx.reply(ctx.t("plurk.secret.announce", who=notice.investigator, stat=stat),
                         {"kind": "plurk_secret", "character": notice.investigator,
                          "stat": notice.stat})
    text = ctx.t("plurk.secret.result", text=check_text(ctx, character.name, result,
                                                        reason=args.reason))
    data = check_data(result, character=character.name, user=character.owner, secret=True,
                      reason=args.reason)
    return [*([] if silent else [announce]), *ctx.to_gms(text, data)]


SILENT_WORDS = ("silent", "quiet", "靜默", "静默", "無聲", "无声")
"""`.secret … silent`: a passive check the channel must not hear of (issue 24)."""


# --------------------------------------------------------------------------- multiple (PL-8)


@command("rm", "多重", "多重檢定", "多重检定")
async def multiple(ctx: Context) -> list[Outgoing]:
    """PL-8: `.rm 觀察 聆聽+2 [>=N]` merged (one d20, one outcome per stat, `觀察>=15`
    sets one stat's threshold); add `compound` for one d20 + floor(mean) vs one
    threshold."""
    require_plurk(ctx)
    terms, mode = parse_terms(ctx.args)
    await require_consent(ctx, mode)
    compound = any((t.word or "").casefold() in COMPOUND_WORDS for t in terms)
    terms = [t for t in terms
             if (t.word or "").casefold() not in COMPOUND_WORDS | MERGED_WORDS]
    lone = [t for t in terms if t.word is None and t.number is None and t.threshold is not None]
    if len(lone) > 1 or any(t.bonus for t in lone):
        raise CommandError("plurk.error.rm_usage")
    default = next((t.threshold for t in lone if t.threshold is not None),
                   plurk.DEFAULT_THRESHOLD)
    stats, leading = attach_bonuses([t for t in terms if t not in lone])
    named = [(t.word, t) for t in stats if t.word is not None]
    if leading or len(named) != len(stats):
        raise CommandError("plurk.error.rm_usage")
    character = await active_sheet(ctx)
    looked = [(stat_modifier(character, word), t) for word, t in named]
    if compound:
        if any(t.threshold is not None for t in stats):
            raise CommandError("plurk.error.rm_usage")
        return await compound_check(ctx, character, looked, default, mode or "roll")
    items = [plurk.CheckItem(key, value, t.bonus, default if t.threshold is None
                             else t.threshold) for (key, value), t in looked]
    merged = plurk.merged_check(ctx.dice, items, mode=mode or "roll")
    lines = [ctx.t("plurk.rm.merged", who=character.name, count=len(items),
                   raw=ctx.t(f"plurk.check.raw_{mode or 'roll'}", raw=merged.raw))]
    lines += [ctx.t("plurk.rm.item", stat=r.stat, body=check_body(ctx, r))
              for r in merged.results]
    data = {"kind": "plurk_merged", "character": character.name, "raw": merged.raw,
            "all_success": merged.all_success, "results": [result_dict(r) for r in merged.results]}
    return [ctx.reply("\n".join(lines), data)]


async def compound_check(ctx: Context, character: Sheet,
                         looked: list[tuple[tuple[str, int], Term]], threshold: int,
                         mode: str) -> list[Outgoing]:
    """`.rm … compound`: one d20 + the floored mean of the stats against one threshold;
    kept as the player's last check, as a single check is."""
    result = plurk.compound_check(
        ctx.dice, [plurk.StatRef(key, value) for (key, value), _t in looked],
        bonus=sum(t.bonus for _looked, t in looked), threshold=threshold, mode=mode)
    await remember(ctx, ctx.user, character.name, result.result, character_id=character.id)
    mods = " ".join(f"{s}{m:+d}" for s, m in zip(result.stats, result.modifiers, strict=True))
    text = ctx.t("plurk.rm.compound", who=character.name, mods=mods,
                 mean=f"{result.mean_modifier:+d}",
                 text=check_text(ctx, character.name, result.result))
    return [ctx.reply(text, check_data(result.result, character=character.name,
                                       user=ctx.user, compound=True,
                                       modifiers=list(result.modifiers),
                                       mean_modifier=result.mean_modifier))]


# --------------------------------------------------------------------------- collective (PL-9)


@command("rg", "集體", "集体", "集體檢定", "集体检定")
async def collective(ctx: Context) -> list[Outgoing]:
    """PL-9: `.rg 觀察 @a 角色B [>=N]` — one d20 for everyone, each adds their own
    modifier. A player's own active character always takes part (they roll for
    the group); a GM lists whoever takes part. Combat skills are refused."""
    require_plurk(ctx)
    terms, mode = parse_terms(ctx.args)
    await require_consent(ctx, mode)
    terms, leading = attach_bonuses(terms)
    thresholds = [t.threshold for t in terms if t.threshold is not None]
    words = [(t.word, t) for t in terms if t.word is not None]
    if leading or len(thresholds) > 1 or not words or len(words) != len(
            [t for t in terms if t.word is not None or t.number is not None]):
        raise CommandError("plurk.error.rc_usage")
    (stat, first), refs = words[0], words[1:]
    if plurk.is_combat_skill(stat):
        raise RuleError("plurk.collective_combat", stat=plurk.stat_label(stat))
    chosen: list[tuple[Sheet, int]] = [((await investigator(ctx, word)), t.bonus)
                                           for word, t in refs]
    roller = ctx.name
    if not ctx.is_gm:
        own = await active_sheet(ctx)
        roller = own.name
        if all(c.id != own.id for c, _b in chosen):
            chosen.insert(0, (own, 0))
    for character, _b in chosen:
        await require_replaceable(ctx, character.owner, character.name)
    members = []
    for character, bonus in chosen:
        _key, value = stat_modifier(character, stat)
        members.append(plurk.Member(character.name, value, first.bonus + bonus))
    threshold = thresholds[0] if thresholds else plurk.DEFAULT_THRESHOLD
    result = plurk.collective_check(ctx.dice, stat, members, threshold=threshold,
                                    mode=mode or "roll")
    for (character, _b), named in zip(chosen, result.results, strict=True):
        await remember(ctx, character.owner, character.name, named.result,
                       character_id=character.id)
    lines = [ctx.t("plurk.rg.header", stat=result.stat, who=roller,
                   raw=ctx.t(f"plurk.check.raw_{mode or 'roll'}", raw=result.raw))]
    lines += [ctx.t("plurk.rg.item", who=n.name, body=check_body(ctx, n.result))
              for n in result.results]
    data = {"kind": "plurk_collective", "stat": result.stat, "raw": result.raw,
            "results": [{"name": n.name, **result_dict(n.result)} for n in result.results]}
    return [ctx.reply("\n".join(lines), data)]
