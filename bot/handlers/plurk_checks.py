"""`plurk` investigation checks: `.ra` `.rah` `.push` `.fate` `.sc` `.op` `.secret` `.rm` `.rg`.

Handlers only parse arguments, look numbers up on sheets and route the result;
every rule (value, outcome, crit / fumble, push, fate, sanity, opposed, multiple,
collective) is decided by ``rules.systems.plurk``. The last check of each player
is kept in the channel state ``plurk.checks`` so that a push (PL-10) or a fate
check (PL-4) can refer to it in a later command — and survives a restart.
Secret rolls (PL-7) are never stored there: a later push or fate reply in the
channel would tell the players what the GM rolled. A player's *hidden* check is
stored (they may push it), and everything about it afterwards — push and fate
results, the GM's fate call, and every refusal — goes privately to the asker /
the player and the GMs, while the channel reads one neutral line
(:func:`about_record`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.context import Context
from bot.errors import CommandError
from bot.messages import Outgoing
from bot.permissions import require_gm, require_gm_if_any
from bot.plurk_support import (
    SAN,
    Term,
    active_sheet,
    attach_bonuses,
    check_body,
    check_data,
    check_text,
    find_character,
    investigator,
    lose,
    mention,
    parse_terms,
    refusal_text,
    require_owner_or_gm,
    require_plurk,
    resource_value,
    result_dict,
    same_character,
    sheet_key,
    stat_modifier,
    target_or_self,
)
from bot.router import command
from bot.store.models import Character
from rules.errors import RuleError
from rules.systems import plurk

CHECKS_KEY = "plurk.checks"
PUSH_WORDS = frozenset({"push", "孤注", "孤注一擲", "孤注一掷"})
ROLL_WORDS = frozenset({"roll", "now", "擲", "掷", "骰"})
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


# --------------------------------------------------------------------------- parsing


@dataclass
class CheckArgs:
    """What `.ra`-style arguments ask for: a stat or a bare modifier, bonus, threshold."""

    stat: str | None = None
    bare: int | None = None
    bonus: int = 0
    threshold: int = plurk.DEFAULT_THRESHOLD
    mode: str = "roll"
    reason: str | None = None


MAX_REASON = 100
"""A check's reason is shown in the reply; longer text is cut."""


def check_args(terms: list[Term], mode: str | None) -> CheckArgs:
    """One stat (``觀察+2``) or one bare number, bonuses, at most one ``>=N``, and a
    reason: ``.ra 觀察 開門`` checks 觀察 for 開門, as ``.r 1d20 開門`` rolls for it.

    The first word is the stat; every later word is the reason — unless it is a
    stat the system declares (``.ra 觀察 潛行`` is two stats: refused rather than
    guessed). Mode words (``取10``) and thresholds are taken out before.
    """
    terms, leading = attach_bonuses(terms)
    args = CheckArgs(bonus=leading, mode=mode or "roll")
    thresholds = [t.threshold for t in terms if t.threshold is not None]
    if len(thresholds) > 1:
        raise CommandError("error.plurk.check_usage")
    if thresholds:
        args.threshold = thresholds[0]
    reason: list[str] = []
    for term in terms:
        args.bonus += term.bonus
        if term.word is not None:
            if args.stat is None and args.bare is None:
                args.stat = term.word
            elif (plurk.resolve_stat(term.word) is not None
                  or term.word.casefold() in PUSH_WORDS):
                raise CommandError("error.plurk.check_usage")
            else:
                reason.append(term.word)
        elif term.number is not None:
            if args.stat is not None or args.bare is not None:
                raise CommandError("error.plurk.check_usage")
            args.bare = term.number
    if reason:
        args.reason = " ".join(reason)[:MAX_REASON]
    return args


def parse_check(text: str) -> CheckArgs:
    terms, mode = parse_terms(text)
    return check_args(terms, mode)


def precheck_check(args: str) -> None:
    """Refuse malformed `.ra` arguments before any database work."""
    if args.strip().casefold() not in PUSH_WORDS:
        parse_check(args)


# --------------------------------------------------------------------------- rolling


