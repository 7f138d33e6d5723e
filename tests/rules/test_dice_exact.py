"""Exact results of the dice engine for the corners mutation testing found untested.

Every test scripts its dice (``ScriptedSource``) and compares whole values — the
faces kept and dropped, the total, the error code *and* its params.
"""

from __future__ import annotations

import pytest

from rules.dice import DEFAULT_LIMITS, Limits, ScriptedSource, parse, roll, roll_pool
from rules.errors import RuleError
from tests.support import strict_dice


def src(*dice: int) -> ScriptedSource:
    return strict_dice(dice)


def kept(text: str, *dice: int) -> tuple[list[bool], int | None]:
    result = roll(text, src(*dice))
    (term,) = result.terms
    return [d.kept for d in term.dice], result.total


# --------------------------------------------------------------------------- keep/drop ties
# docs/dice.md: "Ties: the earlier die is kept". For kh/kl that means the later of
# equal dice is the one left out; for dh/dl the later of equal dice is the one dropped.


@pytest.mark.parametrize(
    ("text", "dice", "expected", "total"),
    [
        ("3d6kh1", (5, 5, 2), [True, False, False], 5),
        ("3d6kh2", (5, 2, 5), [True, False, True], 10),
        ("4d6kh2", (4, 6, 4, 4), [True, True, False, False], 10),
        ("3d6kl1", (2, 5, 2), [True, False, False], 2),
        ("4d6kl2", (3, 1, 3, 3), [True, True, False, False], 4),
        ("3d6dh1", (5, 5, 2), [True, False, True], 7),
        ("4d6dh2", (6, 6, 6, 1), [True, False, False, True], 7),
        ("3d6dl1", (2, 5, 2), [True, True, False], 7),
        ("4d6dl2", (1, 1, 1, 6), [True, False, False, True], 7),
        # the same with rerolls, which take the one-die-at-a-time path
        ("3d6r1dh1", (5, 5, 2), [True, False, True], 7),
        ("3d6r1dl1", (2, 5, 2), [True, True, False], 7),
        ("3d6r1kh1", (5, 5, 2), [True, False, False], 5),
        ("3d6r1kl1", (2, 5, 2), [True, False, False], 2),
    ],
)
def test_keep_drop_ties(text: str, dice: tuple[int, ...], expected: list[bool],
                        total: int) -> None:
    assert kept(text, *dice) == (expected, total)


@pytest.mark.parametrize(
    ("text", "dice", "expected", "total"),
    [
        # kl1 / kh1 (a fast path) where the answer is not the first die
        ("2d20kl1", (15, 3), [False, True], 3),
        ("3d20kh1", (4, 3, 19), [False, False, True], 19),
        ("1d20kl1", (7,), [True], 7),
        ("4d6kl2", (6, 5, 1, 2), [False, False, True, True], 3),
        ("4d6kh2", (1, 2, 6, 5), [False, False, True, True], 11),
        ("4d6dl1", (6, 5, 1, 2), [True, True, False, True], 13),
        ("4d6dh1", (1, 2, 6, 5), [True, True, False, True], 8),
        ("3d6kl5", (6, 5, 1), [True, True, True], 12),
        ("3d6dh5", (6, 5, 1), [False, False, False], 0),
        ("3d6kh0", (6, 5, 1), [False, False, False], 0),
        ("3d6dl0", (6, 5, 1), [True, True, True], 12),
    ],
)
def test_keep_drop_picks(text: str, dice: tuple[int, ...], expected: list[bool],
                         total: int) -> None:
    assert kept(text, *dice) == (expected, total)


def test_success_counting_ignores_dropped_dice() -> None:
    result = roll("4d10kh3>=8", src(9, 8, 10, 2))
    assert result.total == 3
    result = roll("4d10kl2>=8", src(9, 8, 10, 2))
    assert result.total == 1
    assert [d.success for d in result.terms[0].dice] == [None, True, None, False]


# --------------------------------------------------------------------------- roll_pool


def test_roll_pool_exact() -> None:
    assert roll_pool(3, 6, src(4, 1, 6)) == [4, 1, 6]
    assert roll_pool(0, 6, src()) == []
    assert roll_pool(1, 1, src(1)) == [1]


