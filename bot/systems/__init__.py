"""Rule systems as plugins: one package per system, found by discovery.

A system's chat side is one package `bot/systems/<id>/` (the `plurk` system's is
`plurk_trpg`, see :func:`manifests`) that exports ``PLUGIN``, a
:class:`SystemPlugin` — the small interface the core, `.help` and the adapters use:
its rules (``GameSystem``), its command table, the adapter verbs it answers
(Discord's `/check` → the system's own check command), the commands `.help` shows first, the
guard that turns some sheet changes into rule events, its typed state documents
and its catalog folder. Adding a system is adding a package (and generating its
manifest); nothing else lists them. See docs/architecture.md, "Adding a rule system".

A package is imported only when it is needed — a table plays the system, one of its
commands must run or be listed (:func:`plugin`, :func:`get`) — never at start: what
the core needs of every system before that is its ``manifest.toml``
(:mod:`bot.manifests`, :func:`declared`), generated from the plugin.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot import manifests as manifest
from bot.i18n import Catalog
from bot.manifests import FILE, Manifest, StatNames
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
def manifests() -> dict[str, Manifest]:
    """Every system package below ``bot.systems``, by id, as its manifest says — read
    without importing any (:mod:`bot.manifests`). A package without one (a
    system just added, its manifest not generated yet) is imported to learn it.

    The id is the one the package's ``GameSystem`` declares, not the package's name:
    they are the same but for ``plurk_trpg``, whose id stays ``plurk`` (what players
    type and stored channels carry) while its package is named apart from the Plurk
    platform's ``adapters/plurk``."""
    found: dict[str, Manifest] = {}
    for package in packages():
        declared = manifest.read(Path(__path__[0]) / package, package)
        if declared is None:
            declared = manifest_of(_import(package), package)
        if declared.id in found:
            raise ValueError(f"system package {package!r} declares {declared.id!r} again")
        found[declared.id] = declared
    return found


_loaded: dict[str, SystemPlugin] = {}
"""The plugins imported so far and the ones registered (:func:`register`), by id."""
_registered: dict[str, Manifest] = {}
"""The manifests of the registered plugins (they live outside ``bot.systems``)."""


def _import(package: str) -> SystemPlugin:
    plugin: SystemPlugin = importlib.import_module(f"{__name__}.{package}").PLUGIN
    return check(plugin)


def plugin(system_id: str) -> SystemPlugin | None:
    """The plugin whose id is exactly ``system_id`` (a layer's too), its package
    imported the first time a table plays it or a command of it must run or be
    listed; None for no such system."""
    found = _loaded.get(system_id)
    if found is None:
        declared = manifests().get(system_id)
        if declared is None or system_id in _unregistered:
            return None
        found = _import(declared.package)
        if found.id != system_id:
            raise ValueError(f"system package {declared.package!r} declares {found.id!r}, "
                             f"its manifest {system_id!r}")
        _loaded[system_id] = found
    return found


def require(system_id: str) -> SystemPlugin:
    """The plugin of ``system_id`` (:func:`plugin`); a KeyError when there is none (the
    configured default system, which the settings check)."""
    found = plugin(system_id)
    if found is None:
        raise KeyError(system_id)
    return found


_unregistered: set[str] = set()
"""Discovered ids an operator or a test took out (:func:`unregister`)."""


def declared() -> dict[str, Manifest]:
    """Every system the process knows — discovered or registered — by id, as its
    manifest says: what start-up, `.system`'s list, the adapters' verbs and the catalog
    need, with no system imported."""
    found = {system: m for system, m in manifests().items() if system not in _unregistered}
    found.update(_registered)
    return found


def plugins() -> dict[str, SystemPlugin]:
    """Every system's plugin, by id, each imported (for listings that need the code:
    tests, benches). The core asks :func:`get` / :func:`declared` instead."""
    found = {system: plugin(system) for system in declared()}
    return {system: p for system, p in found.items() if p is not None}


