"""`plurk` checks and what follows them: `.ra` `.rah` `.push` `.fate`.

Handlers only parse arguments, look numbers up on sheets and route the result;
every rule (value, outcome, crit / fumble, push, fate) is decided by
``rules.systems.plurk_trpg``. A check is kept as its player's last check
(``bot.systems.plurk_trpg.check_records``) so that a push (PL-10) or a fate check (PL-4) can
refer to it in a later command; for a hidden check (`.rah`, PL-7) everything
that follows goes privately to the player and the GMs. Sanity, opposed, secret,
multiple and collective checks are in ``plurk_checks_special.py``.
"""

from __future__ import annotations

from dataclasses import asdict, replace

from bot.context import Context
from bot.errors import CommandError
from bot.kits.references import investigator, mention, require_owner_or_gm, sheet_by_id
from bot.messages import Outgoing
from bot.permissions import require_gm, require_gm_if_any
from bot.systems.plurk_trpg.battle_state import require_standing
from bot.systems.plurk_trpg.check_args import (
    PUSH_WORDS,
    CheckArgs,
    parse_check,
    precheck_check,
    roll_for,
)
from bot.systems.plurk_trpg.check_records import (
    about_record,
    consent_doc,
    deliver,
    drop_request,
    last_checks,
    needs_consent,
    own_record,
    record_for,
    referees,
    refuse_platform_dice_when_hidden,
    remember,
    store_record,
    store_request,
)
from bot.systems.plurk_trpg.documents import (
    CONSENT,
    CheckRecord,
    CheckRequest,
    FateCall,
    FateRoll,
)
from bot.systems.plurk_trpg.rendering import check_data, check_text, outcome_text, result_dict
from bot.systems.plurk_trpg.system import require_plurk
from bot.systems.plurk_trpg.table import command
from bot.systems.plurk_trpg.terms import Term, parse_terms
from bot.unit_of_work import Sheet
from rules.errors import RuleError
from rules.systems import plurk_trpg as plurk
from rules.systems.plurk_trpg.checks import check_pushable

ROLL_WORDS = frozenset({"roll", "now", "擲", "掷", "骰"})
"""`.fate @bob roll`: call the fate check and roll it at once."""


# --------------------------------------------------------------------------- .ra / .rah


async def speaker_check(ctx: Context, *, hidden: bool) -> list[Outgoing]:
    """The speaker's check with their active character's stat (or a bare modifier).

    Take 10 / take 20 need the GM's consent (PL-10 「若局方允許」): without it the
    check is checked (stat on the sheet …) and queued for `.ra allow` instead."""
    args = parse_check(ctx.args)
    character = await ctx.uow.active_sheet(ctx.user)
    await require_standing(ctx, character)
    if args.mode in ("take10", "take20") and await needs_consent(ctx, args.mode):
        roll_for(ctx, character, args)  # refuse now what could never be allowed; no die
        return await request_check(ctx, character, args, hidden=hidden)
    return await run_check(ctx, ctx.user, character, args, hidden=hidden)


async def run_check(ctx: Context, owner: str, character: Sheet | None, args: CheckArgs,
                    *, hidden: bool, prefix: str | None = None) -> list[Outgoing]:
    """Roll ``owner``'s check, keep it as their last check and report it."""
    result = roll_for(ctx, character, args)
    who = character.name if character is not None else ctx.name
    await remember(ctx, owner, who, result, hidden=hidden,
                   character_id=character.id if character is not None else None,
                   reason=args.reason)
    data = check_data(result, character=who, user=owner, reason=args.reason)
    text = check_text(ctx, who, result, reason=args.reason)
    if prefix is not None:
        text = f"{prefix}\n{text}"
    return deliver(ctx, owner, who, text, data, hidden=hidden)


