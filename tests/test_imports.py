"""The import rules (docs/architecture.md, "Import rules").

``lint-imports`` checks the contracts declared in pyproject.toml's
``[tool.importlinter]``: the layers, the independence of the systems and of the
adapters, the purity of ``rules``, and no cycle between the siblings of a package.
What import-linter cannot see is checked here: a package whose ``__init__``
imports one of its own modules that imports the package back, so that one of
them runs against the other half-loaded (its siblings contract looks only at
imports between a package's children).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("adapters", "bot", "rules")


def test_the_import_contracts_hold() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def back_to(graph: grimp.ImportGraph, package: str) -> list[str] | None:
    """A chain package → own module → … → package that stays inside the package."""
    inside = graph.find_descendants(package)
    trails = [[package, child]
              for child in sorted(graph.find_modules_directly_imported_by(package) & inside)]
    seen = {trail[-1] for trail in trails}
    while trails:
        trail = trails.pop()
        for step in sorted(graph.find_modules_directly_imported_by(trail[-1])):
            if step == package:
                return [*trail, step]
            if step in inside and step not in seen:
                seen.add(step)
                trails.append([*trail, step])
    return None


def test_no_package_imports_a_module_that_imports_it_back() -> None:
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    packages = sorted(m for m in graph.modules if graph.find_children(m))
    loops = {p: " → ".join(chain) for p in packages if (chain := back_to(graph, p))}
    assert loops == {}


def test_a_package_that_imports_its_own_module_back_is_found() -> None:
    """The check above finds what it looks for (grimp sees imports in functions too)."""
    graph = grimp.ImportGraph()
    for name in ("p", "p.a", "p.a.deep", "p.b"):
        graph.add_module(name)
    graph.add_import(importer="p", imported="p.a")
    graph.add_import(importer="p.a", imported="p.a.deep")
    assert back_to(graph, "p") is None
    graph.add_import(importer="p.a.deep", imported="p")
    assert back_to(graph, "p") == ["p", "p.a", "p.a.deep", "p"]
