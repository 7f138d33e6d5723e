"""`plurk` points: `.ap` (PL-11), `.cp`, `.hp` / `.san` and fatal events (PL-12).

The AP pool is one JSON document per channel (``plurk.ap``: points and the GM's
costs); HP, SAN and CP live on the investigators' sheets under the names the
system declares (體力, 理智, 因果點數). A loss that would bring HP or SAN to 0 is
not applied: it becomes a pending fatal event (``bot.systems.plurk_trpg.fatal.fatal_event``)
settled by `.intervene` (spend CP, cancel the loss) or `.accept` (apply it).
The core runs each command under the channel's lock in one transaction, so two
spends can never both pass a pool that only covers one.
"""

from __future__ import annotations

import re
from dataclasses import asdict
from typing import Any

from bot.context import Context
from bot.errors import CommandError
from bot.kits.references import (
    active_sheet,
    investigator,
    mention,
    require_owner_or_gm,
    target_or_self,
)
from bot.messages import Outgoing
from bot.permissions import require_gm_if_any
from bot.systems.plurk_trpg.battle_state import fighting_as
from bot.systems.plurk_trpg.characters import resource_value, set_resource
from bot.systems.plurk_trpg.commands.battle_turns import pass_fallen
from bot.systems.plurk_trpg.documents import ACTION_POINTS, FatalEvent
from bot.systems.plurk_trpg.fatal import (
    Outcome,
    expire,
    fatal_event,
    intervention_cost,
    lose,
    pending_fatal,
    pending_for,
    refuse_if_pending,
    resolve_fatal,
    set_intervention_cost,
    stale_value,
)
from bot.systems.plurk_trpg.rendering import readable_amount, text_or
from bot.systems.plurk_trpg.system import CP, FATAL_RESOURCES, HP, SAN, require_plurk
from bot.systems.plurk_trpg.table import command, ping_next_actor
from bot.unit_of_work import Sheet
from rules.errors import RuleError
from rules.systems import plurk_trpg as plurk

GRANT_WORDS = frozenset({"grant", "give", "add", "給", "给", "加"})
SET_WORDS = frozenset({"set", "設", "设", "設定", "设定"})
COST_WORDS = frozenset({"cost", "costs", "費用", "费用", "消耗"})
SPEND_WORDS = frozenset({"spend", "use", "花", "用", "消費", "消费"})
AWARD_WORDS = frozenset({"award", "grant", "give", "給", "给", "獎勵", "奖励"})
SHOW_WORDS = frozenset({"", "show", "list", "查看"})


MAX_AMOUNT = 1_000_000
"""The largest amount (and resulting value) of AP, CP, HP and SAN — as `.st` allows."""

_AMOUNT = re.compile(r"^[+-]?\d{1,12}$")


def number(text: str, usage: str, **params: Any) -> int:
    """A whole number argument (``|N| ≤ MAX_AMOUNT``), or the command's usage.

    ``params`` are the usage message's own (``command`` for ``resource_usage``):
    every refusal is rendered with all of its template's fields."""
    if not _AMOUNT.match(text.strip()):
        raise CommandError(usage, **params)
    return bounded(int(text))


def bounded(value: int, *, result: bool = False) -> int:
    """Refuse an amount — or, with ``result``, the value it would lead to — beyond
    ±MAX_AMOUNT, so nothing huge reaches a sheet or the AP pool."""
    if abs(value) > MAX_AMOUNT:
        key = "plurk.error.result_too_big" if result else "plurk.error.amount_too_big"
        raise CommandError(key, amount=value, limit=MAX_AMOUNT)
    return value


# --------------------------------------------------------------------------- AP (PL-11)


def action_label(ctx: Context, key: str) -> str:
    """The localised name of a default action (observe → 觀察/搜索), else as the GM wrote it."""
    return text_or(ctx, f"plurk.ap.action_{key}", key)


def costs_text(ctx: Context, pool: plurk.ApPool) -> str:
    return ctx.t("core.list.sep").join(f"{action_label(ctx, k)} {v}" for k, v in pool.costs.items())


def ap_data(pool: plurk.ApPool, event: plurk.ApEvent | None = None) -> dict[str, Any]:
    # the pool's fields by name: `dataclasses.asdict` costs a twentieth of an `.ap spend`
    # (tests/bot/systems/plurk/test_documents.py checks that it is the same)
    data: dict[str, Any] = {"kind": "plurk_ap", "points": pool.points,
                            "costs": dict(pool.costs)}
    if event is not None:
        data.update(op=event.op, action=event.action, cost=event.cost, before=event.before,
                    after=event.after, exhausted=event.exhausted)
    return data