async def request_check(ctx: Context, character: Sheet | None, args: CheckArgs,
                        *, hidden: bool) -> list[Outgoing]:
    """Queue a take-10 / take-20 check for the GM (`.ra allow` rolls it, `.ra deny` drops it);
    a newer request of the same player replaces an older one."""
    who = character.name if character is not None else ctx.name
    await store_request(ctx, ctx.user, CheckRequest(
        args=ctx.args.strip(), mode=args.mode, hidden=hidden, character=who,
        character_id=character.id if character is not None else None, name=ctx.name))
    mode = ctx.t(f"plurk.consent.kind_{args.mode}")
    stat = args.stat if args.stat is not None else ctx.t("plurk.check.unnamed")
    text = (ctx.t("plurk.consent.requested_hidden", who=who, mode=mode) if hidden
            else ctx.t("plurk.consent.requested", who=who, mode=mode,
                       stat=plurk.stat_label(stat)))
    return [ctx.reply(text, {"kind": "plurk_consent_request", "user": ctx.user,
                             "character": who, "mode": args.mode, "hidden": hidden})]


@command("ra", "rc", "檢定", "检定", precheck=precheck_check)
async def ra(ctx: Context) -> list[Outgoing]:
    """PL-2/3/10: `.ra 觀察+2 >=15 取10`; `.ra push` pushes the last failed check."""
    require_plurk(ctx)
    if ctx.args.strip().casefold() in PUSH_WORDS:
        return await push_last(ctx)
    verb, _, rest = ctx.args.strip().partition(" ")
    if verb.casefold() in ALLOW_WORDS:
        return await allow(ctx, rest)
    if verb.casefold() in DENY_WORDS:
        return await deny(ctx, rest)
    return await speaker_check(ctx, hidden=False)


@command("rah", "暗檢", "暗检", precheck=precheck_check, hidden=True)
async def rah(ctx: Context) -> list[Outgoing]:
    """PL-7 for players: the channel sees that a hidden check happened, the roller and
    every GM get the result privately."""
    require_plurk(ctx)  # emoticon dice in the post: refused by the core (a hidden command)
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


async def push_needs_consent(ctx: Context, record: CheckRecord) -> bool:
    """Whether the push waits for a GM (PL-10): not once allowed, and not when no GM
    may referee the check — a hidden check's GMs are those who were sent it, so one
    seated since neither sees nor allows it, and its player pushes as at a table
    without GMs (issue 22)."""
    if record.push_allowed or not referees(ctx, record):
        return False
    return await needs_consent(ctx, "push")


async def push_record(ctx: Context, record: CheckRecord) -> list[Outgoing]:
    if record.pushed:
        raise CommandError("plurk.error.push_twice")
    original = record.check
    check_pushable(original)
    if await push_needs_consent(ctx, record):
        # PL-10: the GM agrees and states the omen first; `.ra allow` lets this push
        await store_record(ctx, ctx.user, replace(record, push_request=True))
        text = ctx.t("plurk.consent.push_requested", who=record.character,
                     stat=original.stat or ctx.t("plurk.check.unnamed"))
        data = {"kind": "plurk_consent_request", "user": ctx.user,
                "character": record.character, "mode": "push", "hidden": record.hidden}
        return deliver(ctx, ctx.user, record.character, text, data, hidden=record.hidden,
                       record=record)
    if record.hidden:
        refuse_platform_dice_when_hidden(ctx)
    result = plurk.push(original, ctx.dice)
    await store_record(ctx, ctx.user, replace(record, check=result, fate=None, pushed=True,
                                              push_request=False, push_allowed=False))
    who, reason = record.character, record.reason
    text = ctx.t("plurk.push.line", text=check_text(ctx, who, result, reason=reason))
    data = check_data(result, character=who, user=ctx.user, original=result_dict(original),
                      reason=reason)
    return deliver(ctx, ctx.user, who, text, data, hidden=record.hidden, record=record)


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
        # calling (and rolling) another player's fate check is a GM's, never a player's
        require_owner_or_gm(ctx, (await investigator(ctx, refs[0])).owner)
        owner, record = await record_for(ctx, refs[0])
        return await about_record(ctx, owner, record, "fate", lambda: call_fate(
            ctx, owner, record, threshold, roll_now))
    record = await own_record(ctx)
    return await about_record(ctx, ctx.user, record, "fate",
                              lambda: own_fate(ctx, record, threshold))


