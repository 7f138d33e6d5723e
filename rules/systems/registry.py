"""Every game system the bot knows, by id: found, not listed.

Each package under ``rules.systems`` is one system and exports ``SYSTEM`` (a
``GameSystem``); plain modules (``base``, ``registry``) are not systems. Adding
a system is adding its package.
"""

from __future__ import annotations

import importlib
import pkgutil

import rules.systems
from rules.kits.game_system import GameSystem


def discover() -> dict[str, GameSystem]:
    """``{id: system}`` for every package of ``rules.systems``, in package-name order."""
    found: dict[str, GameSystem] = {}
    for info in sorted(pkgutil.iter_modules(rules.systems.__path__), key=lambda i: i.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{rules.systems.__name__}.{info.name}")
        system = getattr(module, "SYSTEM", None)
        if not isinstance(system, GameSystem):
            raise TypeError(f"rules.systems.{info.name} exports no SYSTEM (a GameSystem)")
        if system.id in found:
            raise ValueError(f"two rule systems share the id {system.id!r}")
        found[system.id] = system
    return found


SYSTEMS: dict[str, GameSystem] = discover()


def get(system_id: str) -> GameSystem | None:
    return SYSTEMS.get(system_id.casefold())
