"""What ace's case tables (tests/rules/data/ace) cannot say: a fight's size limit."""

from __future__ import annotations

import pytest

from rules.errors import RuleError
from rules.systems.ace import fight


def test_forty_fighters_fill_a_fight() -> None:
    full = fight.Fight(tuple(fight.Member(f"F{n}") for n in range(40)))
    with pytest.raises(RuleError) as refused:
        fight.check_join(full, "F40")
    assert (refused.value.code, refused.value.params) == ("ace.too_many_fighters", {"max": 40})
    fight.check_join(fight.Fight(full.members[:39]), "F40")
