"""The command table of the `plurk` system: its commands register here.

Every plurk command's replies pass through :func:`notify_next_actor`: a reply that
announces whose turn it is now (a `.pass`, a turn that ended by itself, the start of
a battle) asks the adapter to notify that investigator's player — a mention that
pings them alone, on the platforms that notify (Discord, QQ) — and, at a table with a
GM, loses the enemies' numbers from its channel data (:func:`without_enemy_numbers`).
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
            return notify_next_actor(outs)

        return declare(*names, **options)(notifying)

    return mark


#: What the channel's data keeps of an enemy at a table with a GM (issue 24: its
#: numbers are the GMs'; the text shows a health band).
PUBLIC_ENEMY_FIELDS = ("name", "kind", "position", "owner")


def without_enemy_numbers(out: Outgoing) -> Outgoing:
    """A channel reply whose data carries the battle, with every enemy reduced to its
    public fields (its HP, armour, 靈巧, 體質, BP and rolls are the GMs', who get them in
    their private copy); private messages and other data pass unchanged."""
    data = out.data
    if out.to != "channel" or not data or not isinstance(data.get("battle"), dict):
        return out
    battle = data["battle"]
    combatants = [
        {k: c[k] for k in PUBLIC_ENEMY_FIELDS if k in c} if c.get("kind") == "enemy" else c
        for c in battle.get("combatants", [])]
    return replace(out, data={**data, "battle": {**battle, "combatants": combatants}})


def notify_next_actor(outs: list[Outgoing]) -> list[Outgoing]:
    """Each channel reply that announces a turn pings its actor's player the kit's way
    (``bot.kits.encounter.ping``)."""
    return [ping(out, next_actor_owner(out.data)) if out.to == "channel" else out
            for out in outs]


def next_actor_owner(data: dict[str, Any] | None) -> str | None:
    """The player of the investigator whose turn a battle reply announces, if any."""
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
    return current.get("owner") if current.get("kind") == "investigator" else None