@command("ap", "行動點數", "行动点数", "行動點", "行动点")
async def ap(ctx: Context) -> list[Outgoing]:
    """PL-11, the group's AP: `.ap` show; `.ap grant N` / `.ap set N` / `.ap cost 移動 3`
    (GM); `.ap 觀察` or `.ap spend 移動` (anyone, the configured cost); an explicit
    cost `.ap spend 開鎖 2` is the GM's. Never below 0; reaching 0 forces the scene on."""
    try:
        return await ap_command(ctx)
    except RuleError as exc:
        raise readable_amount(ctx, exc) from exc


async def ap_command(ctx: Context) -> list[Outgoing]:
    require_plurk(ctx)
    pool = await ctx.uow.load(ACTION_POINTS)
    verb, _, rest = ctx.args.strip().partition(" ")
    verb, rest = verb.casefold(), rest.strip()
    if verb in SHOW_WORDS and not rest:
        return [ctx.reply(ctx.t("plurk.ap.show", points=pool.points, costs=costs_text(ctx, pool)),
                          ap_data(pool))]
    if verb in GRANT_WORDS | SET_WORDS:
        require_gm_if_any(ctx)
        amount = number(rest, "plurk.error.ap_usage")
        change = plurk.grant_ap if verb in GRANT_WORDS else plurk.set_ap
        pool, event = change(pool, amount)
        bounded(event.after, result=True)
        ctx.uow.save(ACTION_POINTS, pool)
        return [ctx.reply(ctx.t(f"plurk.ap.{event.op}", amount=amount, before=event.before,
                                after=event.after, who=ctx.name), ap_data(pool, event))]
    if verb in COST_WORDS:
        if not rest:
            return [ctx.reply(ctx.t("plurk.ap.costs", costs=costs_text(ctx, pool)),
                              ap_data(pool))]
        require_gm_if_any(ctx)
        action, _, cost = rest.rpartition(" ")
        if not action.strip():
            raise CommandError("plurk.error.ap_usage")
        pool = plurk.set_ap_cost(pool, action.strip(), number(cost, "plurk.error.ap_usage"))
        ctx.uow.save(ACTION_POINTS, pool)
        return [ctx.reply(ctx.t("plurk.ap.cost_set", costs=costs_text(ctx, pool)),
                          ap_data(pool))]
    spend = rest if verb in SPEND_WORDS else ctx.args.strip()
    return [spend_reply(ctx, pool, spend, await spender(ctx))]


async def spender(ctx: Context) -> str:
    """Who spends the AP, as `.rg` names its roller: a player's active character
    (艾莉絲 spends, not the account alice); a GM, or a player without a character,
    by display name."""
    character = None if ctx.is_gm else await ctx.uow.active_sheet(ctx.user)
    return character.name if character is not None else ctx.name


def spend_reply(ctx: Context, pool: plurk.ApPool, text: str, who: str) -> Outgoing:
    parts = text.split()
    if not parts or len(parts) > 2:
        raise CommandError("plurk.error.ap_usage")
    if _AMOUNT.match(parts[0]):  # `.ap spend 999`: a number, not an action to set a cost for
        raise CommandError("plurk.error.ap_number_action", text=parts[0][:30])
    cost = None
    if len(parts) == 2:
        require_gm_if_any(ctx)
        cost = number(parts[1], "plurk.error.ap_usage")
    try:
        pool, event = plurk.spend_ap(pool, parts[0], cost=cost)
    except RuleError as exc:  # name the actions as the players do, not by their keys
        params = dict(exc.params)
        if exc.code == "plurk.ap_insufficient":
            params["action"] = action_label(ctx, params["action"])
        elif exc.code == "plurk.ap_unknown_action":
            params["known"] = ctx.t("core.references.list_sep").join(
                action_label(ctx, key) for key in pool.costs)
        else:
            raise
        raise RuleError(exc.code, **params) from None
    ctx.uow.save(ACTION_POINTS, pool)
    lines = [ctx.t("plurk.ap.spent", who=who, action=action_label(ctx, event.action or ""),
                   cost=event.cost, before=event.before, after=event.after)]
    if event.exhausted:
        lines.append(ctx.t("plurk.ap.exhausted"))
    return ctx.reply("\n".join(lines), ap_data(pool, event))


