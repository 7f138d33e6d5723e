"""How the battle reads in the channel: turns, the order, initiative, BP and
refusals in the reader's words, and the structured data for JSON consumers."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Awaitable, Callable
from typing import Any

from bot.context import Context
from bot.kits.encounter import band_text, for_gms, life_text, with_skipped
from bot.messages import Outgoing
from bot.systems.plurk_trpg.rendering import readable_amount, text_or
from bot.systems.plurk_trpg.table import ping_next_actor
from rules.errors import RuleError
from rules.kits.encounter import Life, band
from rules.systems import plurk_trpg as plurk
from rules.systems.plurk_trpg import Battle, Combatant, TurnEvent

Handler = Callable[[Context], Awaitable[list[Outgoing]]]

_LABELLED_KINDS = {"plurk.impale_not_allowed", "plurk.knockout_not_allowed"}


def sep(ctx: Context) -> str:
    """The separator of a list in a battle line (``、`` / ``, ``)."""
    return ctx.t("plurk.battle.sep")


def action_label(ctx: Context, key: str) -> str:
    """A BP action in the reader's words (``attack`` → 攻擊), else as the GM named it."""
    return text_or(ctx, f"plurk.battle.action.{key}", key)


def readable(handler: Handler) -> Handler:
    """Refusals name actions and attack kinds in the reader's words (`攻擊`, not
    the rules' key `attack`); everything else of the rules' error passes as is."""

    @functools.wraps(handler)
    async def wrapper(ctx: Context) -> list[Outgoing]:
        try:
            return await handler(ctx)
        except RuleError as exc:
            params = dict(readable_amount(ctx, exc).params)
            if isinstance(params.get("action"), str):
                params["action"] = action_label(ctx, params["action"])
            if exc.code == "plurk.bp_unknown_action" and isinstance(params.get("known"), str):
                params["known"] = sep(ctx).join(
                    action_label(ctx, k) for k in params["known"].split(", "))
            if exc.code in _LABELLED_KINDS and isinstance(params.get("kind"), str):
                params["kind"] = text_or(ctx, f"plurk.battle.attack_kind.{params['kind']}",
                                         params["kind"])
            raise RuleError(exc.code, **params) from exc

    return wrapper


def hp_text(ctx: Context, hp: int | None) -> str:
    """HP, or a word for "not known" (an enemy defined without HP)."""
    return ctx.t("plurk.battle.hp_unknown") if hp is None else str(hp)


def shows_numbers(ctx: Context, c: Combatant) -> bool:
    """Whether the channel may see a combatant's numbers: an enemy's are the GMs'
    (issue 24) — at a table with a GM the channel sees its health band."""
    return c.kind != "enemy" or not ctx.gm_users


def enemy_band(ctx: Context, c: Combatant) -> str:
    """An enemy's health as the channel reads it (unhurt … dead); its HP is the GMs'.
    Without a known maximum (no HP given, a battle stored before issue 24) only down
    and dead can be told."""
    if c.life is not Life.ACTIVE or (c.hp is not None and c.hp_max is not None):
        return band_text(ctx, band(c.hp or 0, c.hp_max or 0, c.life))
    return ctx.t("plurk.battle.hp_unknown")


def fallen_name(ctx: Context, c: Combatant) -> str:
    """A name, with its state when the combatant is down or dead (the kit's words)."""
    if c.life is Life.ACTIVE:
        return c.name
    return ctx.t("encounter.turn.fallen", name=c.name, life=life_text(ctx, c.life))


def hp_shown(ctx: Context, c: Combatant, numbers: bool) -> str:
    """HP — or, for an enemy, the band unless ``numbers``."""
    return enemy_band(ctx, c) if c.kind == "enemy" and not numbers else hp_text(ctx, c.hp)


