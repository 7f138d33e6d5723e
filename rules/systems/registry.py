"""Every game system the bot knows, by id."""

from __future__ import annotations

from rules.systems import plurk
from rules.systems.base import GameSystem

SYSTEMS: dict[str, GameSystem] = {system.id: system for system in (plurk.SYSTEM,)}


def get(system_id: str) -> GameSystem | None:
    return SYSTEMS.get(system_id.casefold())
