"""The command table of the `plurk` system: its commands register here.

Every plurk command's replies pass through :func:`notify_next_actor`: a reply that
announces whose turn it is now (a `.pass`, a turn that ended by itself, the start of
a battle) asks the adapter to notify that investigator's player — a mention that
pings them alone, on the platforms that notify (Discord, QQ) — or, on an enemy's
turn, the GMs who play it; and, at a table with a GM, loses the enemies' numbers
from its channel data (:func:`without_enemy_numbers`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bot.context import Context
from bot.kits.encounter import ping
from bot.messages import Outgoing
from bot.router import Handler
from bot.router import command as declare


def command(*names: str, **options: Any) -> Callable[[Handler], Handler]:
    """Declare a plurk command (:func:`bot.router.command`) whose replies pass through
    :func:`notify_next_actor`."""

    def mark(handler: Handler) -> Handler:
        @functools.wraps(handler)
        async def notifying(ctx: Context) -> list[Outgoing]:
            outs = await handler(ctx)
            if ctx.gm_users:
                outs = [without_enemy_numbers(out) for out in outs]
            return notify_next_actor(ctx, outs)

        return declare(*names, **options)(notifying)

    return mark


#: What the channel's data keeps of an enemy at a table with a GM (issue 24: its
#: numbers are the GMs'; the text shows a health band).
PUBLIC_ENEMY_FIELDS = ("name", "kind", "position", "owner")


#: What the channel's data loses of an enemy's action (a BP spending, a move): its BP
#: before and after are the GMs', as its BP in the turn line.
ENEMY_BP_FIELDS = ("bp_before", "bp_after")


def without_enemy_numbers(out: Outgoing) -> Outgoing:
    """A channel reply whose data carries the battle (``battle``, or ``final`` at its
    end), with every enemy reduced to its public fields (its HP, armour, 靈巧, 體質, BP
    and rolls are the GMs', who get them in their private copy) and an enemy's action
    (``bp``, ``move``) without its BP; private messages and other data pass unchanged."""
    data = out.data
    if out.to != "channel" or not data:
        return out
    battles = {key: value for key, value in data.items()
               if isinstance(value, dict) and isinstance(value.get("combatants"), list)}
    enemies = {c.get("name") for battle in battles.values() for c in battle["combatants"]
               if c.get("kind") == "enemy"}
    if not enemies:
        return out
    kept = dict(data)
    for key, record in data.items():
        if key in battles:
            kept[key] = {**record, "combatants": [
                {k: c[k] for k in PUBLIC_ENEMY_FIELDS if k in c}
                if c.get("name") in enemies else c for c in record["combatants"]]}
        elif isinstance(record, dict) and record.get("actor") in enemies:
            kept[key] = {k: v for k, v in record.items() if k not in ENEMY_BP_FIELDS}
    return replace(out, data=kept)


def notify_next_actor(ctx: Context, outs: list[Outgoing]) -> list[Outgoing]:
    """Each channel reply that announces a turn pings its actor's player the kit's way
    (:func:`ping_next_actor`)."""
    return [ping_next_actor(ctx, out, out.data) if out.to == "channel" else out
            for out in outs]


def ping_next_actor(ctx: Context, out: Outgoing, data: dict[str, Any] | None) -> Outgoing:
    """``out`` pinging the actor whose turn ``data`` announces: an investigator's
    player, or — an enemy's turn — the GMs who play it (``bot.kits.encounter.ping``);
    unchanged when it announces no turn."""
    actor = next_actor(data)
    return out if actor is None else ping(out, actor.get("owner"), ctx.gm_users)


def next_actor(data: dict[str, Any] | None) -> dict[str, Any] | None:
    """The combatant (as the data writes it) whose turn a battle reply announces, if
    any."""
    if not data or data.get("kind") != "plurk.battle" or not data.get("battle"):
        return None
    turn = data.get("turn") or (data.get("bp") or {}).get("turn")
    if turn is None and data.get("event") != "start":
        return None
    battle = data["battle"]
    combatants = battle.get("combatants") or []
    if not combatants or battle.get("current") is None:
        return None
    current = combatants[battle["current"]]
    if turn is not None and turn.get("current") != current.get("name"):
        return None
    return dict(current)
