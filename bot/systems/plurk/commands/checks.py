"""`plurk` checks and what follows them: `.ra` `.rah` `.push` `.fate`.

Handlers only parse arguments, look numbers up on sheets and route the result;
every rule (value, outcome, crit / fumble, push, fate) is decided by
``rules.systems.plurk``. A check is kept as its player's last check
(``bot.systems.plurk.check_records``) so that a push (PL-10) or a fate check (PL-4) can
refer to it in a later command; for a hidden check (`.rah`, PL-7) everything
that follows goes privately to the player and the GMs. Sanity, opposed, secret,
multiple and collective checks are in ``plurk_checks_special.py``.
"""

from __future__ import annotations

from typing import Any

from bot.context import Context
from bot.errors import CommandError
from bot.messages import Outgoing
from bot.permissions import require_gm_if_any
from bot.systems.plurk.check_args import PUSH_WORDS, parse_check, precheck_check, roll_for
from bot.systems.plurk.check_records import (
    about_record,
    deliver,
    own_record,
    record_for,
    refuse_platform_dice_when_hidden,
    remember,
    store_record,
)
from bot.systems.plurk.rendering import check_data, check_text, outcome_text, result_dict
from bot.systems.plurk.system import require_plurk
from bot.systems.plurk.table import command
from bot.systems.plurk.terms import Term, parse_terms
from rules.errors import RuleError
from rules.systems import plurk

ROLL_WORDS = frozenset({"roll", "now", "擲", "掷", "骰"})
"""`.fate @bob roll`: call the fate check and roll it at once."""


# --------------------------------------------------------------------------- .ra / .rah


async def speaker_check(ctx: Context, *, hidden: bool) -> list[Outgoing]:
    """The speaker's check with their active character's stat (or a bare modifier)."""
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


@command("rah", "暗檢", "暗检", precheck=precheck_check, hidden=True)
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
        raise CommandError("plurk.error.push_usage")
    return await push_last(ctx)


async def push_last(ctx: Context) -> list[Outgoing]:
    """Push the speaker's last check (`.push`, `.ra push`)."""
    record = await own_record(ctx)
    return await about_record(ctx, ctx.user, record, "push", lambda: push_record(ctx, record))


async def push_record(ctx: Context, record: dict[str, Any]) -> list[Outgoing]:
    if record.get("pushed"):
        raise CommandError("plurk.error.push_twice")
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


def fate_threshold(terms: list[Term]) -> int | None:
    """The one threshold (``>=N`` or a bare ``N``) a `.fate` line gives, if any."""
    found = [t.threshold if t.threshold is not None else t.number for t in terms
             if t.word is None and (t.threshold is not None or t.number is not None)]
    if len(found) > 1:
        raise CommandError("plurk.error.fate_usage")
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
        raise CommandError("plurk.error.fate_usage")
    if refs:
        require_gm_if_any(ctx)
        owner, record = await record_for(ctx, refs[0])
        return await about_record(ctx, owner, record, "fate", lambda: call_fate(
            ctx, owner, record, threshold, roll_now))
    record = await own_record(ctx)
    return await about_record(ctx, ctx.user, record, "fate",
                              lambda: own_fate(ctx, record, threshold))


async def own_fate(ctx: Context, record: dict[str, Any], threshold: int | None
                   ) -> list[Outgoing]:
    """The investigator's `.fate`: roll the called one (or, without GMs, call and roll)."""
    called = record.get("fate") or {}
    if called.get("result") is not None:
        raise CommandError("plurk.error.fate_done", who=record["character"])
    if called.get("threshold") is not None:
        if threshold is not None:  # the caller's threshold stands
            raise CommandError("plurk.error.fate_usage")
        return await roll_fate(ctx, ctx.user, record)
    if not ctx.gm_users:
        return await call_fate(ctx, ctx.user, record, threshold, True)
    raise CommandError("plurk.error.fate_not_called")


async def call_fate(ctx: Context, owner: str, record: dict[str, Any], threshold: int | None,
                    roll_now: bool) -> list[Outgoing]:
    """Call a fate check on a crit or fumble (PL-4), and roll it when asked to."""
    original = plurk.CheckResult.from_dict(record["check"])
    if (record.get("fate") or {}).get("result") is not None:
        raise CommandError("plurk.error.fate_done", who=record["character"])
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
    """Roll a called fate check and keep its result on the record."""
    original = plurk.CheckResult.from_dict(record["check"])
    called = record["fate"]
    if record["hidden"]:
        refuse_platform_dice_when_hidden(ctx)
    result = plurk.fate_check(original, ctx.dice, threshold=called["threshold"])
    await store_record(ctx, owner, {**record, "fate": {**called, "result": {
        "raw": result.raw, "success": result.success, "certain": result.certain,
        "final_success": result.final_success}}})
    effect = ctx.t(f"plurk.fate.certain_{result.certain}" if result.certain
                   else "plurk.fate.stands")
    text = ctx.t("plurk.fate.line", who=record["character"],
                 trigger=ctx.t(f"plurk.fate.trigger_{result.trigger.replace('+', '_')}"),
                 raw=result.raw, cmp="≥" if result.success else "<",
                 threshold=result.threshold, outcome=outcome_text(ctx, result.success),
                 effect=effect, final=outcome_text(ctx, result.final_success))
    data = {"kind": "plurk_fate", "user": owner, "character": record["character"],
            "raw": result.raw, "threshold": result.threshold, "success": result.success,
            "trigger": result.trigger, "certain": result.certain,
            "original_success": result.original_success, "final_success": result.final_success}
    return deliver(ctx, owner, record["character"], text, data, hidden=record["hidden"])