async def own_fate(ctx: Context, record: CheckRecord, threshold: int | None
                   ) -> list[Outgoing]:
    """The investigator's `.fate`: roll the called one (or, without GMs, call and roll)."""
    called = record.fate
    if called is not None and called.result is not None:
        raise CommandError("plurk.error.fate_done", who=record.character)
    if called is not None:
        if threshold is not None:  # the caller's threshold stands
            raise CommandError("plurk.error.fate_usage")
        return await roll_fate(ctx, ctx.user, record, called)
    if not referees(ctx, record):  # no GM, or none was sent this hidden check
        return await call_fate(ctx, ctx.user, record, threshold, True)
    raise CommandError("plurk.error.fate_not_called")


async def call_fate(ctx: Context, owner: str, record: CheckRecord, threshold: int | None,
                    roll_now: bool) -> list[Outgoing]:
    """Call a fate check on a crit or fumble (PL-4), and roll it when asked to."""
    original = record.check
    if record.fate is not None and record.fate.result is not None:
        raise CommandError("plurk.error.fate_done", who=record.character)
    if not (original.crit or original.fumble):
        raise RuleError("plurk.fate_not_allowed", stat=original.stat, raw=original.raw)
    if roll_now and record.hidden:
        refuse_platform_dice_when_hidden(ctx)  # before the call is stored
    called = FateCall(plurk.FATE_THRESHOLD if threshold is None else threshold, ctx.user)
    record = replace(record, fate=called)
    await store_record(ctx, owner, record)
    if roll_now:
        return await roll_fate(ctx, owner, record, called)
    text = ctx.t("plurk.fate.called", who=record.character, threshold=called.threshold,
                 stat=original.stat or ctx.t("plurk.check.unnamed"))
    data = {"kind": "plurk_fate_call", "user": owner, "character": record.character,
            "threshold": called.threshold}
    # a hidden check's call tells the player (and the GMs) privately: a fate check is
    # only called after a crit or a fumble, so a public call would reveal that
    return deliver(ctx, owner, record.character, text, data, hidden=record.hidden,
                   record=record)


async def roll_fate(ctx: Context, owner: str, record: CheckRecord, called: FateCall
                    ) -> list[Outgoing]:
    """Roll the fate check ``called`` on ``record`` and keep its result on the record."""
    original = record.check
    if record.hidden:
        refuse_platform_dice_when_hidden(ctx)
    result = plurk.fate_check(original, ctx.dice, threshold=called.threshold)
    await store_record(ctx, owner, replace(record, fate=replace(called, result=FateRoll(
        result.raw, result.success, result.certain, result.final_success))))
    effect = ctx.t(f"plurk.fate.certain_{result.certain}" if result.certain
                   else "plurk.fate.stands")
    text = ctx.t("plurk.fate.line", who=record.character,
                 trigger=ctx.t(f"plurk.fate.trigger_{result.trigger.replace('+', '_')}"),
                 raw=result.raw, cmp="≥" if result.success else "<",
                 threshold=result.threshold, outcome=outcome_text(ctx, result.success),
                 effect=effect, final=outcome_text(ctx, result.final_success))
    data = {"kind": "plurk_fate", "user": owner, "character": record.character,
            "raw": result.raw, "threshold": result.threshold, "success": result.success,
            "trigger": result.trigger, "certain": result.certain,
            "original_success": result.original_success, "final_success": result.final_success}
    return deliver(ctx, owner, record.character, text, data, hidden=record.hidden,
                   record=record)