def roll_for(ctx: Context, character: Character | None, args: CheckArgs) -> plurk.CheckResult:
    """Roll a check with the sheet's modifier (or the bare number given)."""
    modifier, stat = args.bare or 0, None
    if args.stat is not None:
        if character is None:
            raise CommandError("error.pc_no_active")
        stat, modifier = stat_modifier(character, args.stat)
    if args.reason is not None and character is not None and any(
            sheet_key(character, word) is not None for word in args.reason.split()):
        raise CommandError("error.plurk.check_usage")  # a second stat of the sheet
    return plurk.check(ctx.dice, modifier, bonus=args.bonus, threshold=args.threshold,
                       stat=stat, mode=args.mode)


async def last_checks(ctx: Context) -> tuple[Any, dict[str, Any]]:
    row = await ctx.state(CHECKS_KEY)
    return row, dict((row.data or {}).get("last", {}))


async def remember(ctx: Context, owner: str, character: str, result: plurk.CheckResult,
                   *, hidden: bool = False, character_id: int | None = None,
                   reason: str | None = None) -> None:
    """Keep a player's last check for a later push or fate check (with the sheet's
    id, so a renamed character still finds it)."""
    row, last = await last_checks(ctx)
    last[owner] = {"character": character, "character_id": character_id,
                   "check": result.to_dict(), "hidden": hidden, "fate": None,
                   "reason": reason}
    row.data = {**(row.data or {}), "last": last}


async def store_record(ctx: Context, owner: str, record: dict[str, Any]) -> None:
    row, last = await last_checks(ctx)
    row.data = {**(row.data or {}), "last": {**last, owner: record}}


def deliver(ctx: Context, owner: str, who: str, text: str, data: dict[str, Any],
            *, hidden: bool) -> list[Outgoing]:
    """Post a result, or — for a hidden check — announce it and send it to its player
    and every GM privately (PL-7: nothing of the result reaches the channel; a
    push or fate of a hidden check replaces the announcement with
    :func:`hidden_followup`, see :func:`about_record`)."""
    if not hidden:
        return [ctx.reply(text, data)]
    own = ctx.private(owner, ctx.t("plurk.hidden.result", text=text), data)
    if ctx.incoming.is_private:
        return [own]
    announce = ctx.reply(ctx.t("plurk.hidden.announce", who=who),
                         {"kind": "plurk_hidden_check", "user": owner})
    gm_text = ctx.t("plurk.hidden.result_gm", who=who, text=text)
    return [announce, own, *ctx.to_gms(gm_text, data, exclude=owner)]


def hidden_followup(ctx: Context, owner: str, who: str, action: str) -> Outgoing:
    """The channel's only line about a push / fate of a hidden check (PL-7): the same
    words whether it was refused, called or rolled, and whatever came out — so
    not even "it could be pushed" (the original failed) reaches the channel."""
    return ctx.reply(ctx.t("plurk.hidden.followup", who=who,
                           action=ctx.t(f"plurk.hidden.action_{action}")),
                     {"kind": "plurk_hidden_followup", "user": owner, "character": who,
                      "action": action})


async def about_record(ctx: Context, owner: str, record: dict[str, Any], action: str,
                       work: Callable[[], Awaitable[list[Outgoing]]]) -> list[Outgoing]:
    """Run a push / fate step on a last-check record.

    For a hidden record (PL-7) every refusal is itself a clue — "only failed checks
    can be pushed" says the check succeeded, "the raw die was 12" gives the die —
    so a refusal goes to the asker privately and the channel gets the neutral
    :func:`hidden_followup`, exactly as when the step succeeds. Refusals are raised
    before anything is written, so answering instead of raising changes nothing.
    """
    if not record.get("hidden") or ctx.incoming.is_private:
        return await work()
    announce = hidden_followup(ctx, owner, record["character"], action)
    try:
        outs = await work()
    except (CommandError, RuleError) as exc:
        return [announce, ctx.private(ctx.user, refusal_text(ctx, exc),
                                      {"kind": "plurk_hidden_refusal", "user": owner})]
    return [announce, *(o for o in outs if o.to != "channel")]


def refuse_platform_dice_when_hidden(ctx: Context) -> None:
    """A Plurk emoticon die is public in the player's own post: a hidden or secret
    check rolled with one would not be secret, and the core would quote it."""
    if ctx.incoming.platform_dice:
        raise CommandError("error.plurk.hidden_platform_dice")


