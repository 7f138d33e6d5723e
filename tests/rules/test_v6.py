"""What v6's case tables (tests/rules/data/v6) cannot say: the type of a number a
refusal shows."""

from __future__ import annotations

import pytest

from rules.errors import RuleError
from rules.systems.v6 import move_cost


@pytest.mark.parametrize(("agility", "limit"), [(4, 2), (6, 3), (5, 2.5)])
def test_a_vault_limit_is_a_whole_number_for_an_even_agility(agility: int,
                                                             limit: float) -> None:
    """V6-3: 灵巧 ÷ 2 — 4 shows as 2 (an int), 5 as 2.5."""
    with pytest.raises(RuleError) as refused:
        move_cost(walked=0, base_stride=3, vaults=[3], agility=agility)
    assert refused.value.params["limit"] == limit
    assert type(refused.value.params["limit"]) is type(limit)
