"""What coc7's case tables (tests/rules/data/coc7) cannot say: the size of every die.

A scripted die only refuses a face above its size, so a table whose faces all fit a d6
cannot tell a d6 from a d7. These tests record the faces each function asks for.
"""

from __future__ import annotations

from rules.dice.source import ScriptedSource
from rules.systems import coc7
from tests.support import strict_dice


class Recording:
    """The scripted dice of ``strict_dice``, recording the size of each die asked for."""

    def __init__(self, values: list[int]) -> None:
        self.dice: ScriptedSource = strict_dice(values)
        self.asked: list[int] = []

    def roll(self, faces: int) -> int:
        self.asked.append(faces)
        return self.dice.roll(faces)


def test_creation_rolls_only_six_sided_dice() -> None:
    """CO-8: 3d6 for STR CON DEX APP POW LUCK and 2d6 (+6) for SIZ INT EDU — 24 d6."""
    source = Recording([1] * 24)
    (rolled,) = coc7.create(source, 1)
    assert source.asked == [6] * 24
    assert rolled.values == {"STR": 15, "CON": 15, "SIZ": 40, "DEX": 15, "APP": 15,
                             "INT": 40, "POW": 15, "EDU": 40, "LUCK": 15}


def test_growth_adds_a_ten_sided_die() -> None:
    """CO-7: the d100 (units then tens d10) and, above the skill, 1d10 gained."""
    source = Recording([2, 8, 4])
    grown = coc7.improve(source, 60)
    assert source.asked == [10, 10, 10]
    assert (grown.roll.value, grown.gain, grown.after) == (71, 4, 64)


def test_a_bout_rolls_a_ten_sided_die_for_outcome_and_duration() -> None:
    """CO-6: the outcome d10 and the duration d10."""
    source = Recording([10, 10])
    found = coc7.bout(source, "realtime")
    assert source.asked == [10, 10]
    assert (found.outcome, found.duration) == ("mania_now", 10)
