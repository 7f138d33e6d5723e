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


def test_the_dead_hold_nobody_and_lose_their_helpless_state() -> None:
    from rules.systems.ace.grapple import Hold
    start = fight.set_condition(fight.Fight(holds=(Hold("鮑伯", "狼人", "pinned"),
                                                   Hold("狼人", "艾莉絲"),
                                                   Hold("卡蘿", "蝙蝠"))), "狼人", "asleep")
    after = fight.fallen_dead(start, "狼人")
    assert after.holds == (Hold("卡蘿", "蝙蝠"),)
    assert after.posture("狼人").condition is None
    assert fight.fallen_dead(after, "狼人") == after  # nothing left to end
