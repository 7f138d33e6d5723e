"""Every limit refuses before a single die is drawn, quickly, with its numbers."""

from __future__ import annotations

import time

import pytest

from rules.dice import DEFAULT_LIMITS, Limits, ScriptedSource, parse, roll, split_expression
from rules.errors import RuleError
from tests.support import NoMoreDice


def refuse(text: str, limits: Limits = DEFAULT_LIMITS) -> tuple[RuleError, float]:
    start = time.perf_counter()
    with pytest.raises(RuleError) as info:
        roll(text, NoMoreDice(), limits)
    return info.value, time.perf_counter() - start


def test_defaults() -> None:
    assert (
        Limits(
            max_dice=1000,
            max_faces=100_000,
            max_repeats=20,
            max_length=500,
            max_depth=32,
            max_rolls=10_000,
            max_rerolls=100,
        )
        == DEFAULT_LIMITS
    )
    with pytest.raises(AttributeError):
        DEFAULT_LIMITS.max_dice = 5  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "code", "params"),
    [
        ("99999d6", "dice.too_many_dice", {"count": 99999, "max": 1000}),
        ("1001d6", "dice.too_many_dice", {"count": 1001, "max": 1000}),
        ("1d999999", "dice.too_many_faces", {"faces": 999999, "max": 100_000}),
        ("21#d6", "dice.too_many_repeats", {"repeats": 21, "max": 20}),
        ("1d0", "dice.bad_faces", {"faces": 0}),
        ("20#1000d6", "dice.too_many_rolls", {"rolls": 20_000, "max": 10_000}),
        ("+".join(["1000d6"] * 11), "dice.too_many_rolls", {"rolls": 11_000, "max": 10_000}),
        ("(" * 40 + "1" + ")" * 40, "dice.too_deep", {"depth": 33, "max": 32}),
        ("(" * 100_000, "dice.too_long", {"length": 100_000, "max": 500}),
        ("1" + "+1" * 5000, "dice.too_long", {"length": 10_001, "max": 500}),
        ("d1!", "dice.explode_always", {"notation": "1d1!"}),
        ("d6r<=6", "dice.reroll_always", {"notation": "1d6r<=6"}),
        # issue 26: a huge glued word or SealDice pool is refused as quickly
        ("1d20" + "x" * 100_000, "dice.glued_letters", {"position": 4, "found": "x" * 19 + "…"}),
        ("1001a8", "dice.too_many_dice", {"count": 1001, "max": 1000}),
        ("5a8m999999", "dice.too_many_faces", {"faces": 999999, "max": 100_000}),
        ("20#1000c8", "dice.too_many_rolls", {"rolls": 20_000, "max": 10_000}),
        ("21#b3", "dice.too_many_repeats", {"repeats": 21, "max": 20}),
    ],
)
def test_refused_before_rolling_and_fast(text: str, code: str, params: dict[str, int]) -> None:
    refuse(text)  # warm caches and regex
    attempts = [refuse(text) for _ in range(5)]
    error = attempts[0][0]
    assert (error.code, error.params) == (code, params)
    # the cost of the refusal itself: the best of a few runs, so a busy CI machine's
    # scheduling noise does not decide the test
    assert min(seconds for _, seconds in attempts) < 0.001


def test_limits_at_the_edge_are_accepted() -> None:
    assert roll("1000d6", ScriptedSource([], fallback=_Ones())).total == 1000
    assert roll("1d100000", ScriptedSource([77])).total == 77
    assert roll("20#d6", ScriptedSource([], fallback=_Ones())).totals == [1] * 20
    assert roll("(" * 32 + "1" + ")" * 32, NoMoreDice()).total == 1
    assert roll("+".join(["1000d6"] * 10), ScriptedSource([], fallback=_Ones())).total == 10_000


class _Ones:
    def roll(self, faces: int) -> int:
        return 1


def test_length_is_checked_before_tokenizing_in_parse() -> None:
    durations = []
    for _ in range(5):
        start = time.perf_counter()
        with pytest.raises(RuleError) as info:
            parse("x" * 10_000, DEFAULT_LIMITS)
        durations.append(time.perf_counter() - start)
        assert info.value.code == "dice.too_long"
    assert min(durations) < 0.001


def test_long_reason_is_not_counted() -> None:
    reason = "開鎖" * 1000
    result = roll("1d20+3 " + reason, ScriptedSource([5]))
    assert result.total == 8 and result.reason == reason