def status_tags(ctx: Context, c: Combatant, life: bool = True) -> str:
    """Position, parry, stuck weapon, knock-out and — unless the HP column already says
    it (``life`` False: an enemy's band) — down or dead."""
    tags = []
    if c.position is not None:
        tags.append(ctx.t("plurk.battle.tag.position", cell=c.position))
    if c.parry_against is not None:
        tags.append(ctx.t("plurk.battle.tag.parry", enemy=c.parry_against,
                          durability=hp_text(ctx, c.weapon_durability)))
    if c.stuck_in is not None:
        tags.append(ctx.t("plurk.battle.tag.stuck", target=c.stuck_in))
    if c.unconscious:
        tags.append(ctx.t("plurk.battle.tag.unconscious", turns=c.unconscious))
    elif c.life is not Life.ACTIVE and life:
        tags.append(ctx.t("plurk.battle.tag.down", life=life_text(ctx, c.life)))
    if c.kind == "enemy":
        tags.append(ctx.t("plurk.battle.tag.enemy"))
    elif c.kind == "ally":
        tags.append(ctx.t("plurk.battle.tag.ally"))
    return "".join(tags)


def combatant_line(ctx: Context, battle: Battle, index: int, numbers: bool = False) -> str:
    """One place in the order: an enemy's BP (from its 靈巧) only in the GMs' copy, and
    nobody's once dead (they have no turn to spend it on)."""
    c = battle.combatants[index]
    shown = numbers or shows_numbers(ctx, c)
    bp = ctx.t("plurk.battle.line_bp", bp=c.bp, bp_max=c.bp_max) \
        if shown and c.life is not Life.DEAD else ""
    return ctx.t(
        "plurk.battle.line",
        marker="▶" if index == battle.current else "　",
        index=index + 1, name=c.name, initiative=c.initiative, bp=bp,
        hp=hp_shown(ctx, c, shown), tags=status_tags(ctx, c, life=shown),
    )


def turn_line(ctx: Context, battle: Battle, numbers: bool = False) -> str:
    """Whose turn it is, with its BP — an enemy's BP (from its 靈巧) only in the GMs'
    copy (``numbers``)."""
    actor = battle.actor
    if not (numbers or shows_numbers(ctx, actor)):
        return ctx.t("plurk.battle.turn_bare", round=battle.round, actor=actor.name)
    return ctx.t("plurk.battle.turn", round=battle.round, actor=actor.name, bp=actor.bp,
                 bp_max=actor.bp_max)


def state_text(ctx: Context, battle: Battle, numbers: bool = False) -> str:
    """Whose turn it is, then every combatant in initiative order (an enemy's HP as a
    band unless ``numbers``: the GMs' copy)."""
    lines = [turn_line(ctx, battle, numbers)]
    lines.extend(combatant_line(ctx, battle, i, numbers) for i in range(len(battle.combatants)))
    return "\n".join(lines)


def hides_numbers(ctx: Context, battle: Battle) -> bool:
    """Whether a reply about this battle has an enemy's numbers to keep from the channel."""
    return any(not shows_numbers(ctx, c) for c in battle.combatants)


def turn_event_text(ctx: Context, battle: Battle, event: TurnEvent | None,
                    numbers: bool = False) -> str:
    """What a change of turn means for the table: who ended, a new round, whose turn
    it is now (an enemy's BP only with ``numbers``) and whom the turn passed over, with
    their state (the kit's line) — or, when everyone is down or unconscious, that
    nobody can act."""
    if event is None:
        return ""
    parts = []
    if event.previous is not None and event.reason not in ("removed", "fallen"):
        # who ended it: named as typed, not "the GM" (a table without GMs skips too)
        parts.append(ctx.t(f"plurk.battle.turn_reason.{event.reason}", actor=event.previous,
                           who=ctx.name))
    if not battle.actor.can_act:
        # the rules went once round the order and found no one able to act; the
        # turn "returning" to a fallen combatant would only confuse the table
        parts.append(ctx.t("plurk.battle.nobody_can_act", round=battle.round))
        return "\n".join(parts)
    if event.new_round:
        parts.append(ctx.t("plurk.battle.new_round", round=event.round))
    parts.append(with_skipped(ctx, turn_line(ctx, battle, numbers), [
        (name, passed_life(battle.get(name))) for name in event.skipped]))
    return "\n".join(parts)


