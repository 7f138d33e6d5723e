"""Rule systems as plugins: one package per system, found by discovery.

A system's chat side is one package `bot/systems/<id>/` (the `plurk` system's is
`plurk_trpg`, see :func:`plugins`) that exports ``PLUGIN``, a
:class:`SystemPlugin` — the small interface the core, `.help` and the adapters use:
its rules (``GameSystem``), its command table, the adapter verbs it answers
(Discord's `/check` → the system's own check command), the commands `.help` shows first, the
guard that turns some sheet changes into rule events, its typed state documents
and its catalog folder. Adding a system is adding a package; nothing else lists
them. See docs/architecture.md, "Adding a rule system".
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.i18n import Catalog
from bot.router import CommandTable
from rules.kits.game_system import GameSystem

if TYPE_CHECKING:
    from bot.context import Context
    from bot.documents import Doc
    from bot.unit_of_work import Sheet

SheetGuard = Callable[["Context", "Sheet", str, "int | None", int],
                      Awaitable["list[str] | None"]]
"""Called by `.st` before it writes a value: None lets the write happen; a list of
reply lines means the system took the change over (a loss that the system's
rules make an event of its own, or a value it wrote itself — a bound); an empty
list means the guard wrote the entries itself and `.st` lists them as plain
changes (ace: 體質 also writes the capped 生命); raising ``CommandError`` refuses
the change."""


@dataclass(frozen=True)
class SystemPlugin:
    game: GameSystem
    commands: CommandTable
    verbs: Mapping[str, str] = field(default_factory=dict)
    """Adapter verbs (``check``, ``initiative``) → the name of this system's command."""
    help_first: tuple[str, ...] = ()
    """Commands `.help` lists right after the dice rolls (a new player's first needs)."""
    sheet_guard: SheetGuard | None = None
    documents: tuple[Doc[Any], ...] = ()
    """Typed state documents (channel and character) the system stores."""
    locales: Path | None = None
    """Folder of ``<locale>/*.toml`` catalogs holding this system's ``<id>.*`` keys."""
    layer_of: tuple[str, ...] = ()
    """A tactical layer (v6) is played only on top of one of these systems: a channel
    plays ``<base>+<id>`` (`.system ap20+v6`), the base's commands and the layer's."""
    hooks: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    """Services a system offers the layers played with it, or a layer its base, by
    name (``bot.kits.layers`` names them); neither side imports the other."""
    describe: Callable[[Context], Awaitable[str]] | None = None
    """What `.system` adds about the table's own options (coc7: its house rule)."""

    @property
    def id(self) -> str:
        return self.game.id


@cache
def plugins() -> dict[str, SystemPlugin]:
    """Every system package below ``bot.systems``, by id (imported once).

    The id is the one the package's ``GameSystem`` declares, not the package's name:
    they are the same but for ``plurk_trpg``, whose id stays ``plurk`` (what players
    type and stored channels carry) while its package is named apart from the Plurk
    platform's ``adapters/plurk``."""
    found: dict[str, SystemPlugin] = {}
    for module in pkgutil.iter_modules(__path__):
        if not module.ispkg:
            continue
        plugin = importlib.import_module(f"{__name__}.{module.name}").PLUGIN
        if plugin.id in found:
            raise ValueError(f"system package {module.name!r} declares {plugin.id!r} again")
        found[check(plugin).id] = plugin
    return found


def catalog(override_file: Path | None = None) -> Catalog:
    """The catalog of the common texts and every system's."""
    found = plugins().values()
    return Catalog(override_file, [p.locales for p in found if p.locales is not None], found)


def get(system_id: str) -> SystemPlugin | None:
    """The plugin of ``system_id``; for a layered id (``ap20+v6``) its base's, when every
    layer may be played on that base."""
    base, *layers = system_id.casefold().split("+")
    found = plugins().get(base)
    if found is None or found.layer_of:
        return found if not layers else None
    for layer in layers:
        plugin = plugins().get(layer)
        if plugin is None or base not in plugin.layer_of:
            return None
    return found


def layers(system_id: str) -> list[SystemPlugin]:
    """The layers a channel plays on its base (``ap20+v6`` → [v6]), in order."""
    found = [plugins().get(layer) for layer in system_id.casefold().split("+")[1:]]
    return [p for p in found if p is not None]


def check(plugin: SystemPlugin) -> SystemPlugin:
    """Refuse a plugin whose parts name another owner: its command table, or a
    document key outside its ``<id>.`` namespace."""
    if plugin.commands.owner != plugin.id:
        raise ValueError(f"{plugin.id}: its command table belongs to {plugin.commands.owner}")
    for doc in plugin.documents:
        if doc.owner != plugin.id:
            raise ValueError(f"{plugin.id}: document key {doc.key!r} is not {plugin.id}.*")
    return plugin


def register(plugin: SystemPlugin) -> None:
    """Add a system that lives outside this package (a test's, an operator's own);
    :func:`bot.routes.register` routes its commands too."""
    plugins()[check(plugin).id] = plugin


def unregister(system_id: str) -> None:
    plugins().pop(system_id, None)


async def guarded(ctx: Context, character: Sheet, name: str, old: int | None,
                  new: int) -> list[str] | None:
    """Ask the channel's system about a sheet change (see :data:`SheetGuard`)."""
    plugin = get(ctx.channel.system)
    if plugin is None or plugin.sheet_guard is None:
        return None
    return await plugin.sheet_guard(ctx, character, name, old, new)
