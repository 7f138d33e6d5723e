"""The process's router: the common commands of :mod:`bot.handlers` and every rule
system's declared table, read by discovery (:func:`bot.systems.plugins`) — no module
registers anything by being imported."""

from __future__ import annotations

from functools import cache

from bot import handlers, systems
from bot.router import CORE, CommandTable, Router


@cache
def router() -> Router:
    return Router(CommandTable.collect(CORE, handlers),
                  [plugin.commands for plugin in systems.plugins().values()])


def register(plugin: systems.SystemPlugin) -> None:
    """Add a rule system from outside ``bot.systems`` (a test's) and route its commands."""
    systems.register(plugin)
    router().add_table(plugin.commands)


def unregister(system_id: str) -> None:
    systems.unregister(system_id)
    router().remove_table(system_id)
