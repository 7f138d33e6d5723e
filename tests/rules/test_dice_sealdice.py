"""SealDice inputs typed into `.r` (issue 26 items 8 and 9): the exact result each gives
here under scripted dice, or its refusal and hint key (tests/rules/dice_sealdice.toml)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from rules.dice import ERROR_CODES, roll
from rules.errors import RuleError
from tests.support import strict_dice

TABLE = tomllib.loads((Path(__file__).parent / "dice_sealdice.toml").read_text("utf-8"))
ROLLS: list[dict[str, Any]] = TABLE["roll"]
REFUSED: list[dict[str, Any]] = TABLE["refused"]


def test_the_table_covers_at_least_sixty_inputs() -> None:
    inputs = [(case["input"], case.get("default")) for case in ROLLS + REFUSED]
    assert len(inputs) == len(set(inputs)) >= 60


@pytest.mark.parametrize(
    "case", ROLLS, ids=[f"{case['input']}@{case.get('default', 'd20')}" for case in ROLLS])
def test_sealdice_input_rolls_to_the_scripted_result(case: dict[str, Any]) -> None:
    source = strict_dice(case["dice"])
    result = roll(case["input"], source, default=case.get("default", "d20"))
    assert result.expression == case["expression"]
    assert result.totals == case.get("totals", [case.get("total")])
    assert result.reason == case.get("reason", "")
    fate = "dF" in result.expression  # a Fate face 1, 2, 3 reads -1, 0, +1
    assert result.dice == [face - 2 if fate else face for face in case["dice"]]
    assert source.remaining == 0  # every scripted face was drawn, none more


@pytest.mark.parametrize("case", REFUSED, ids=[case["input"] for case in REFUSED])
def test_sealdice_input_is_refused_with_its_hint(case: dict[str, Any]) -> None:
    source = strict_dice([])  # nothing may be rolled before the refusal
    with pytest.raises(RuleError) as info:
        roll(case["input"], source)
    assert (info.value.code, info.value.params) == (case["code"], case["params"])
    assert set(case["params"]) == set(ERROR_CODES[case["code"]])


@pytest.mark.parametrize(
    ("text", "faces", "line"),
    [
        ("b2", [6, 3, 8, 1], "b2 = [(25), (75), 5] = 5"),
        ("p", [1, 1, 5], "p1 = [100, (40)] = 100"),
        ("5a8", [9, 3, 8, 10, 1, 2, 8, 5, 4], "5a8 = [9!*, 3, 8!*, 10!*, 1, 2, 8!*, 5, 4] = 4"),
        ("2c5", [3, 7, 2], "2c5 = [3, 7!, 2] = 12"),
        ("f-1", [3, 2, 1, 3], "4dF-1 = [+, 0, -, +]-1 = 0"),
        ("d20优势+5", [8, 15], "2d20kh1+5 = [(8), 15]+5 = 20"),
    ],
)
def test_every_sealdice_term_shows_its_dice_in_the_line(
        text: str, faces: list[int], line: str) -> None:
    """docs/dice.md ("render() notation"): each new term renders every die it rolled."""
    assert roll(text, strict_dice(faces)).render() == line
