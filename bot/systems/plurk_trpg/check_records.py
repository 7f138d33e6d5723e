"""The last check of each player, and what of a hidden one may reach the channel.

The last check is kept in the channel state ``plurk.checks`` so that a push
(PL-10) or a fate check (PL-4) can refer to it in a later command — and survives
a restart. Secret rolls (PL-7) are never stored there: a later push or fate reply
in the channel would tell the players what the GM rolled. A player's *hidden*
check is stored (they may push it), and everything about it afterwards — push
and fate results, the GM's fate call, and every refusal — goes privately to the
asker / the player and the GMs who were sent the result (the record's ``told``),
while the channel reads one neutral line (:func:`about_record`). A GM seated since
is a player to that check (issue 22): no detail, no call, no consent to give.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from bot.context import Context
from bot.errors import CommandError
from bot.kits import hidden as hidden_results
from bot.kits.references import investigator, mention
from bot.kits.refusals import refusal_text
from bot.messages import Outgoing
from bot.systems.plurk_trpg.documents import (
    CONSENT,
    LAST_CHECKS,
    CheckRecord,
    CheckRequest,
    Consent,
)
from rules.errors import RuleError
from rules.systems import plurk_trpg as plurk
from rules.systems.plurk_trpg.checks import check_pushable

# --------------------------------------------------------------------------- records


async def last_checks(ctx: Context) -> dict[str, CheckRecord]:
    """Every player's last-check record, by owner."""
    return (await ctx.uow.load(LAST_CHECKS)).last


async def remember(ctx: Context, owner: str, character: str, result: plurk.CheckResult,
                   *, hidden: bool = False, character_id: int | None = None,
                   reason: str | None = None) -> None:
    """Keep a player's last check for a later push or fate check (with the sheet's
    id, so a renamed character still finds it)."""
    await store_record(ctx, owner, CheckRecord(
        character=character, character_id=character_id, check=result, hidden=hidden,
        reason=reason, told=hidden_results.told(ctx, owner) if hidden else []))


async def store_record(ctx: Context, owner: str, record: CheckRecord) -> None:
    """Replace ``owner``'s last-check record."""
    checks = await ctx.uow.load(LAST_CHECKS)
    ctx.uow.save(LAST_CHECKS, replace(checks, last={**checks.last, owner: record}))


def still_open(record: CheckRecord) -> bool:
    """Whether its player may still act on a last-check record: a push (PL-10) or a
    push waiting for the GM, or a fate check (PL-4) after a crit or fumble not yet
    rolled. A hidden record counts as open whatever it holds (PL-7): a refusal that
    depended on the hidden result would tell the channel about it."""
    if record.hidden or record.push_request:
        return True
    original = record.check
    if (original.crit or original.fumble) and (record.fate is None
                                               or record.fate.result is None):
        return True
    if record.pushed:
        return False
    try:
        check_pushable(original)
    except RuleError:
        return False
    return True


async def require_replaceable(ctx: Context, owner: str, who: str) -> None:
    """Only its roller or a GM replaces a player's open last check (issue 22): another
    player's `.rg` naming them would take away their push or fate check."""
    if owner == ctx.user or ctx.is_gm:
        return
    record = (await last_checks(ctx)).get(owner)
    if record is not None and still_open(record):
        raise CommandError("plurk.error.rg_open_check", who=who)


async def own_record(ctx: Context) -> CheckRecord:
    """The speaker's last-check record; refuses without one."""
    record = (await last_checks(ctx)).get(ctx.user)
    if record is None:
        raise CommandError("plurk.error.no_last_check", who=ctx.name)
    return record


async def record_for(ctx: Context, ref: str) -> tuple[str, CheckRecord]:
    """(owner, last-check record) of the investigator ``ref`` names."""
    character = await investigator(ctx, ref)
    record = (await last_checks(ctx)).get(character.owner)
    if record is None or (mention(ref) is None
                          and not record.is_of(character.owner, character)):
        raise CommandError("plurk.error.no_last_check", who=character.name)
    return character.owner, record


# --------------------------------------------------------------------------- hidden checks (PL-7)


def referees(ctx: Context, record: CheckRecord) -> list[str]:
    """The GMs who may act on a last-check record and read what follows it: every GM
    for a public check; for a hidden one only those of the GMs who were sent its
    result (``told``) who are GMs still — one seated since is a player to it (issue
    22). A record kept before ``told`` existed has none: its player alone."""
    if not record.hidden:
        return ctx.gm_users
    return [gm for gm in ctx.gm_users if gm in record.told]