# --------------------------------------------------------------------------- GM consent (PL-10)

ALLOW_WORDS = frozenset({"allow", "允許", "允许"})
"""`.ra allow …`: the GM's consent (PL-10), see :func:`allow`."""
DENY_WORDS = frozenset({"deny", "拒絕", "拒绝"})
ON_WORDS = frozenset({"on", "yes", "true", "1", "開", "开", "開啟", "开启", "允許", "允许"})
OFF_WORDS = frozenset({"off", "no", "false", "0", "關", "关", "關閉", "关闭", "禁止"})
KIND_WORDS: dict[str, str] = {
    "take10": "take10", "t10": "take10", "取10": "take10",
    "take20": "take20", "t20": "take20", "取20": "take20",
    "push": "push", "孤注": "push", "孤注一擲": "push", "孤注一掷": "push",
}


async def allow(ctx: Context, args: str) -> list[Outgoing]:
    """PL-10 「若局方允許」: `.ra allow` shows what players may do unasked and what waits
    for the GM; `.ra allow <investigator>` (GM) lets the waiting request happen — a
    take 10 / take 20 is rolled at once, a push may then be rolled by its player with
    `.push`; `.ra allow take10|take20|push on|off` (GM) sets whether players must ask."""
    parts = args.split()
    if parts and parts[0].casefold() in KIND_WORDS:
        return await set_consent(ctx, parts)
    if len(parts) > 1:
        raise CommandError("plurk.error.allow_usage")
    pending = await pending_requests(ctx)
    if not parts and not (ctx.is_gm and len(pending) == 1):
        return [await consent_status(ctx, pending)]
    require_gm(ctx)
    owner = await request_owner(ctx, parts[0]) if parts else pending[0][0]
    return await grant(ctx, owner)


async def deny(ctx: Context, args: str) -> list[Outgoing]:
    """PL-10: `.ra deny [investigator]` (GM) drops a waiting take 10 / take 20 / push
    request (bare: the only one waiting)."""
    require_gm(ctx)
    parts = args.split()
    if len(parts) > 1:
        raise CommandError("plurk.error.allow_usage")
    pending = await pending_requests(ctx)
    if parts:
        owner = await request_owner(ctx, parts[0])
    elif len(pending) == 1:
        owner = pending[0][0]
    else:
        raise CommandError("plurk.error.no_request" if not pending
                           else "plurk.error.request_ambiguous")
    request = (await consent_doc(ctx)).requests.get(owner)
    if request is not None:
        await drop_request(ctx, owner)
        text = ctx.t("plurk.consent.denied", who=request.character,
                     mode=ctx.t(f"plurk.consent.kind_{request.mode}"))
        return [ctx.reply(text, {"kind": "plurk_consent", "user": owner, "allowed": False,
                                 "mode": request.mode})]
    return await answer_push(ctx, owner, allowed=False)


async def pending_requests(ctx: Context) -> list[tuple[str, str, str]]:
    """(owner, character, kind) of every request waiting for the GM, oldest kind first.
    A hidden check's push only for the GMs who may allow it (its :func:`referees`):
    for anyone else — a GM seated since too — even "one request waits" (a bare
    `.ra allow` granting it, `.ra deny` finding it) would say the check failed."""
    requests = (await consent_doc(ctx)).requests
    found = [(owner, r.character, r.mode) for owner, r in requests.items()]
    found += [(owner, r.character, "push") for owner, r in (await last_checks(ctx)).items()
              if r.push_request and owner not in requests
              and (not r.hidden or ctx.user in referees(ctx, r))]
    return found


async def request_owner(ctx: Context, ref: str) -> str:
    """The player a `.ra allow` / `.ra deny` names: ``@player`` or one of their characters."""
    user = mention(ref)
    if user is not None:
        return user
    return (await investigator(ctx, ref)).owner


