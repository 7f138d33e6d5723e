"""The encounter kit's pure part (issue 24): life states, who may act, bounds, bands."""

from __future__ import annotations

import pytest

from rules.errors import RuleError
from rules.kits import turns
from rules.kits.encounter import (
    Band,
    Life,
    band,
    capped,
    life_from_hp,
    passes_fallen,
    require_active,
)


@pytest.mark.parametrize(
    ("hp", "dead_at", "life"),
    [(1, None, Life.ACTIVE), (0, None, Life.DOWN), (-5, None, Life.DOWN),
     (0, -3, Life.DOWN), (-2, -3, Life.DOWN), (-3, -3, Life.DEAD), (0, 0, Life.DEAD)],
)
def test_life_from_hp(hp: int, dead_at: int | None, life: Life) -> None:
    assert life_from_hp(hp, dead_at=dead_at) is life


def test_life_from_hp_with_a_higher_threshold() -> None:
    assert life_from_hp(2, down_at=2) is Life.DOWN
    assert life_from_hp(3, down_at=2) is Life.ACTIVE


@pytest.mark.parametrize("life", [Life.DOWN, Life.DEAD, Life.REMOVED])
def test_only_the_active_act(life: Life) -> None:
    with pytest.raises(RuleError) as refused:
        require_active("蝙蝠", life)
    assert refused.value.code == f"encounter.{life.value}"
    assert refused.value.params == {"name": "蝙蝠"}


def test_the_active_act() -> None:
    require_active("艾莉絲", Life.ACTIVE)


def test_the_turn_passes_over_the_fallen_and_wraps_the_round() -> None:
    lives = {"a": Life.ACTIVE, "b": Life.DOWN, "c": Life.DEAD, "d": Life.ACTIVE}
    order = turns.TurnOrder(("a", "b", "c", "d"), 0, 1)
    order, change = turns.advance(order, skips=passes_fallen(lives.__getitem__))
    assert (change.current, change.skipped, change.new_round) == ("d", ("b", "c"), False)
    order, change = turns.advance(order, skips=passes_fallen(lives.__getitem__))
    assert (change.current, change.skipped, change.round, change.new_round) == ("a", (), 2, True)


@pytest.mark.parametrize(
    ("hp", "maximum", "floor", "kept"),
    [(100, 50, 0, 50), (50, 50, 0, 50), (49, 50, 0, 49), (0, 50, 0, 0), (-4, 50, 0, 0),
     (-4, 50, -3, -3), (-3, 50, -3, -3), (7, 0, 0, 0)],
)
def test_hp_stays_within_its_bounds(hp: int, maximum: int, floor: int, kept: int) -> None:
    assert capped(hp, maximum, floor=floor) == kept


@pytest.mark.parametrize(
    ("hp", "maximum", "life", "seen"),
    [(10, 10, Life.ACTIVE, Band.UNHURT), (12, 10, Life.ACTIVE, Band.UNHURT),
     (9, 10, Life.ACTIVE, Band.WOUNDED), (6, 10, Life.ACTIVE, Band.WOUNDED),
     (5, 10, Life.ACTIVE, Band.BADLY_WOUNDED), (1, 10, Life.ACTIVE, Band.BADLY_WOUNDED),
     (0, 10, Life.ACTIVE, Band.DOWN), (4, 10, Life.DOWN, Band.DOWN),
     (10, 10, Life.DEAD, Band.DEAD), (3, 7, Life.ACTIVE, Band.BADLY_WOUNDED),
     (4, 7, Life.ACTIVE, Band.WOUNDED)],
)
def test_the_band_the_channel_sees(hp: int, maximum: int, life: Life, seen: Band) -> None:
    assert band(hp, maximum, life) is seen