def passed_life(c: Combatant) -> Life:
    """The state a combatant was passed over in: its own, or down — a knock-out whose
    last lost turn this was has just ended."""
    return c.life if c.life is not Life.ACTIVE else Life.DOWN


def spend_text(ctx: Context, battle: Battle, event: plurk.BpEvent,
               numbers: bool = False) -> str:
    """BP spent on an action — an enemy's BP before and after only in the GMs' copy
    (``numbers``), the cost is the table's — and the change of turn it caused, if any."""
    action = action_label(ctx, event.action)
    if numbers or shows_numbers(ctx, battle.get(event.actor)):
        text = ctx.t("plurk.battle.spent", actor=event.actor, action=action, cost=event.cost,
                     before=event.bp_before, after=event.bp_after)
    else:
        text = ctx.t("plurk.battle.spent_bare", actor=event.actor, action=action,
                     cost=event.cost)
    if event.turn is not None:
        text += "\n" + turn_event_text(ctx, battle, event.turn, numbers)
    return text


def initiative_line(ctx: Context, index: int, c: Combatant, numbers: bool = False) -> str:
    """A combatant's place in the order and the initiative rolls that put it there —
    an enemy's roll and 靈巧 only in the GMs' copy (``numbers``)."""
    if not (numbers or shows_numbers(ctx, c)):
        return ctx.t("plurk.battle.init_line_bare", index=index + 1, name=c.name,
                     initiative=c.initiative)
    rolls = c.initiative_rolls
    detail = ctx.t("plurk.battle.init_roll", raw=rolls[0], dex=f"{c.dex:+d}") if rolls else ""
    if len(rolls) > 1:
        detail += ctx.t("plurk.battle.init_reroll", rolls=sep(ctx).join(map(str, rolls[1:])))
    if not rolls:
        detail = ctx.t("plurk.battle.init_given")
    return ctx.t("plurk.battle.init_line", index=index + 1, name=c.name, initiative=c.initiative,
                 detail=detail)


def kept_from_channel(ctx: Context, public: str, secret: str, data: dict[str, Any],
                      public_data: dict[str, Any] | None = None) -> list[Outgoing]:
    """A battle reply with enemy numbers: the channel gets ``public`` (its data names the
    event only unless ``public_data`` is given, and still pings the next actor), the GMs
    ``secret`` with the data (``bot.kits.encounter.for_gms``)."""
    shown = {"kind": "plurk.battle", "event": data["event"]} if public_data is None \
        else public_data
    outs = for_gms(ctx, public, shown, secret, data)
    return [ping_next_actor(ctx, out, data) if out.to == "channel" else out for out in outs]


def spent_replies(ctx: Context, battle: Battle, lines: list[str], event: plurk.BpEvent,
                  data: dict[str, Any]) -> list[Outgoing]:
    """``lines`` and the spending ``event`` in one reply. An enemy's BP before and after
    (issue 24: its numbers) are the GMs': the channel reads the action and its cost, the
    GMs the spending line with its BP, privately, and the whole data
    (``kept_from_channel``) — not the lines they just read in the channel again."""
    public = "\n".join([*lines, spend_text(ctx, battle, event)])
    if shows_numbers(ctx, battle.get(event.actor)):
        return [ctx.reply(public, data)]
    return kept_from_channel(ctx, public, spend_text(ctx, battle, event, numbers=True), data,
                             public_data=data)


def battle_data(event: str, battle: Battle | None, **extra: Any) -> dict[str, Any]:
    """Structured result for JSON consumers (console ``--json``): the event, the
    event's own numbers and the whole battle state after the command."""
    data: dict[str, Any] = {"kind": "plurk.battle", "event": event}
    data.update({k: _plain(v) for k, v in extra.items()})
    data["battle"] = battle_json(battle) if battle is not None else None
    return data


def battle_json(battle: Battle) -> dict[str, Any]:
    """A battle in replies' data, as they have always shown it: ``version: 1``, then
    the rules' fields in order, tuples as lists."""
    return {"version": 1, **_plain(battle)}


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {k: _plain(v) for k, v in dataclasses.asdict(value).items()}
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value
