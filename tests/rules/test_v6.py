"""What v6's case tables (tests/rules/data/v6) cannot say: the type of a number a
refusal shows, the field carried from one turn to the next."""

from __future__ import annotations

import pytest

from rules.errors import RuleError
from rules.systems.v6 import move_cost
from rules.systems.v6.field import Field


@pytest.mark.parametrize(("agility", "limit"), [(4, 2), (6, 3), (5, 2.5)])
def test_a_vault_limit_is_a_whole_number_for_an_even_agility(agility: int,
                                                             limit: float) -> None:
    """V6-3: 灵巧 ÷ 2 — 4 shows as 2 (an int), 5 as 2.5."""
    with pytest.raises(RuleError) as refused:
        move_cost(walked=0, base_stride=3, vaults=[3], agility=agility)
    assert refused.value.params["limit"] == limit
    assert type(refused.value.params["limit"]) is type(limit)


def test_a_new_turn_forgets_the_last_ones_move_and_action_the_same_turn_keeps_them() -> None:
    """Decision 12: one move and one action per turn, counted in the turn they were done."""
    done = Field(width=8, turn="1:甲", moved=True, acted=True)
    assert done.on_turn("1:甲") == done
    assert done.on_turn("1:乙") == Field(width=8, turn="1:乙")
    assert Field(turn="1:甲", acted=True).on_turn("2:甲") == Field(turn="2:甲")
