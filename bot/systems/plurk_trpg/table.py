"""The command table of the `plurk` system: its commands register here.

Every plurk command's replies pass through :func:`notify_next_actor`: a reply that
announces whose turn it is now (a `.pass`, a turn that ended by itself, the start of
a battle) asks the adapter to notify that investigator's player — a mention that
pings them alone, on the platforms that notify (Discord, QQ).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
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
            return notify_next_actor(await handler(ctx))

        return declare(*names, **options)(notifying)

    return mark


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
