"""The BCDice-style case runner for every rule system: tests/rules/data/<system>/*.toml.

One folder per system (its id), one file per rule id or area. Each ``[[case]]``
names its rule id (``rule = "PL-17"``), a ``name``, an operation (``op``: a
function of the system, or a scenario), the scripted dice (``dice``, used in
order; any die beyond them fails the test, and every scripted die must be used),
its ``input``, and the expected numbers (``expect``: a subset of the result,
nested tables compared as subsets, lists element by element) or a refusal
(``error`` = code, optional ``error_params``). TOML has no null, so the string
``"null"`` in an expectation means None.

Scenario ops (plurk: ``ap``, ``battle``) run ``[[case.steps]]`` in order on one
state; a step has ``do``, ``args``, its own ``dice``, and ``expect`` (the step's
event), ``state`` (a snapshot of the state after the step) or ``error``.

A system plugs in with a module ``tests/rules/cases_<id>.py`` exporting ``CASES``
(a ``case_kit.Cases``): its simple ops
(``(source, input) -> result``), its scenario runner and the rule ids that must
each have at least one case. Test ids read ``<rule>-<system>/<file>-<case name>``.
"""

from __future__ import annotations

import importlib
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.rules.case_kit import Cases, assert_match, expect_error, source

DATA = Path(__file__).parent / "data"


def _discover() -> dict[str, Cases]:
    """``tests/rules/cases_<id>.py`` → its ``CASES``: one module per system."""
    found = {}
    for path in sorted(Path(__file__).parent.glob("cases_*.py")):
        module = importlib.import_module(f"tests.rules.{path.stem}")
        found[path.stem.removeprefix("cases_")] = module.CASES
    return found


SYSTEMS: dict[str, Cases] = _discover()


@dataclass(frozen=True)
class Case:
    system: str
    file: str  # the table's stem
    spec: dict[str, Any]

    @property
    def id(self) -> str:
        slug = re.sub(r"[^0-9A-Za-z]+", "-", self.spec["name"]).strip("-").lower()
        return f"{self.spec['rule']}-{self.system}/{self.file}-{slug}"


def load_cases() -> list[Case]:
    """Every case of every table of every system, in folder and file order."""
    cases = []
    for folder in sorted(p for p in DATA.iterdir() if p.is_dir()):
        for path in sorted(folder.glob("*.toml")):
            with path.open("rb") as handle:
                for spec in tomllib.load(handle).get("case", []):
                    cases.append(Case(folder.name, path.stem, spec))
    return cases


CASES = load_cases()


@pytest.mark.parametrize("case", [pytest.param(case, id=case.id) for case in CASES])
def test_case(case: Case) -> None:
    system = SYSTEMS[case.system]
    spec = case.spec
    if spec["op"] in system.scenarios:
        system.scenarios[spec["op"]](spec, source())
        return
    src = source(spec.get("dice"))
    inputs = spec.get("input", {})
    run = system.ops[spec["op"]]
    if "error" in spec:
        expect_error(spec, lambda: run(src, inputs))
    else:
        assert_match(spec["expect"], run(src, inputs), "result")
    assert src.remaining == 0, f"{src.remaining} scripted dice unused"


def test_every_case_folder_is_a_known_system() -> None:
    assert {p.name for p in DATA.iterdir() if p.is_dir()} <= set(SYSTEMS)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_every_rule_has_a_case(system: str) -> None:
    covered = {case.spec["rule"] for case in CASES if case.system == system}
    assert SYSTEMS[system].rules <= covered


def test_every_case_names_a_known_op() -> None:
    unknown = [case.id for case in CASES
               if case.spec["op"] not in SYSTEMS[case.system].ops
               and case.spec["op"] not in SYSTEMS[case.system].scenarios]
    assert unknown == []


def test_case_ids_are_unique() -> None:
    ids = [case.id for case in CASES]
    assert len(ids) == len(set(ids))
