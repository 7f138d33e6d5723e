"""The percentile roll (rules/dice/percentile.py): tens and units dice, 00 reads 100,
bonus keeps the lowest, penalty the highest, more than three refused before rolling."""

import pytest

from rules.dice.percentile import Percentile, read, roll_percentile
from rules.dice.source import ScriptedSource
from rules.errors import RuleError


def test_zero_and_zero_read_100_and_others_read_as_written() -> None:
    assert read(0, 0) == 100
    assert read(0, 1) == 1
    assert read(9, 9) == 99
    assert read(5, 0) == 50


def test_a_plain_roll_reads_units_then_tens() -> None:
    # the script gives faces 1..10: units face 4 → 3, tens face 6 → 5
    assert roll_percentile(ScriptedSource([4, 6])) == Percentile((5,), 3, 0, 53)


def test_a_bonus_die_keeps_the_lowest_and_a_penalty_die_the_highest() -> None:
    assert roll_percentile(ScriptedSource([1, 3, 8]), 1).value == 20
    assert roll_percentile(ScriptedSource([1, 3, 8]), -1).value == 70


def test_00_with_a_bonus_die_is_100_only_when_every_tens_die_shows_0() -> None:
    # units 0, tens 0 and 3: 100 and 30 → bonus keeps 30, penalty keeps 100
    assert roll_percentile(ScriptedSource([1, 1, 4]), 1).value == 30
    assert roll_percentile(ScriptedSource([1, 1, 4]), -1).value == 100


def test_more_than_three_extra_dice_are_refused_before_rolling() -> None:
    source = ScriptedSource([5])
    with pytest.raises(RuleError) as raised:
        roll_percentile(source, -4)
    assert source.remaining == 1
    assert raised.value.code == "dice.too_many_bonus_dice"
    assert raised.value.params == {"count": 4, "max": 3}
    assert len(roll_percentile(ScriptedSource([1, 1, 1, 1]), 3).tens) == 4