def deliver(ctx: Context, owner: str, who: str, text: str, data: dict[str, Any],
            *, hidden: bool, record: CheckRecord | None = None) -> list[Outgoing]:
    """Post a check's result, or — for a hidden check — hand it to the hidden-result
    kit (PL-7: nothing of the result reaches the channel; a push or fate of a hidden
    check replaces the announcement with :func:`hidden_followup`, see
    :func:`about_record`). A step on a kept ``record`` goes to its :func:`referees`."""
    gms = referees(ctx, record) if record is not None else None
    return hidden_results.deliver(ctx, owner, who, text, data, hidden=hidden,
                                  kind="plurk_hidden_check", gms=gms)


def hidden_followup(ctx: Context, owner: str, record: CheckRecord, action: str) -> Outgoing:
    """The channel's only line about a push / fate of a hidden check (PL-7): the same
    words whether it was refused, called or rolled, and whatever came out — so
    not even "it could be pushed" (the original failed) reaches the channel. It says
    "and the GMs" only when a GM reads it (a table without GMs, or whose GMs were
    seated after the check, has none)."""
    who = record.character
    key = ("plurk.hidden.followup" if any(gm != owner for gm in referees(ctx, record))
           else "plurk.hidden.followup_no_gm")
    return ctx.reply(ctx.t(key, who=who, action=ctx.t(f"plurk.hidden.action_{action}")),
                     {"kind": "plurk_hidden_followup", "user": owner, "character": who,
                      "action": action})


async def about_record(ctx: Context, owner: str, record: CheckRecord, action: str,
                       work: Callable[[], Awaitable[list[Outgoing]]]) -> list[Outgoing]:
    """Run a push / fate step on a last-check record.

    For a hidden record (PL-7) every refusal is itself a clue — "only failed checks
    can be pushed" says the check succeeded, "the raw die was 12" gives the die —
    so a refusal goes to the asker privately and the channel gets the neutral
    :func:`hidden_followup`, exactly as when the step succeeds. Refusals are raised
    before anything is written, so answering instead of raising changes nothing.
    """
    if not record.hidden or ctx.incoming.is_private:
        return await work()
    if ctx.user != owner and ctx.user not in referees(ctx, record):
        # even "the raw die was 12", or a call that goes through where a refusal would
        # not, tells a third player about the check — or a GM seated after it, who was
        # not sent it (issue 22): they learn only that it was hidden
        return [ctx.private(ctx.user, refusal_text(ctx, CommandError(
            "plurk.error.hidden_not_yours", who=record.character)),
            {"kind": "plurk_hidden_refusal", "user": owner})]
    announce = hidden_followup(ctx, owner, record, action)
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
        raise CommandError("core.error.hidden_platform_dice")


# --------------------------------------------------------------------------- GM consent (PL-10)

async def consent_doc(ctx: Context) -> Consent:
    """What players may do unasked (``allow``) and the take-10 / take-20 checks waiting
    for the GM (``requests``, by owner)."""
    return await ctx.uow.load(CONSENT)


async def needs_consent(ctx: Context, kind: str) -> bool:
    """Whether the speaker must ask the GM before ``kind`` (take10 / take20 / push):
    only when the channel has a GM, the speaker is not one, and the GM has not
    allowed it for everyone (`.ra allow take10 on`)."""
    if not ctx.gm_users or ctx.is_gm:
        return False
    return not getattr((await consent_doc(ctx)).allow, kind)


def refuse_without_consent(ctx: Context, kind: str) -> None:
    """For the commands that do not queue a request (`.rm`, `.rg`)."""
    raise CommandError("plurk.error.consent_needed", mode=ctx.t(f"plurk.consent.kind_{kind}"))


async def store_request(ctx: Context, owner: str, request: CheckRequest) -> None:
    consent = await consent_doc(ctx)
    ctx.uow.save(CONSENT, replace(consent, requests={**consent.requests, owner: request}))


async def drop_request(ctx: Context, owner: str) -> None:
    consent = await consent_doc(ctx)
    ctx.uow.save(CONSENT, replace(consent, requests={
        k: v for k, v in consent.requests.items() if k != owner}))
