"""What the core knows of a rule system without importing it: its manifest.

Every system package ``bot/systems/<package>/`` carries ``manifest.toml``, read here
as a data file (nothing of the package is imported). It holds what a process needs
of *every* system at start — the router's command names (a message is a command of
some table, `.hlep` is a typo of one, `.atk` is ap20's and ace's), the adapter verbs,
which base a layer needs, the names `.system` lists, and the stat names the catalog
renders for English and 简体 readers — so that a system's code and rules are imported
only when a table plays it (issue 23: start-up time and idle memory).

The manifest repeats what the package declares, so it is generated from the loaded
plugin (``bot.manifests_of``), never written by hand:
``python scripts/system_manifests.py`` rewrites every system's, and
``tests/bot/test_system_manifests.py`` fails when one drifts.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

FILE = "manifest.toml"


@dataclass(frozen=True)
class StatNames:
    """A declared stat's name and aliases: all the catalog needs of it."""

    name: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Manifest:
    """A system as the core knows it before (or without) importing it."""

    id: str
    package: str
    """The package below ``bot.systems`` (``plurk_trpg`` for the id ``plurk``)."""
    names: tuple[str, ...]
    """The game's display names (``GameSystem.names``), as `.system` lists them."""
    default_die: str = "d20"
    """What `.r` rolls at its table when the channel set no die of its own."""
    commands: tuple[tuple[str, ...], ...] = ()
    """Each command's names as declared, in declaration order (its first the canonical)."""
    verbs: Mapping[str, str] = field(default_factory=dict)
    layer_of: tuple[str, ...] = ()
    stats: tuple[StatNames, ...] = ()
    locales: Path | None = None
    """The package's catalog folder (``<package>/locales``), when it has one."""


def read(folder: Path, package: str) -> Manifest | None:
    """The manifest of the system package in ``folder`` (``bot/systems/<package>``),
    read as a data file, without importing the package; None when it has none (a
    system just added: generate it)."""
    source = folder / FILE
    if not source.is_file():
        return None
    data = tomllib.loads(source.read_text("utf-8"))
    locales = folder / "locales"
    return Manifest(
        id=data["id"], package=package, names=tuple(data["names"]),
        default_die=data.get("default_die", "d20"),
        commands=tuple(tuple(names) for names in data.get("commands", ())),
        verbs=dict(data.get("verbs", {})), layer_of=tuple(data.get("layer_of", ())),
        stats=tuple(StatNames(s["name"], tuple(s.get("aliases", ())))
                    for s in data.get("stats", ())),
        locales=locales if locales.is_dir() else None)


def dump(manifest: Manifest) -> str:
    """``manifest`` as ``manifest.toml`` text (JSON strings are TOML basic strings)."""

    def strings(values: Iterable[str]) -> str:
        return "[" + ", ".join(_string(v) for v in values) + "]"

    lines = [f"# Generated from bot.systems.{manifest.package}.PLUGIN by "
             "`python scripts/system_manifests.py`;",
             "# tests/bot/test_system_manifests.py fails when it drifts. Do not edit.",
             f"id = {_string(manifest.id)}",
             f"names = {strings(manifest.names)}",
             f"default_die = {_string(manifest.default_die)}",
             f"layer_of = {strings(manifest.layer_of)}",
             "verbs = {" + ", ".join(f"{k} = {_string(v)}" for k, v in manifest.verbs.items())
             + "}",
             "commands = ["]
    lines += [f"    {strings(names)}," for names in manifest.commands]
    lines.append("]")
    for stat in manifest.stats:
        lines += ["", "[[stats]]", f"name = {_string(stat.name)}",
                  f"aliases = {strings(stat.aliases)}"]
    return "\n".join(lines) + "\n"


def _string(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)