async def grant(ctx: Context, owner: str) -> list[Outgoing]:
    """Let ``owner``'s waiting request happen."""
    request = (await consent_doc(ctx)).requests.get(owner)
    if request is not None:
        character = None
        if request.character_id is not None:
            character = await sheet_by_id(ctx, request.character_id, owner)
            if character is None:
                raise CommandError("core.error.no_character", who=request.character)
        await drop_request(ctx, owner)
        args = parse_check(request.args)
        prefix = ctx.t("plurk.consent.allowed", who=request.character,
                       mode=ctx.t(f"plurk.consent.kind_{request.mode}"))
        return await run_check(ctx, owner, character, args, hidden=request.hidden,
                               prefix=prefix)
    return await answer_push(ctx, owner, allowed=True)


async def answer_push(ctx: Context, owner: str, *, allowed: bool) -> list[Outgoing]:
    """The GM's answer to ``owner``'s waiting push (PL-10): allowed, their player may
    now `.push`; denied, the request is dropped."""
    record = (await last_checks(ctx)).get(owner)
    if record is None:
        raise CommandError("plurk.error.no_request")

    async def work() -> list[Outgoing]:
        # inside about_record: of a hidden check, "no request waits" says it succeeded
        if not record.push_request:
            raise CommandError("plurk.error.no_request")
        await store_record(ctx, owner, replace(
            record, push_request=False, push_allowed=allowed or record.push_allowed))
        if allowed:
            text = ctx.t("plurk.consent.push_allowed", who=record.character,
                         stat=record.check.stat or ctx.t("plurk.check.unnamed"))
        else:
            text = ctx.t("plurk.consent.denied", who=record.character,
                         mode=ctx.t("plurk.consent.kind_push"))
        return deliver(ctx, owner, record.character, text,
                       {"kind": "plurk_consent", "user": owner, "allowed": allowed,
                        "mode": "push"}, hidden=record.hidden, record=record)

    return await about_record(ctx, owner, record, "push", work)


async def set_consent(ctx: Context, parts: list[str]) -> list[Outgoing]:
    """`.ra allow take10 on|off`: whether players may take 10 / take 20 / push unasked."""
    require_gm_if_any(ctx)
    if len(parts) != 2 or parts[1].casefold() not in ON_WORDS | OFF_WORDS:
        raise CommandError("plurk.error.allow_usage")
    kind = KIND_WORDS[parts[0].casefold()]
    consent = await consent_doc(ctx)
    ctx.uow.save(CONSENT, replace(consent, allow=replace(
        consent.allow, **{kind: parts[1].casefold() in ON_WORDS})))
    return [await consent_status(ctx, await pending_requests(ctx))]


async def consent_status(ctx: Context, pending: list[tuple[str, str, str]]) -> Outgoing:
    """What players may do without asking, and what waits for the GM — in the channel,
    so not the push a hidden check waits for: a push is only asked after a failure,
    and the GMs who may allow it were told privately (PL-7, issue 22)."""
    last = await last_checks(ctx)
    pending = [(owner, who, kind) for owner, who, kind in pending
               if not (kind == "push" and owner in last and last[owner].hidden)]
    allow = asdict((await consent_doc(ctx)).allow)
    state = ctx.t("core.references.list_sep").join(
        ctx.t("plurk.consent.setting", mode=ctx.t(f"plurk.consent.kind_{kind}"),
              state=ctx.t("plurk.consent.free" if on else "plurk.consent.ask"))
        for kind, on in allow.items())
    lines = [ctx.t("plurk.consent.status" if ctx.gm_users else "plurk.consent.status_no_gm",
                   settings=state)]
    lines += [ctx.t("plurk.consent.waiting", who=who, mode=ctx.t(f"plurk.consent.kind_{kind}"))
              for _owner, who, kind in pending]
    return ctx.reply("\n".join(lines), {"kind": "plurk_consent_settings", **allow,
                                         "pending": [list(p) for p in pending]})