@pytest.mark.parametrize(
    ("count", "faces", "limits", "code", "params"),
    [
        (-1, 6, DEFAULT_LIMITS, "dice.no_dice", {"count": -1}),
        (1001, 6, DEFAULT_LIMITS, "dice.too_many_dice", {"count": 1001, "max": 1000}),
        (1, 0, DEFAULT_LIMITS, "dice.bad_faces", {"faces": 0}),
        (1, 100_001, DEFAULT_LIMITS, "dice.too_many_faces", {"faces": 100_001, "max": 100_000}),
        (5, 6, Limits(max_rolls=4), "dice.too_many_rolls", {"rolls": 5, "max": 4}),
    ],
)
def test_roll_pool_refusals(count: int, faces: int, limits: Limits, code: str,
                            params: dict[str, int]) -> None:
    with pytest.raises(RuleError) as caught:
        roll_pool(count, faces, src(), limits)
    assert (caught.value.code, caught.value.params) == (code, params)


def test_roll_pool_accepts_its_exact_limits() -> None:
    assert roll_pool(1000, 1, src(*[1] * 1000)) == [1] * 1000
    assert roll_pool(1, 100_000, src(100_000)) == [100_000]
    assert roll_pool(4, 2, src(1, 2, 1, 2), Limits(max_rolls=4)) == [1, 2, 1, 2]


# --------------------------------------------------------------------------- small pieces


def test_rule_error_carries_code_and_params() -> None:
    error = RuleError("dice.too_long", length=5, max=4)
    assert (error.code, error.params, error.args) == (
        "dice.too_long", {"length": 5, "max": 4}, ("dice.too_long", {"length": 5, "max": 4}))


def test_parse_length_limit_at_its_exact_boundary() -> None:
    from rules.dice import parse
    from rules.dice.limits import check_length

    limits = Limits(max_length=5)
    check_length("1+2+3", limits)
    assert parse("1+2+3", limits).root is not None
    with pytest.raises(RuleError) as caught:
        check_length("1+2+34", limits)
    assert (caught.value.code, caught.value.params) == ("dice.too_long", {"length": 6, "max": 5})


def test_limits_own_bounds() -> None:
    assert Limits(max_depth=100, max_length=4000).max_depth == 100
    with pytest.raises(ValueError, match=r"^Limits\.max_depth must be at most 100$"):
        Limits(max_depth=101)
    with pytest.raises(ValueError, match=r"^Limits\.max_length must be at most 4000$"):
        Limits(max_length=4001)
    with pytest.raises(ValueError, match=r"^Limits\.max_rolls must be at least 1$"):
        Limits(max_rolls=0)


def test_sources() -> None:
    from rules.dice import SeededSource

    a, b = SeededSource(42), SeededSource(42)
    assert [a.roll(6) for _ in range(50)] == [b.roll(6) for _ in range(50)]
    assert {SeededSource(1).roll(2) for _ in range(1)} <= {1, 2}
    assert {a.roll(2) for _ in range(200)} == {1, 2}  # both faces come up
    scripted = ScriptedSource([3, 7])
    with pytest.raises(RuleError) as caught:
        scripted.roll(6)
        scripted.roll(6)
    assert (caught.value.code, caught.value.params) == (
        "dice.script_out_of_range", {"value": 7, "faces": 6})
    assert scripted.remaining == 1
    with pytest.raises(RuleError):
        ScriptedSource([0]).roll(6)
    fallback = ScriptedSource([], fallback=ScriptedSource([5]))
    assert fallback.roll(6) == 5


def test_a_game_system_indexes_names_and_aliases_case_blind() -> None:
    from rules.kits.game_system import GameSystem, Stat

    dex = Stat("靈巧", "attribute", ("灵巧", "DEX"))
    first = Stat("觀察", "skill", ("Spot",))
    shadow = Stat("觀察", "skill", ())
    system = GameSystem("t", ("T",), (dex, first, shadow))
    assert system.stat("dex") is dex
    assert system.stat("灵巧") is dex
    assert system.stat("spot") is first
    assert system.stat("觀察") is first  # the first declaration of a spelling wins
    assert system.stat("nothing") is None


def test_a_rerolled_fudge_die_is_shifted_like_the_first() -> None:
    """``dF`` faces are −1, 0, +1: a reroll of a −1 reads its new face the same way."""
    result = roll("1dFr<0", ScriptedSource([1, 1, 3]))
    assert (result.total, result.terms[0].rolled) == (1, [-1, -1, 1])


def test_a_character_that_starts_no_token_is_named_with_its_place() -> None:
    from rules.dice.tokenizer import Token, tokenize

    with pytest.raises(RuleError) as caught:
        tokenize("1d6@", 32)
    assert (caught.value.code, caught.value.params) == (
        "dice.unexpected", {"position": 3, "found": "@"})
    assert tokenize("1d6", 32) == [Token("dice", "1d6", 0, 3), Token("end", "", 3, 3)]