# --------------------------------------------------------------------------- .ra / .rah


async def speaker_check(ctx: Context, *, hidden: bool) -> list[Outgoing]:
    args = parse_check(ctx.args)
    character = await ctx.active_character()
    result = roll_for(ctx, character, args)
    who = character.name if character is not None else ctx.name
    await remember(ctx, ctx.user, who, result, hidden=hidden,
                   character_id=character.id if character is not None else None,
                   reason=args.reason)
    data = check_data(result, character=who, user=ctx.user, reason=args.reason)
    return deliver(ctx, ctx.user, who, check_text(ctx, who, result, reason=args.reason), data,
                   hidden=hidden)


@command("ra", "rc", "檢定", "检定", precheck=precheck_check)
async def ra(ctx: Context) -> list[Outgoing]:
    """PL-2/3/10: `.ra 觀察+2 >=15 取10`; `.ra push` pushes the last failed check."""
    require_plurk(ctx)
    if ctx.args.strip().casefold() in PUSH_WORDS:
        return await push_last(ctx)
    return await speaker_check(ctx, hidden=False)


@command("rah", "暗檢", "暗检", precheck=precheck_check)
async def rah(ctx: Context) -> list[Outgoing]:
    """PL-7 for players: the channel sees that a hidden check happened, the roller and
    every GM get the result privately."""
    require_plurk(ctx)
    refuse_platform_dice_when_hidden(ctx)
    return await speaker_check(ctx, hidden=True)


# --------------------------------------------------------------------------- push (PL-10)


@command("push", "孤注", "孤注一擲", "孤注一掷")
async def push_command(ctx: Context) -> list[Outgoing]:
    """PL-10: reroll one's last failed skill check; the rules refuse combat skills,
    attributes, fumbled or successful originals; a failed push is a fumble."""
    require_plurk(ctx)
    if ctx.args.strip():
        raise CommandError("error.plurk.push_usage")
    return await push_last(ctx)


async def push_last(ctx: Context) -> list[Outgoing]:
    _row, last = await last_checks(ctx)
    record = last.get(ctx.user)
    if record is None:
        raise CommandError("error.plurk.no_last_check", who=ctx.name)
    return await about_record(ctx, ctx.user, record, "push", lambda: push_record(ctx, record))


async def push_record(ctx: Context, record: dict[str, Any]) -> list[Outgoing]:
    if record.get("pushed"):
        raise CommandError("error.plurk.push_twice")
    if record["hidden"]:
        refuse_platform_dice_when_hidden(ctx)
    original = plurk.CheckResult.from_dict(record["check"])
    result = plurk.push(original, ctx.dice)
    await store_record(ctx, ctx.user, {**record, "check": result.to_dict(), "fate": None,
                                       "pushed": True})
    who, reason = record["character"], record.get("reason")
    text = ctx.t("plurk.push.line", text=check_text(ctx, who, result, reason=reason))
    data = check_data(result, character=who, user=ctx.user, original=result_dict(original),
                      reason=reason)
    return deliver(ctx, ctx.user, who, text, data, hidden=record["hidden"])


# --------------------------------------------------------------------------- fate (PL-4)


async def record_for(ctx: Context, ref: str) -> tuple[str, dict[str, Any]]:
    """(owner, last-check record) of the investigator ``ref`` names."""
    character = await investigator(ctx, ref)
    _row, last = await last_checks(ctx)
    record = last.get(character.owner)
    if record is None or (mention(ref) is None and not same_character(
            {**record, "owner": character.owner}, character)):
        raise CommandError("error.plurk.no_last_check", who=character.name)
    return character.owner, record


def fate_threshold(terms: list[Term]) -> int | None:
    found = [t.threshold if t.threshold is not None else t.number for t in terms
             if t.word is None and (t.threshold is not None or t.number is not None)]
    if len(found) > 1:
        raise CommandError("error.plurk.fate_usage")
    return found[0] if found else None