# --------------------------------------------------------------------------- CP (PL-12)


@command("cp", "因果", "因果點數", "因果点数")
async def cp(ctx: Context) -> list[Outgoing]:
    """PL-12: `.cp [investigator]` shows CP; `.cp award <investigator> N` (GM) awards
    (a negative N corrects, never below 0). In a channel without GMs a player awards
    only their own investigator: another's CP is that player's (issue 22)."""
    require_plurk(ctx)
    parts = ctx.args.split()
    if parts and parts[0].casefold() in AWARD_WORDS:
        require_gm_if_any(ctx)
        if len(parts) != 3:
            raise CommandError("plurk.error.cp_usage")
        character = await investigator(ctx, parts[1])
        require_owner_or_gm(ctx, character.owner)
        amount = number(parts[2], "plurk.error.cp_usage")
        before = resource_value(character, CP)
        after = bounded(plurk.award_cp(before, amount), result=True)
        set_resource(character, CP, after)
        return [ctx.reply(ctx.t("plurk.cp.awarded", pc=character.name, amount=f"{amount:+d}",
                                before=before, after=after),
                          {"kind": "plurk_cp", "character": character.name, "before": before,
                           "after": after})]
    if len(parts) > 1:
        raise CommandError("plurk.error.cp_usage")
    character = await (investigator(ctx, parts[0]) if parts else active_sheet(ctx))
    value = resource_value(character, CP)
    return [ctx.reply(ctx.t("plurk.cp.show", pc=character.name, cp=value),
                      {"kind": "plurk_cp", "character": character.name, "cp": value})]


# --------------------------------------------------------------------------- HP / SAN


async def change_resource(ctx: Context, resource: str) -> list[Outgoing]:
    """`.hp` / `.san`: show, `-N` loss (fatal at 0 → pending), `+N` gain, `=N` set.

    The player changes their own investigator, a GM anyone's (`.hp -5 @bob`).
    Showing one (`.hp @bob`) is reading, not acting: anyone's, as `.cp @bob` and
    `.party` show the same values (docs/systems/plurk-commands.md).
    """
    require_plurk(ctx)
    parts = ctx.args.replace("+ ", "+").replace("- ", "-").replace("= ", "=").split()
    amounts = [p for p in parts if p[:1] in "+-=" or p.isdigit()]
    refs = [p for p in parts if p not in amounts]
    if len(amounts) > 1 or len(refs) > 1:
        raise CommandError("plurk.error.resource_usage", command=ctx.command)
    if amounts:
        character = await target_or_self(ctx, refs[0] if refs else None)
    else:
        character = await (investigator(ctx, refs[0]) if refs else active_sheet(ctx))
    before = resource_value(character, resource)
    data: dict[str, Any] = {"kind": "plurk_resource", "character": character.name,
                            "resource": resource, "before": before}
    if not amounts:  # a value a fatal event waits on says so: the fight reads it down
        shown = ctx.t("plurk.resource.show", pc=character.name, resource=resource, value=before)
        return [ctx.reply("\n".join([shown, *still_waiting(
            ctx, character, await pending_for(ctx, character, resource))]),
            {**data, "after": before})]
    text = amounts[0]
    digits = text[1:] if text[:1] in "+-=" else text
    if not digits.isdigit():  # `=abc`, `--3`: name what could not be read
        raise CommandError("plurk.error.bad_amount", text=text[:30], command=ctx.command)
    value = number(digits, "plurk.error.resource_usage", command=ctx.command)
    fighter = await fighting_as(ctx, character) if resource == HP else None
    if fighter is not None and fighter.dead and not text.startswith("-") and not ctx.is_gm:
        raise CommandError("plurk.error.battle.heal_dead", name=fighter.name)
    cap = None
    if fighter is not None and fighter.hp_max is not None and not text.startswith("-"):
        wanted = value
        value = max(0, min(value, fighter.hp_max - before)) if text.startswith("+") else \
            min(value, fighter.hp_max)  # issue 24: no heal past the HP it entered with
        cap = fighter.hp_max if value != wanted else None
    if text.startswith("-"):
        lines, fatal = await lose(ctx, character, resource, value, source=resource_source(resource))
        if fatal:
            return [ctx.reply("\n".join(lines), {**data, "loss": value, "fatal": True,
                                                 "after": before})]
    elif text.startswith("+"):
        set_resource(character, resource, bounded(before + value, result=True))
    else:
        set_resource(character, resource, value)
    after = resource_value(character, resource)
    lines = [ctx.t("plurk.resource.changed", pc=character.name, resource=resource,
                   before=before, after=after)]
    if cap is not None:  # said, not silent (issue 24 play-test 7)
        lines[0] += ctx.t("plurk.resource.capped", max=cap)
    waiting = await pending_for(ctx, character, resource)
    if after != before:  # a heal while a fatal event waits: that event no longer holds
        for event in waiting:
            lines += await expire(ctx, event, after)
    else:  # nothing changed: the event still waits, say which
        lines += still_waiting(ctx, character, waiting)
    return [ctx.reply("\n".join(lines), {**data, "after": after, "fatal": False})]