def catalog(override_file: Path | None = None) -> Catalog:
    """The catalog of the common texts and every system's (their catalog folders and
    stat names come from the manifests: no system is imported)."""
    found = declared().values()
    return Catalog(override_file, [m.locales for m in found if m.locales is not None], found)


def get(system_id: str) -> SystemPlugin | None:
    """The plugin of ``system_id``; for a layered id (``ap20+v6``) its base's, when every
    layer may be played on that base (:func:`declared_of`)."""
    found = declared_of(system_id)
    return None if found is None else plugin(found.id)


def declared_of(system_id: str) -> Manifest | None:
    """What :func:`get` answers, from the manifests (no system imported): the base's
    manifest of ``system_id`` when it and its layers may be played together — each
    layer once (``ap20+v6+v6`` is no table's system)."""
    known = declared()
    base, *layers = system_id.casefold().split("+")
    found = known.get(base)
    if found is None or found.layer_of:
        return found if not layers else None
    if len(set(layers)) == len(layers) and all(
            (m := known.get(layer)) is not None and base in m.layer_of for layer in layers):
        return found
    return None


def default_die(system_id: str, fallback: str) -> str:
    """The die `.r` rolls at a table of ``system_id`` (the ``fallback`` system's for an
    id no longer known), from the manifest: a roll imports no system."""
    return (declared_of(system_id) or declared()[fallback]).default_die


def layers(system_id: str) -> list[SystemPlugin]:
    """The layers a channel plays on its base (``ap20+v6`` → [v6]), in order."""
    found = [plugin(layer) for layer in system_id.casefold().split("+")[1:]]
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


def packages() -> list[str]:
    """Every package below ``bot.systems`` (name order), found without importing one."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg)


def manifest_of(plugin: SystemPlugin, package: str) -> Manifest:
    """The manifest a loaded plugin declares: what its ``manifest.toml`` must say."""
    return Manifest(
        id=plugin.id, package=package, names=tuple(plugin.game.names),
        default_die=plugin.game.default_die,
        commands=tuple(tuple(cmd.names) for cmd in plugin.commands.commands()),
        verbs=dict(plugin.verbs), layer_of=tuple(plugin.layer_of),
        stats=tuple(StatNames(s.name, tuple(s.aliases)) for s in plugin.game.stats),
        locales=plugin.locales)


def generated() -> dict[str, str]:
    """Every system package's ``manifest.toml`` text, from its imported plugin."""
    return {package: manifest.dump(manifest_of(_import(package), package))
            for package in packages()}


def write_manifests() -> None:
    """Rewrite every system's ``manifest.toml`` whose text is not what its plugin
    declares (after changing a system's commands, verbs, stats, names or layer)."""
    for package, text in generated().items():
        path = Path(__path__[0]) / package / FILE
        if not path.is_file() or path.read_text("utf-8") != text:
            path.write_text(text, "utf-8")
            print(f"wrote {path}", file=sys.stderr)


def register(plugin: SystemPlugin) -> None:
    """Add a system that lives outside this package (a test's, an operator's own);
    :func:`bot.routes.register` routes its commands too."""
    _loaded[check(plugin).id] = plugin
    _registered[plugin.id] = manifest_of(plugin, "")
    _unregistered.discard(plugin.id)


def unregister(system_id: str) -> None:
    _loaded.pop(system_id, None)
    _registered.pop(system_id, None)
    if system_id in manifests():
        _unregistered.add(system_id)


async def guarded(ctx: Context, character: Sheet, name: str, old: int | None,
                  new: int) -> list[str] | None:
    """Ask the channel's system about a sheet change (see :data:`SheetGuard`)."""
    plugin = get(ctx.channel.system)
    if plugin is None or plugin.sheet_guard is None:
        return None
    return await plugin.sheet_guard(ctx, character, name, old, new)