@command("fate", "命運", "命运", "命運檢定", "命运检定")
async def fate(ctx: Context) -> list[Outgoing]:
    """PL-4. The GM calls it: `.fate @bob [>=N]` (add `roll` to roll it at once);
    the investigator then rolls it with `.fate` — on Plurk with their own die.
    In a channel without GMs a player may call and roll their own at once."""
    require_plurk(ctx)
    terms, _mode = parse_terms(ctx.args)
    words = [t.word for t in terms if t.word is not None]
    roll_now = any(w.casefold() in ROLL_WORDS for w in words)
    refs = [w for w in words if w.casefold() not in ROLL_WORDS]
    threshold = fate_threshold(terms)
    if len(refs) > 1:
        raise CommandError("error.plurk.fate_usage")
    if refs:
        require_gm_if_any(ctx)
        owner, record = await record_for(ctx, refs[0])
        return await about_record(ctx, owner, record, "fate", lambda: call_fate(
            ctx, owner, record, threshold, roll_now))
    _row, last = await last_checks(ctx)
    record = last.get(ctx.user)
    if record is None:
        raise CommandError("error.plurk.no_last_check", who=ctx.name)
    return await about_record(ctx, ctx.user, record, "fate",
                              lambda: own_fate(ctx, record, threshold))


async def own_fate(ctx: Context, record: dict[str, Any], threshold: int | None
                   ) -> list[Outgoing]:
    """The investigator's `.fate`: roll the called one (or, without GMs, call and roll)."""
    called = record.get("fate") or {}
    if called.get("result") is not None:
        raise CommandError("error.plurk.fate_done", who=record["character"])
    if called.get("threshold") is not None:
        if threshold is not None:  # the caller's threshold stands
            raise CommandError("error.plurk.fate_usage")
        return await roll_fate(ctx, ctx.user, record)
    if not ctx.gm_users:
        return await call_fate(ctx, ctx.user, record, threshold, True)
    raise CommandError("error.plurk.fate_not_called")


async def call_fate(ctx: Context, owner: str, record: dict[str, Any], threshold: int | None,
                    roll_now: bool) -> list[Outgoing]:
    original = plurk.CheckResult.from_dict(record["check"])
    if (record.get("fate") or {}).get("result") is not None:
        raise CommandError("error.plurk.fate_done", who=record["character"])
    if not (original.crit or original.fumble):
        raise RuleError("plurk.fate_not_allowed", stat=original.stat, raw=original.raw)
    if roll_now and record["hidden"]:
        refuse_platform_dice_when_hidden(ctx)  # before the call is stored
    called = {"threshold": plurk.FATE_THRESHOLD if threshold is None else threshold,
              "called_by": ctx.user}
    record = {**record, "fate": called}
    await store_record(ctx, owner, record)
    if roll_now:
        return await roll_fate(ctx, owner, record)
    text = ctx.t("plurk.fate.called", who=record["character"], threshold=called["threshold"],
                 stat=original.stat or ctx.t("plurk.check.unnamed"))
    data = {"kind": "plurk_fate_call", "user": owner, "character": record["character"],
            "threshold": called["threshold"]}
    # a hidden check's call tells the player (and the GMs) privately: a fate check is
    # only called after a crit or a fumble, so a public call would reveal that
    return deliver(ctx, owner, record["character"], text, data, hidden=record["hidden"])


