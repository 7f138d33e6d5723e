"""What every system's case module shares: scripted dice, result matching, ``Cases``.

A system's ops live in ``tests/rules/cases_<id>.py`` (exporting ``CASES: Cases``);
``test_cases.py`` discovers those modules and runs ``tests/rules/data/<id>/*.toml``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from rules.dice.source import ScriptedSource
from rules.errors import RuleError
from tests.support import strict_dice

NULL = "null"

Op = Callable[[ScriptedSource, dict[str, Any]], Any]
Scenario = Callable[[dict[str, Any], ScriptedSource], None]


def source(dice: list[int] | None = None) -> ScriptedSource:
    return strict_dice(dice or [])


def plain(value: Any) -> Any:
    """Dataclasses → dicts, tuples → lists, so results compare with TOML data."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = dataclasses.asdict(value)
    return json.loads(json.dumps(value, ensure_ascii=False))


def assert_match(expected: Any, actual: Any, path: str = "") -> None:
    """Subset match: dict keys present in ``expected`` only, lists element-wise."""
    if expected == NULL:
        assert actual is None, f"{path}: expected None, got {actual!r}"
    elif isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: expected a table, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{path}.{key}: missing in {sorted(actual)}"
            assert_match(value, actual[key], f"{path}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list), f"{path}: expected a list, got {actual!r}"
        assert len(expected) == len(actual), f"{path}: expected {expected!r}, got {actual!r}"
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            assert_match(e, a, f"{path}[{i}]")
    else:
        assert actual == expected, f"{path}: expected {expected!r}, got {actual!r}"


def expect_error(spec: dict[str, Any], run: Callable[[], Any]) -> None:
    with pytest.raises(RuleError) as caught:
        run()
    assert caught.value.code == spec["error"]
    if "error_params" in spec:
        assert_match(spec["error_params"], plain(caught.value.params), "error_params")



@dataclass(frozen=True)
class Cases:
    """How the runner drives one system's case tables."""

    ops: dict[str, Op]
    scenarios: dict[str, Scenario] = field(default_factory=dict)
    rules: frozenset[str] = frozenset()  # rule ids that must each have a case