def still_waiting(ctx: Context, character: Sheet, waiting: list[FatalEvent]) -> list[str]:
    """The line naming the newest fatal event ``waiting`` on a value, if any: .accept
    or .intervene settles it (issue 24 play-test: `.hp` read 12 while the fight read 0)."""
    return [ctx.t("plurk.resource.pending", pc=character.name, id=waiting[-1].id)] \
        if waiting else []


async def guard_sheet(
    ctx: Context, character: Sheet, name: str, old: int | None, new: int
) -> list[str] | None:
    """The sheet guard of `.st`: HP within the fight's bounds, then PL-12's fatal losses."""
    if name == HP:
        await hp_within_fight(ctx, character, old, new)
    return await fatal_losses_on_the_sheet(ctx, character, name, old, new)


async def hp_within_fight(ctx: Context, character: Sheet, old: int | None, new: int) -> None:
    """`.st 體力` in a fight follows `.hp` (issue 24): only a GM raises a dead fighter's HP,
    and nobody sets it above the HP it entered with (`.st` refuses: it writes what was
    typed or nothing)."""
    fighter = await fighting_as(ctx, character)
    if fighter is None or (old is not None and new <= old):
        return
    if fighter.dead and not ctx.is_gm:
        raise CommandError("plurk.error.battle.heal_dead", name=fighter.name)
    if fighter.hp_max is not None and new > fighter.hp_max:
        raise CommandError("plurk.error.battle.hp_over_max", name=fighter.name,
                           max=fighter.hp_max, value=new)


async def fatal_losses_on_the_sheet(
    ctx: Context, character: Sheet, name: str, old: int | None, new: int
) -> list[str] | None:
    """`.st 體力-8` is a loss like `.hp -8`: one that would reach 0 is a fatal event
    (PL-12), held until `.intervene` / `.accept`, not a plain write."""
    if name not in FATAL_RESOURCES or old is None or new >= old:
        return None
    await refuse_if_pending(ctx, character, name)  # one pending event per value (PL-12)
    if not plurk.is_fatal(old, old - new):
        return None
    return await fatal_event(ctx, character.owner, character.name, name, old - new,
                             source=resource_source(name), current=old)


def resource_source(resource: str) -> str:
    return "hp" if resource == HP else "san"


@command("hp", "體力", "体力")
async def hp(ctx: Context) -> list[Outgoing]:
    """`.hp`, `.hp -5 [investigator]`, `.hp +3`, `.hp =12` on 體力 (PL-12 at 0)."""
    return await change_resource(ctx, HP)


@command("san", "理智")
async def san(ctx: Context) -> list[Outgoing]:
    """`.san`, `.san -3 [investigator]`, `.san +2`, `.san =50` on 理智 (PL-12 at 0)."""
    return await change_resource(ctx, SAN)


# --------------------------------------------------------------------------- fatal events