def test_the_nesting_depth_counts_open_parentheses_only() -> None:
    """docs/dice.md ``max_depth``: closed groups and the terms between them do not
    deepen or lighten what opens after them."""
    assert parse("(1)+((1))", Limits(max_depth=2)).notation == "(1)+((1))"
    with pytest.raises(RuleError) as info:
        parse("(1)+(((1)))", Limits(max_depth=2))
    assert (info.value.code, info.value.params) == ("dice.too_deep", {"depth": 3, "max": 2})


def test_flat_sums_count_their_passes_against_the_limits() -> None:
    from rules.dice import FlatTerm, Limits, parse_flat, roll_flat

    limits = Limits(max_rolls=3)
    assert parse_flat("2d6", limits) == (FlatTerm(1, 2, 6),)
    with pytest.raises(RuleError) as caught:
        roll_flat("2d6", ScriptedSource([1, 2, 3, 4]), limits, passes=2)
    assert (caught.value.code, caught.value.params) == (
        "dice.too_many_rolls", {"rolls": 4, "max": 3})
    rolled = roll_flat("1d6", ScriptedSource([4]), limits)
    assert rolled.terms == (FlatTerm(1, 1, 6),)
    with pytest.raises(ValueError, match=r"^passes must be at least 1$"):
        parse_flat("1d6", passes=0)


@pytest.mark.parametrize(("text", "position", "modifier"),
                         [("4d6kh3kh2", 6, "kh"), ("1d6r1ro2", 5, "ro")])
def test_a_modifier_given_twice_is_named_with_its_place(text: str, position: int,
                                                         modifier: str) -> None:
    """A keep only once; a reroll either ``r`` or ``ro``."""
    with pytest.raises(RuleError) as caught:
        roll(text, src())
    assert (caught.value.code, caught.value.params) == (
        "dice.duplicate_modifier", {"position": position, "modifier": modifier})


def test_rerolling_above_a_face_leaves_the_faces_below_it() -> None:
    """``r>1`` on a d2 rerolls the 2 only (a condition over every face is refused)."""
    assert roll("1d2r>1", src(2, 1)).total == 1


def test_fudge_dice_render_as_signs_and_every_result_has_its_expression() -> None:
    result = roll("2dF", src(1, 3))
    assert result.render() == "2dF = [-, +] = 0"
    assert roll("3dFkh2", src(1, 3, 2)).render() == "3dFkh2 = [(-), +, 0] = 1"
    assert result.to_data()["expression"] == "2dF"


def test_a_line_is_shortened_only_past_its_length() -> None:
    """docs/dice.md: the full line fits as it is; else the line without the dice; else
    cut with an ellipsis."""
    result = roll("1d20", src(7))
    assert result.render(max_length=14) == "1d20 = [7] = 7"
    assert result.render(max_length=13) == "1d20 = 7"
    assert result.render(max_length=8) == "1d20 = 7"
    assert result.render(max_length=7) == "1d20 =…"
    assert result.render(max_length=0) == "…"


class _Dice:
    """A roll-only dice source (no shuffle of its own) with scripted answers."""

    def __init__(self, *values: int) -> None:
        self.values, self.faces = list(values), []

    def roll(self, faces: int) -> int:
        self.faces.append(faces)
        return self.values.pop(0)


def test_a_source_without_a_shuffle_shuffles_fisher_yates_with_its_dice() -> None:
    from rules.dice.source import shuffle

    items, dice = ["a", "b", "c"], _Dice(1, 1)
    shuffle(items, dice)
    assert (items, dice.faces) == (["b", "c", "a"], [3, 2])


def test_a_script_used_up_shuffles_with_its_fallback() -> None:
    items, dice = ["a", "b", "c"], _Dice(1, 1)
    ScriptedSource([], fallback=dice).shuffle(items)  # type: ignore[arg-type]
    assert items == ["b", "c", "a"]
    assert 1 <= ScriptedSource([]).roll(6) <= 6  # the default fallback: the system's


def test_a_seeded_source_shuffles_as_its_seed_says() -> None:
    import random

    from rules.dice.source import SeededSource

    items, expected = list("abcdef"), list("abcdef")
    SeededSource(7).shuffle(items)
    random.Random(7).shuffle(expected)
    assert items == expected


def test_a_reroll_once_keeps_its_notation() -> None:
    result = roll("1d6ro1", src(1, 4))
    assert (result.expression, result.total, result.terms[0].rolled) == ("1d6ro1", 4, [1, 4])
