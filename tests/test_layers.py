"""The layering, as a test: imports point down only (adapters → bot → rules), a rule
system's package never imports another system's, and no module of `rules/` needs
another half-loaded at import time (no runtime import cycle)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def imports(path: Path, *, runtime_top_level_only: bool = False) -> set[str]:
    """The modules ``path`` imports (absolute names); with ``runtime_top_level_only``
    only what runs at import time (not under ``TYPE_CHECKING``, not in functions)."""
    tree = ast.parse(path.read_text("utf-8"))
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    nodes: list[ast.AST]
    if runtime_top_level_only:
        nodes = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    else:
        nodes = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        else:
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return found


def modules(folder: str) -> dict[str, Path]:
    return {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
            for p in (ROOT / folder).rglob("*.py")}


def test_rules_import_neither_bot_nor_adapters() -> None:
    bad = {name: sorted(i for i in imports(path) if i.split(".")[0] in ("bot", "adapters"))
           for name, path in modules("rules").items()}
    assert {name: found for name, found in bad.items() if found} == {}


def test_bot_does_not_import_adapters() -> None:
    bad = {name: sorted(i for i in imports(path) if i.split(".")[0] == "adapters")
           for name, path in modules("bot").items()}
    assert {name: found for name, found in bad.items() if found} == {}


def test_a_system_package_imports_no_other_system() -> None:
    for layer in ("rules", "bot"):
        systems = [p.name for p in (ROOT / layer / "systems").iterdir()
                   if p.is_dir() and (p / "__init__.py").exists()]
        for name, path in modules(f"{layer}/systems").items():
            parts = name.split(".")
            if len(parts) < 3 or parts[2] not in systems:
                continue
            own = parts[2]
            others = {i for i in imports(path) for other in systems if other != own
                      and (i == f"{layer}.systems.{other}"
                           or i.startswith(f"{layer}.systems.{other}."))}
            assert others == set(), (name, others)


def test_the_kits_and_the_core_name_no_system() -> None:
    """What two systems share lives in a kit; a kit never imports a system."""
    for folder in ("bot/kits", "rules/kits"):
        for name, path in modules(folder).items():
            assert not {i for i in imports(path) if ".systems." in f"{i}."
                        and i != "bot.systems"}, name


def test_rules_have_no_runtime_import_cycle() -> None:
    known = modules("rules")
    # an import of a package's own ancestor runs that package's __init__ first in any
    # case; a cycle through it is Python's import order, not one module needing another
    graph = {name: {i for i in imports(path, runtime_top_level_only=True)
                    if i in known and not name.startswith(f"{i}.")} - {name}
             for name, path in known.items()}
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        if state.get(node) == 2:
            return
        assert state.get(node) != 1, " → ".join([*trail, node])
        state[node] = 1
        for nxt in graph[node]:
            visit(nxt, [*trail, node])
        state[node] = 2

    for node in graph:
        visit(node, [])