def test_expression_running_past_the_limit_in_a_long_line() -> None:
    error, _ = refuse("1+" * 300 + "1 攻擊")
    assert error.code == "dice.too_long" and error.params["max"] == 500
    with pytest.raises(RuleError):
        split_expression("1+" * 300 + "1 攻擊")


def test_runtime_roll_budget_counts_explosions() -> None:
    limits = Limits(max_rolls=10)
    source = ScriptedSource([], fallback=_Ones())
    with pytest.raises(RuleError) as info:
        roll("5d2!1", source, limits)  # explodes on every 1, forever
    assert info.value.code == "dice.too_many_rolls"
    assert info.value.params == {"rolls": 11, "max": 10}


def test_runtime_roll_budget_counts_every_round_of_a_pool() -> None:
    """A WoD add-dice line of 2 adds a die nine times in ten: the rounds run into the
    draw budget instead of running on (issue 26; docs/dice.md "Limits")."""
    source = ScriptedSource([10] * 100)
    with pytest.raises(RuleError) as info:
        roll("3a2", source, Limits(max_rolls=50))
    assert (info.value.code, info.value.params) == ("dice.too_many_rolls", {"rolls": 51, "max": 50})
    # 16 rounds of 3 dice drew 48; the 17th round (3 more: 51 > 50) was refused whole
    assert source.remaining == 52


def test_runtime_roll_budget_counts_rerolls() -> None:
    limits = Limits(max_rolls=5)
    source = ScriptedSource([], fallback=_Ones())
    with pytest.raises(RuleError) as info:
        roll("2d2r1", source, limits)
    assert info.value.code == "dice.too_many_rolls"


def test_budget_is_shared_by_repeats() -> None:
    error, _ = refuse("3#2d6", Limits(max_rolls=5))
    assert error.params == {"rolls": 6, "max": 5}
    # Statically 3 draws; each repetition explodes once, so the 6th draw is refused.
    source = ScriptedSource([2, 1, 2, 1, 2, 1])
    with pytest.raises(RuleError) as info:
        roll("3#1d2!", source, Limits(max_rolls=5))
    assert info.value.params == {"rolls": 6, "max": 5}


def test_custom_limits_are_checked_on_a_cached_parse() -> None:
    assert roll("10d6", ScriptedSource([], fallback=_Ones())).total == 10
    error, _ = refuse("10d6", Limits(max_dice=5))
    assert error.params == {"count": 10, "max": 5}
    error, _ = refuse("1d20", Limits(max_faces=10))
    assert error.params == {"faces": 20, "max": 10}
    error, _ = refuse("((1))", Limits(max_depth=1))
    assert error.params == {"depth": 2, "max": 1}
    error, _ = refuse("1d20+5", Limits(max_length=5))
    assert error.code == "dice.too_long"


def test_invalid_limits() -> None:
    with pytest.raises(ValueError):
        Limits(max_dice=0)
    with pytest.raises(ValueError):
        Limits(max_depth=1000)
    with pytest.raises(ValueError):
        Limits(max_length=100_000)


def test_the_roll_budget_runs_across_terms_and_their_rerolls() -> None:
    """Every draw counts against ``max_rolls``, rerolls too, term after term: exactly at
    the budget is allowed, one draw past it is refused with the draw it would be."""
    assert roll("1d6r1+2d6", ScriptedSource([1, 3, 4, 5]), Limits(max_rolls=4)).total == 12
    for text, dice, budget, wanted, left in (
        ("1d6r1+2d6", [1, 3, 4, 5], 3, 4, 2),  # the 2d6 after a reroll
        ("1d6r1+1d6r1", [1, 5, 1, 2], 3, 4, 1),  # a reroll of the second term
        ("1d6r1+1d6r1", [1, 5, 4], 2, 3, 1),  # the first die of the second term
        ("1d6r1+2d6+1d6", [1, 3, 4, 5, 6], 4, 5, 1),  # a term after a simple term
    ):
        source = ScriptedSource(dice)
        with pytest.raises(RuleError) as info:
            roll(text, source, Limits(max_rolls=budget))
        assert (info.value.code, info.value.params, source.remaining) == (
            "dice.too_many_rolls", {"rolls": wanted, "max": budget}, left)


def test_parentheses_count_their_depth_one_pair_at_a_time() -> None:
    """``max_depth`` is the nesting, not the number of pairs."""
    assert parse("(1)+(1)+(1)", Limits(max_depth=1)).notation == "(1)+(1)+(1)"


def test_an_expression_ending_exactly_at_the_length_limit_is_allowed() -> None:
    assert split_expression("1d20+5 攻擊", Limits(max_length=6)) == ("1d20+5", "攻擊")
