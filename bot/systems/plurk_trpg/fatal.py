"""The fatal events of PL-12, whatever command caused the loss.

A loss that would bring HP or SAN to 0 is *not* applied: it is recorded as
pending in the channel state ``plurk.fatal`` and the investigator may intervene
(spend CP, the loss is cancelled) or accept it (the loss is applied).
:func:`fatal_event` records one; :func:`resolve_fatal` settles one. A feature
that must undo something of its own on resolution (the battle keeps HP in its
own state) registers a hook with :func:`on_fatal_resolved`.

Everything here runs inside the command's one transaction: a refusal raised
later in the same command rolls the pending record back with the rest.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import Any, Literal

from bot.context import Context
from bot.errors import CommandError
from bot.kits.references import sheet_by_id, sheet_by_name
from bot.systems.plurk_trpg.characters import resource_value, set_resource
from bot.systems.plurk_trpg.documents import FATAL_EVENTS, FatalEvent
from bot.systems.plurk_trpg.system import CP, FATAL_RESOURCES, resource_name
from bot.unit_of_work import Sheet
from rules.errors import RuleError
from rules.systems import plurk_trpg as plurk

Outcome = Literal["accepted", "intervened"]

FatalHook = Callable[[Context, FatalEvent, Outcome], Awaitable[list[str]]]
_HOOKS: dict[str, FatalHook] = {}


def on_fatal_resolved(source: str) -> Callable[[FatalHook], FatalHook]:
    """Register ``hook(ctx, record, outcome)`` for fatal events of ``source``.

    It runs in the resolving command's transaction after the sheet was handled
    (``"accepted"``: the loss is on the sheet; ``"intervened"``: CP spent, the sheet
    unchanged) and returns extra reply lines. The battle uses it to restore the
    HP its own state already took (``cancel_damage``) when the investigator intervened.
    """

    def register(hook: FatalHook) -> FatalHook:
        _HOOKS[source] = hook
        return hook

    return register


async def intervention_cost(ctx: Context) -> int:
    """The CP an intervention costs in this channel (5 unless the GM set more)."""
    return (await ctx.uow.load(FATAL_EVENTS)).cost


async def set_intervention_cost(ctx: Context, cost: int) -> None:
    """GM: the channel's intervention cost (never below the rules' minimum)."""
    if cost < plurk.INTERVENTION_MIN_COST:
        raise RuleError("plurk.intervention_cost_too_low", cost=cost,
                        minimum=plurk.INTERVENTION_MIN_COST)
    ctx.uow.save(FATAL_EVENTS, replace(await ctx.uow.load(FATAL_EVENTS), cost=cost))


async def pending_fatal(ctx: Context) -> list[FatalEvent]:
    """Every unresolved fatal event of the channel, oldest first."""
    return (await ctx.uow.load(FATAL_EVENTS)).events


async def fatal_event(
    ctx: Context,
    owner: str,
    character_name: str,
    resource: str,
    loss: int,
    *,
    source: str,
    current: int | None = None,
    details: Mapping[str, Any] | None = None,
    character_id: int | None = None,
) -> list[str]:
    """Record a PL-12 fatal event and return the localised lines announcing it.

    Call it instead of applying a loss of ``loss`` (> 0) to ``resource`` (``體力`` /
    ``理智``, any alias) of the investigator ``character_name`` owned by ``owner``
    when ``plurk.is_fatal(current, loss)``. The sheet is NOT changed: the loss waits
    in the channel state until the investigator intervenes (``.intervene``: CP spent,
    loss cancelled) or accepts (``.accept``: loss applied to the sheet then, from the
    sheet's value at that time); a GM may resolve it for them.

    ``source`` names the caller (``"check"``, ``"sanity"``, ``"hp"``, ``"battle"`` …);
    a hook registered with :func:`on_fatal_resolved` for that source runs on
    resolution. ``current`` is the value the loss was judged against (default: the
    sheet's). ``details`` is stored as is (JSON) for that hook, e.g. the battle's
    ``DamageResult`` fields and combatant name, so it can ``cancel_damage`` later.
    ``character_id`` (``Character.id``) names the sheet when the caller knows it
    (the battle, whose combatant may carry a name the sheet no longer has);
    otherwise it is looked up by owner and name. The record keeps the id, so a
    ``.pc rename`` while the event is pending does not orphan it.

    The record is a :class:`~bot.systems.plurk_trpg.documents.FatalEvent`; its
    ``sheet`` is the sheet's value when the event was raised: when the sheet no longer
    shows it at settlement, the event has expired (:func:`expire`).

    The lines tell the channel whether intervention is possible now (≥ 10 CP held)
    and how to resolve; add them to the reply that reported the hit / check.
    """
    name = resource_name(resource)
    if name not in FATAL_RESOURCES:
        raise CommandError("plurk.error.not_resource", name=resource)
    character = await _owned_character(ctx, owner, character_name, character_id)
    await refuse_if_pending(ctx, character, name)
    before = resource_value(character, name) if current is None else current
    events = await ctx.uow.load(FATAL_EVENTS)
    record = FatalEvent(
        id=events.next, owner=owner, character=character.name, character_id=character.id,
        resource=name, loss=loss, before=before, after=max(0, before - loss),
        sheet=(character.stats or {}).get(name), source=source, details=dict(details or {}))
    ctx.uow.save(FATAL_EVENTS, replace(events, events=[*events.events, record],
                                       next=events.next + 1))
    cp = resource_value(character, CP)
    cost = events.cost
    lines = [ctx.t("plurk.fatal.announce", pc=character.name, resource=name,
                   before=before, after=record.after, loss=loss, id=record.id)]
    if cp >= plurk.INTERVENTION_MIN_CP and cp >= cost:
        lines.append(ctx.t("plurk.fatal.can_intervene", pc=character.name, cp=cp, cost=cost))
    else:
        lines.append(ctx.t("plurk.fatal.cannot_intervene", pc=character.name, cp=cp,
                           cost=cost, minimum=plurk.INTERVENTION_MIN_CP))
    return lines


async def pending_for(ctx: Context, character: Sheet, resource: str) -> list[FatalEvent]:
    """The pending fatal events of one sheet's ``resource``, oldest first."""
    return [e for e in await pending_fatal(ctx) if e.resource == resource and e.is_of(character)]


async def refuse_if_pending(ctx: Context, character: Sheet, resource: str) -> None:
    """PL-12, issue 12 item 2: while a fatal event of a sheet's HP (SAN) waits, no
    other loss of that value is taken — a second event would be judged on a value
    the first may still change. The command is refused naming the event to settle
    (the battle reports such a hit itself and changes nothing either)."""
    pending = await pending_for(ctx, character, resource)
    if pending:
        event = pending[-1]
        raise CommandError("plurk.error.fatal_pending", pc=character.name, resource=resource,
                           id=event.id, loss=event.loss)


async def stale_value(ctx: Context, record: FatalEvent) -> int | None:
    """The sheet's value now when it is no longer the one the event was raised on
    (a `.hp +3`, a `.st 體力 3` or a battle's write in between), else None."""
    character = await _owned_character(ctx, record.owner, record.character,
                                       record.character_id)
    then = record.sheet  # the sheet's value when the event was raised
    now = (character.stats or {}).get(record.resource)
    if then is None or now is None or int(now) == then:
        return None
    return int(now)


async def expire(ctx: Context, record: FatalEvent, now: int) -> list[str]:
    """Drop a stale event (PL-12, issue 12 item 2): its loss was judged on a value the
    sheet no longer has, so neither applying it (`體力損失 10：3 → 0`) nor spending CP
    on it is right. The GM states the loss again if it still stands."""
    events = await ctx.uow.load(FATAL_EVENTS)
    ctx.uow.save(FATAL_EVENTS, replace(events, events=[
        e for e in events.events if e.id != record.id]))
    return [ctx.t("plurk.fatal.expired", id=record.id, pc=record.character,
                  resource=record.resource,
                  before=record.before if record.sheet is None else record.sheet,
                  now=now, loss=record.loss)]


async def _owned_character(ctx: Context, owner: str, name: str,
                           character_id: int | None = None) -> Sheet:
    """The sheet of a record: by id when known (renames keep it), else owner + name."""
    character = None
    if character_id is not None:
        character = await sheet_by_id(ctx, character_id, owner)
    if character is None:
        character = await sheet_by_name(ctx, owner, name)
    if character is None:
        raise CommandError("core.error.no_character", who=name)
    return character


async def resolve_fatal(
    ctx: Context, event_id: int, outcome: Outcome, *, cost: int | None = None
) -> list[str]:
    """Settle a pending fatal event: apply the loss, or spend CP and cancel it.

    Intervention goes through ``plurk.intervene`` (≥ 5 CP, holding ≥ 10, the
    channel's cost at least); its refusals leave the event pending. An event whose
    value changed on the sheet since it was raised is expired instead (:func:`expire`:
    no loss, no CP, no hook). Returns the reply lines, including the hook's for the
    event's source.
    """
    events = await ctx.uow.load(FATAL_EVENTS)
    record = next((e for e in events.events if e.id == event_id), None)
    if record is None:
        raise CommandError("plurk.error.no_fatal")
    character = await _owned_character(ctx, record.owner, record.character,
                                       record.character_id)
    now = await stale_value(ctx, record)
    if now is not None:
        return await expire(ctx, record, now)
    others = [e for e in events.events if e.id != event_id]
    which = "_id" if others else ""  # name the event when another one is still pending
    if outcome == "intervened":
        minimum = events.cost
        spend = minimum if cost is None else cost
        if spend < minimum:
            raise RuleError("plurk.intervention_cost_too_low", cost=spend, minimum=minimum)
        result = plurk.intervene(resource_value(character, CP), spend)
        set_resource(character, CP, result.cp_after)
        lines = [ctx.t(f"plurk.fatal.intervened{which}", id=record.id, pc=character.name,
                       resource=record.resource,
                       loss=record.loss, cost=result.cost, cp_before=result.cp_before,
                       cp_after=result.cp_after)]
    else:
        applied = plurk.apply_loss(resource_value(character, record.resource), record.loss)
        set_resource(character, record.resource, applied.after)
        lines = [ctx.t(f"plurk.fatal.accepted{which}", id=record.id, pc=character.name,
                       resource=record.resource,
                       loss=record.loss, before=applied.before, after=applied.after)]
    ctx.uow.save(FATAL_EVENTS, replace(events, events=others))
    hook = _HOOKS.get(record.source)
    if hook is not None:
        lines.extend(await hook(ctx, record, outcome))
    if others:
        lines.append(ctx.t("plurk.fatal.still_pending", ids=" ".join(
            f"#{e.id} {e.character}" for e in others)))
    return lines


async def lose(
    ctx: Context, character: Sheet, resource: str, loss: int, *, source: str
) -> tuple[list[str], bool]:
    """Apply an HP/SAN loss to a sheet, or record a fatal event instead (PL-12).

    Returns (reply lines, fatal). A non-fatal loss is applied at once; a fatal one
    leaves the sheet unchanged until ``.accept`` / ``.intervene``.
    """
    await refuse_if_pending(ctx, character, resource)
    current = resource_value(character, resource)
    if plurk.is_fatal(current, loss):
        lines = await fatal_event(ctx, character.owner, character.name, resource, loss,
                                  source=source, current=current, character_id=character.id)
        return lines, True
    set_resource(character, resource, plurk.apply_loss(current, loss).after)
    return [], False
