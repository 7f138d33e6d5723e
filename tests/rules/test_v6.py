"""What v6's case tables (tests/rules/data/v6) cannot say: the field as a channel
stores it between commands (``Field.to_dict`` / ``from_dict``) — every key spelled
out, and what a stored field written before a key existed reads as (V6-1 facing 0,
V6-2 standing, V6-4 a medium base, decision 7's 12 × 12 field) — and the type of a
number a refusal shows."""

from __future__ import annotations

import pytest

from rules.errors import RuleError
from rules.systems.v6 import Field, Unit, move_cost

KNIGHT = Unit("騎士", (2, 4), 90, "crouch", "large", "tremor", 3, {"stride": 4})


def test_a_field_is_stored_with_every_key_of_every_unit() -> None:
    field = Field(8, 6, (KNIGHT, Unit("旁觀者")))
    assert field.to_dict() == {
        "width": 8, "height": 6,
        "units": [
            {"name": "騎士", "cell": [2, 4], "facing": 90, "posture": "crouch",
             "size": "large", "sense": "tremor", "fatigue": 3, "stats": {"stride": 4}},
            {"name": "旁觀者", "cell": None, "facing": 0, "posture": "stand",
             "size": "medium", "sense": "normal", "fatigue": 0, "stats": {}},
        ],
    }


def test_a_stored_field_reads_back_as_it_was() -> None:
    field = Field(8, 6, (KNIGHT, Unit("旁觀者", (0, 0))))
    assert Field.from_dict(field.to_dict()) == field


def test_a_unit_stored_with_its_name_only_reads_with_the_defaults() -> None:
    loaded = Field.from_dict({"units": [{"name": "騎士"}, {"name": "衛兵", "stats": None}]})
    assert loaded == Field(12, 12, (Unit("騎士", None, 0, "stand", "medium", "normal", 0, {}),
                                    Unit("衛兵")))
    assert Field.from_dict({}) == Field(12, 12, ())


def test_stored_numbers_are_read_as_numbers() -> None:
    loaded = Unit.from_dict({"name": "騎士", "cell": ["1", "2"], "facing": "45",
                             "fatigue": "2", "stats": {"stride": "5"}})
    assert loaded == Unit("騎士", (1, 2), 45, fatigue=2, stats={"stride": 5})


@pytest.mark.parametrize(("agility", "limit"), [(4, 2), (6, 3), (5, 2.5)])
def test_a_vault_limit_is_a_whole_number_for_an_even_agility(agility: int,
                                                             limit: float) -> None:
    """V6-3: 灵巧 ÷ 2 — 4 shows as 2 (an int), 5 as 2.5."""
    with pytest.raises(RuleError) as refused:
        move_cost(walked=0, base_stride=3, vaults=[3], agility=agility)
    assert refused.value.params["limit"] == limit
    assert type(refused.value.params["limit"]) is type(limit)
