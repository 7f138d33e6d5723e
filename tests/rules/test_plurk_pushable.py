"""PL-10: `check_pushable` decides a push's refusals before any die (issue 12 item 5:
the bot asks the GM's consent only for a push that could happen)."""

from __future__ import annotations

import pytest

from rules.errors import RuleError
from rules.systems import plurk_trpg as plurk
from rules.systems.plurk_trpg.checks import check_pushable
from tests.support import NoMoreDice, strict_dice


@pytest.mark.parametrize(("stat", "raw", "threshold", "code"), [
    ("武器", 5, 11, "plurk.push_combat"),
    ("力量", 5, 11, "plurk.push_not_skill"),
    ("觀察", 1, 11, "plurk.push_after_fumble"),
    ("觀察", 15, 11, "plurk.push_not_failed"),
])
def test_pl10_check_pushable_refuses_without_rolling(stat: str, raw: int, threshold: int,
                                                     code: str) -> None:
    original = plurk.check(strict_dice([raw]), 0, stat=stat,
                           threshold=threshold)
    with pytest.raises(RuleError) as refused:
        check_pushable(original)
    assert refused.value.code == code
    with pytest.raises(RuleError) as pushed:  # push() refuses alike, before its die
        plurk.push(original, NoMoreDice())
    assert pushed.value.code == code


def test_pl10_check_pushable_lets_a_failed_skill_check_through() -> None:
    original = plurk.check(strict_dice([5]), 2, stat="觀察")
    check_pushable(original)  # no refusal, no die
    assert plurk.push(original, strict_dice([9])).value == 11


def test_pl4_a_failed_push_of_a_natural_20_is_a_crit_and_a_fumble_both_named() -> None:
    """PL-10: a failed push is a fumble even on a 20 (a crit): PL-4's fate check then
    names both triggers; success on it is certain success (the crit's)."""
    original = plurk.check(strict_dice([3]), -5, stat="觀察", threshold=30)
    pushed = plurk.push(original, strict_dice([20]))
    assert (pushed.raw, pushed.value, pushed.success, pushed.crit, pushed.fumble) == \
        (20, 15, False, True, True)
    fate = plurk.fate_check(pushed, strict_dice([12]))
    assert fate == plurk.FateResult(12, 11, True, "crit+fumble", "success", False, True)