async def roll_fate(ctx: Context, owner: str, record: dict[str, Any]) -> list[Outgoing]:
    original = plurk.CheckResult.from_dict(record["check"])
    called = record["fate"]
    if record["hidden"]:
        refuse_platform_dice_when_hidden(ctx)
    result = plurk.fate_check(original, ctx.dice, threshold=called["threshold"])
    await store_record(ctx, owner, {**record, "fate": {**called, "result": {
        "raw": result.raw, "success": result.success, "certain": result.certain,
        "final_success": result.final_success}}})
    outcome = ctx.t("plurk.check.success" if result.success else "plurk.check.failure")
    effect = ctx.t(f"plurk.fate.certain_{result.certain}" if result.certain
                   else "plurk.fate.stands")
    final = ctx.t("plurk.check.success" if result.final_success else "plurk.check.failure")
    text = ctx.t("plurk.fate.line", who=record["character"],
                 trigger=ctx.t(f"plurk.fate.trigger_{result.trigger.replace('+', '_')}"),
                 raw=result.raw, cmp="≥" if result.success else "<",
                 threshold=result.threshold, outcome=outcome, effect=effect, final=final)
    data = {"kind": "plurk_fate", "user": owner, "character": record["character"],
            "raw": result.raw, "threshold": result.threshold, "success": result.success,
            "trigger": result.trigger, "certain": result.certain,
            "original_success": result.original_success, "final_success": result.final_success}
    return deliver(ctx, owner, record["character"], text, data, hidden=record["hidden"])


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
        raise CommandError("error.plurk.sc_usage")
    character = await target_or_self(ctx, others[0] if others else None)
    san = resource_value(character, SAN)
    result = plurk.sanity_check(ctx.dice, san, losses[0])
    # a constant loss (`1/1d6` on a success) has no dice to list: "損失 1"
    line_key = "plurk.sanity.line" if result.loss_rolls else "plurk.sanity.line_flat"
    lines = [ctx.t(line_key, pc=character.name, roll=result.roll, san=san,
                   cmp="≤" if result.success else ">",
                   outcome=ctx.t("plurk.check.success" if result.success
                                 else "plurk.check.failure"),
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
            raise CommandError("error.plurk.op_usage")
        if term.number is not None:
            if number is not None:
                raise CommandError("error.plurk.op_usage")
            number = term.number
            continue
        if term.word is None:
            continue
        word = term.word
        is_ref = mention(word) is not None or (
            plurk.resolve_stat(word) is None and await find_character(ctx, word) is not None)
        if is_ref:
            if ref is not None:
                raise CommandError("error.plurk.op_usage")
            ref = word
        else:
            if stat is not None:
                raise CommandError("error.plurk.op_usage")
            stat = word
    if ref is not None and number is not None:
        raise CommandError("error.plurk.op_usage")
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
        raise CommandError("error.plurk.op_usage")
    if ref is None:
        character = await active_sheet(ctx)
    else:
        character = await investigator(ctx, ref)
        if left:
            require_owner_or_gm(ctx, character.owner)
    if stat is None:
        raise CommandError("error.plurk.op_usage")
    key, modifier = stat_modifier(character, stat)
    return plurk.OpposedSide(character.name, modifier, key, bonus)


def opposed_roll_text(ctx: Context, roll: plurk.OpposedRoll) -> str:
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
        raise CommandError("error.plurk.op_usage")
    index = split[0]
    a = await build_side(ctx, kept[:index], left=True, default_stat=None)
    b = await build_side(ctx, kept[index + 1:], left=False, default_stat=a.stat)
    result = plurk.opposed(ctx.dice, a, b, mode=mode)
    lines = [ctx.t("plurk.op.header", mode=ctx.t(f"plurk.op.mode_{result.mode}")),
             opposed_roll_text(ctx, result.a), opposed_roll_text(ctx, result.b)]
    for raw_a, raw_b in result.rerolls:
        lines.append(ctx.t("plurk.op.reroll", a=raw_a, b=raw_b))
    if result.winner is None:
        lines.append(ctx.t("plurk.op.draw"))
    else:
        lines.append(ctx.t(f"plurk.op.winner_{result.decided_by}", who=result.winner_label))
    data = {"kind": "plurk_opposed", "mode": result.mode, "winner": result.winner,
            "winner_label": result.winner_label, "decided_by": result.decided_by,
            "a": vars_of(result.a), "b": vars_of(result.b),
            "rerolls": [list(pair) for pair in result.rerolls]}
    return [ctx.reply("\n".join(lines), data)]


def vars_of(roll: plurk.OpposedRoll) -> dict[str, Any]:
    return {name: getattr(roll, name) for name in roll.__dataclass_fields__}


# --------------------------------------------------------------------------- secret (PL-7)


@command("secret", "秘密檢定", "秘密检定")
async def secret(ctx: Context) -> list[Outgoing]:
    """PL-7: `.secret <investigator> 觀察 [+2] [>=15]` — GM only. The full result goes
    to the GMs privately; the channel learns who and which stat, nothing else.
    Not kept as the investigator's last check (a push would reveal it)."""
    require_plurk(ctx)
    require_gm(ctx)
    refuse_platform_dice_when_hidden(ctx)
    terms, mode = parse_terms(ctx.args)
    if not terms or terms[0].word is None or terms[0].bonus or terms[0].threshold is not None:
        raise CommandError("error.plurk.secret_usage")
    character = await investigator(ctx, terms[0].word)
    args = check_args(terms[1:], mode)
    if args.stat is None and args.bare is None:
        raise CommandError("error.plurk.secret_usage")
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
    return [announce, *ctx.to_gms(text, data)]


# --------------------------------------------------------------------------- multiple (PL-8)


@command("rm", "多重", "多重檢定", "多重检定")
async def multiple(ctx: Context) -> list[Outgoing]:
    """PL-8: `.rm 觀察 聆聽+2 [>=N]` merged (one d20, one outcome per stat, `觀察>=15`
    sets one stat's threshold); add `compound` for one d20 + floor(mean) vs one
    threshold."""
    require_plurk(ctx)
    terms, mode = parse_terms(ctx.args)
    compound = any((t.word or "").casefold() in COMPOUND_WORDS for t in terms)
    terms = [t for t in terms
             if (t.word or "").casefold() not in COMPOUND_WORDS | MERGED_WORDS]
    lone = [t for t in terms if t.word is None and t.number is None and t.threshold is not None]
    if len(lone) > 1 or any(t.bonus for t in lone):
        raise CommandError("error.plurk.rm_usage")
    default = lone[0].threshold if lone else plurk.DEFAULT_THRESHOLD
    stats, leading = attach_bonuses([t for t in terms if t not in lone])
    if leading or any(t.word is None for t in stats):
        raise CommandError("error.plurk.rm_usage")
    character = await active_sheet(ctx)
    looked = [(stat_modifier(character, t.word), t) for t in stats]
    if compound:
        if any(t.threshold is not None for t in stats):
            raise CommandError("error.plurk.rm_usage")
        result = plurk.compound_check(
            ctx.dice, [plurk.StatRef(key, value) for (key, value), _t in looked],
            bonus=sum(t.bonus for t in stats), threshold=default, mode=mode or "roll")
        await remember(ctx, ctx.user, character.name, result.result,
                       character_id=character.id)
        mods = " ".join(f"{s}{m:+d}" for s, m in zip(result.stats, result.modifiers,
                                                      strict=True))
        text = ctx.t("plurk.rm.compound", who=character.name, mods=mods,
                     mean=f"{result.mean_modifier:+d}",
                     text=check_text(ctx, character.name, result.result))
        return [ctx.reply(text, check_data(result.result, character=character.name,
                                           user=ctx.user, compound=True,
                                           modifiers=list(result.modifiers),
                                           mean_modifier=result.mean_modifier))]
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


# --------------------------------------------------------------------------- collective (PL-9)


@command("rg", "集體", "集体", "集體檢定", "集体检定")
async def collective(ctx: Context) -> list[Outgoing]:
    """PL-9: `.rg 觀察 @a 角色B [>=N]` — one d20 for everyone, each adds their own
    modifier. A player's own active character always takes part (they roll for
    the group); a GM lists whoever takes part. Combat skills are refused."""
    require_plurk(ctx)
    terms, mode = parse_terms(ctx.args)
    terms, leading = attach_bonuses(terms)
    thresholds = [t.threshold for t in terms if t.threshold is not None]
    words = [t for t in terms if t.word is not None]
    if leading or len(thresholds) > 1 or not words or len(words) != len(
            [t for t in terms if t.word is not None or t.number is not None]):
        raise CommandError("error.plurk.rc_usage")
    stat, refs = words[0].word, words[1:]
    if plurk.is_combat_skill(stat):
        raise RuleError("plurk.collective_combat", stat=plurk.stat_label(stat))
    chosen: list[tuple[Character, int]] = [((await investigator(ctx, t.word)), t.bonus)
                                           for t in refs]
    roller = ctx.name
    if not ctx.is_gm:
        own = await active_sheet(ctx)
        roller = own.name
        if all(c.id != own.id for c, _b in chosen):
            chosen.insert(0, (own, 0))
    members = []
    for character, bonus in chosen:
        _key, value = stat_modifier(character, stat)
        members.append(plurk.Member(character.name, value, words[0].bonus + bonus))
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

