"""The process's router: the common commands of :mod:`bot.handlers` and every rule
system's table, known by the names its manifest declares (:func:`bot.systems.declared`)
and loaded when one of its commands must run or be listed — no module registers
anything by being imported, and no system is imported before a table plays it."""

from __future__ import annotations

from functools import cache, partial

from bot import handlers, systems
from bot.router import CORE, CommandTable, DeclaredTable, Router


def _table(system_id: str) -> CommandTable:
    plugin = systems.plugin(system_id)
    if plugin is None:  # unregistered since: it routes nothing more
        return CommandTable(system_id)
    return plugin.commands


@cache
def router() -> Router:
    return Router(CommandTable.collect(CORE, handlers),
                  [DeclaredTable(m.id, m.commands, partial(_table, m.id))
                   for m in systems.declared().values()])


def register(plugin: systems.SystemPlugin) -> None:
    """Add a rule system from outside ``bot.systems`` (a test's) and route its commands."""
    systems.register(plugin)
    router().add_table(plugin.commands)


def unregister(system_id: str) -> None:
    systems.unregister(system_id)
    router().remove_table(system_id)