async def pick_event(ctx: Context, ref: str | None) -> FatalEvent:
    """The pending fatal event a resolution command means (PL-12, issue 12 item 2).

    `#3` names it; an investigator or `@player` picks their *newest* — the one just
    announced; nothing picks the newest of the speaker's active character (else of
    any of theirs), or — for a GM without events of their own — the newest when all
    pending events are one character's.
    """
    events = await pending_fatal(ctx)
    if not events:
        raise CommandError("plurk.error.no_fatal")
    if ref is not None and ref.startswith("#"):
        wanted = number(ref[1:], "plurk.error.fatal_usage")
        found = [e for e in events if e.id == wanted]
    elif ref is not None:
        user = mention(ref)
        if user is not None:
            found = [e for e in events if e.owner == user]
        else:
            character = await investigator(ctx, ref)
            found = [e for e in events if e.is_of(character)]
    else:
        found = [e for e in events if e.owner == ctx.user]
        active = await ctx.uow.active_sheet(ctx.user)
        if active is not None and any(e.is_of(active) for e in found):
            found = [e for e in found if e.is_of(active)]
        if not found and ctx.is_gm:
            sheets = {(e.owner, e.character_id, e.character) for e in events}
            if len(sheets) > 1:
                raise CommandError("plurk.error.fatal_ambiguous", ids=" ".join(
                    f"#{e.id}" for e in events))
            found = events
    if not found:
        raise CommandError("plurk.error.no_fatal")
    event = found[-1]
    require_owner_or_gm(ctx, event.owner)
    return event


async def settle(ctx: Context, ref: str | None, outcome: Outcome,
                 cost: str | None = None) -> list[Outgoing]:
    """Resolve the event ``ref`` picks (:func:`pick_event`) and report it; ``cost`` is
    the CP the investigator offers for an intervention (digits as typed). A stale
    event (its value changed since) is expired instead, and the reply says so."""
    event = await pick_event(ctx, ref)
    stale = await stale_value(ctx, event)
    lines = await resolve_fatal(ctx, event.id, outcome,
                                cost=None if cost is None else int(cost))
    turn, passed = await pass_fallen(ctx)  # died on their own turn: it passes
    return [ping_next_actor(ctx, ctx.reply("\n".join([*lines, *turn]), {
        "kind": "plurk_fatal", "outcome": "expired" if stale is not None else outcome,
        "id": event.id, "character": event.character, "resource": event.resource,
        "loss": event.loss, "source": event.source}), passed)]


@command("intervene", "干預", "干预", "常世干預", "常世干预")
async def intervene(ctx: Context) -> list[Outgoing]:
    """PL-12 常世干預: `.intervene [cost] [investigator|#id]` spends CP (≥ 5, the
    channel's cost at least, only while holding ≥ 10) and cancels the loss;
    `.intervene cost N` (GM) sets the channel's cost."""
    require_plurk(ctx)
    parts = ctx.args.split()
    if parts and parts[0].casefold() in COST_WORDS:
        if len(parts) == 1:
            return [ctx.reply(ctx.t("plurk.fatal.cost", cost=await intervention_cost(ctx)))]
        require_gm_if_any(ctx)
        if len(parts) != 2:
            raise CommandError("plurk.error.fatal_usage")
        await set_intervention_cost(ctx, number(parts[1], "plurk.error.fatal_usage"))
        return [ctx.reply(ctx.t("plurk.fatal.cost_set", cost=int(parts[1])))]
    costs = [p for p in parts if p.isdigit()]
    refs = [p for p in parts if not p.isdigit()]
    if len(costs) > 1 or len(refs) > 1:
        raise CommandError("plurk.error.fatal_usage")
    return await settle(ctx, refs[0] if refs else None, "intervened",
                        costs[0] if costs else None)


@command("accept", "承受")
async def accept(ctx: Context) -> list[Outgoing]:
    """PL-12: `.accept [investigator|#id]` lets the fatal loss happen (applied now)."""
    require_plurk(ctx)
    parts = ctx.args.split()
    if len(parts) > 1:
        raise CommandError("plurk.error.fatal_usage")
    return await settle(ctx, parts[0] if parts else None, "accepted")


@command("fatal", "致命")
async def fatal(ctx: Context) -> list[Outgoing]:
    """`.fatal`: the pending fatal events of the channel and how to settle them."""
    require_plurk(ctx)
    lines: list[str] = []
    for event in await pending_fatal(ctx):  # stale ones are dropped, and said so
        now = await stale_value(ctx, event)
        if now is not None:
            lines += await expire(ctx, event, now)
    events = await pending_fatal(ctx)
    if not events:
        return [ctx.reply("\n".join([*lines, ctx.t("plurk.fatal.none")]))]
    lines.append(ctx.t("plurk.fatal.list_header", cost=await intervention_cost(ctx)))
    lines += [ctx.t("plurk.fatal.list_item", id=e.id, pc=e.character,
                    resource=e.resource, loss=e.loss, before=e.before)
              for e in events]
    return [ctx.reply("\n".join(lines), {"kind": "plurk_fatal_list",
                                         "events": [asdict(e) for e in events]})]
