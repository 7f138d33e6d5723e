"""Dice grammar, evaluation, rendering and data shape, with scripted dice."""

from __future__ import annotations

import json

import pytest

from rules.dice import (
    DEFAULT_LIMITS,
    ERROR_CODES,
    Die,
    Limits,
    RollResult,
    ScriptedSource,
    SeededSource,
    parse,
    roll,
    roll_pool,
)
from rules.errors import RuleError
from tests.support import NoMoreDice, strict_dice


class Recording:
    """Scripted faces, recording the size of each die asked for."""

    def __init__(self, values: list[int]) -> None:
        self.values = list(values)
        self.asked: list[int] = []

    def roll(self, faces: int) -> int:
        self.asked.append(faces)
        value = self.values.pop(0)
        assert 1 <= value <= faces
        return value


def run(text: str, *values: int) -> RollResult:
    """Roll ``text`` with exactly ``values`` (all of them must be used)."""
    source = strict_dice(values)
    result = roll(text, source)
    assert source.remaining == 0, "not every scripted die was used"
    return result


def refused(text: str, limits: Limits = DEFAULT_LIMITS) -> RuleError:
    with pytest.raises(RuleError) as info:
        roll(text, NoMoreDice(), limits)
    return info.value


# -- basic dice and arithmetic --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "values", "total", "expression"),
    [
        ("2d6+3", [4, 5], 12, "2d6+3"),
        ("d20", [13], 13, "1d20"),
        ("1d20+5", [7], 12, "1d20+5"),
        ("2D6", [1, 6], 7, "2d6"),
        ("d%", [87], 87, "1d100"),
        ("1d100", [100], 100, "1d100"),
        ("3d6-1d4", [1, 2, 3, 4], 2, "3d6-1d4"),
        ("(1d8+2)*2", [5], 14, "(1d8+2)*2"),
        ("1d8+2*2", [5], 9, "1d8+2*2"),
        ("2*(3+4)", [], 14, "2*(3+4)"),
        ("10-2-3", [], 5, "10-2-3"),
        ("-1d4+10", [3], 7, "-1d4+10"),
        ("--5", [], 5, "5"),
        ("+5", [], 5, "5"),
        ("1d20 + 5", [10], 15, "1d20+5"),
        ("1d1", [1], 1, "1d1"),
    ],
)
def test_basic(text: str, values: list[int], total: int, expression: str) -> None:
    result = run(text, *values)
    assert result.total == total
    assert result.expression == expression
    assert result.dice == values


@pytest.mark.parametrize(
    ("text", "total"),
    [("7/2", 3), ("-7/2", -4), ("7/-2", -4), ("-7/-2", 3), ("6/3", 2), ("1/3", 0), ("-1/3", -1)],
)
def test_division_floors(text: str, total: int) -> None:
    assert run(text).total == total


def test_division_left_to_right() -> None:
    assert run("100/10/5").total == 2
    assert run("100/10*5").total == 50


def test_division_by_zero_literal_is_refused_before_rolling() -> None:
    assert refused("1d20/0").code == "dice.division_by_zero"
    assert refused("1d20/(-0)").code == "dice.division_by_zero"


def test_division_by_rolled_zero() -> None:
    with pytest.raises(RuleError) as info:
        run("10/(1d2-1)", 1)
    assert info.value.code == "dice.division_by_zero"


def test_dice_are_rolled_left_to_right_with_their_sizes() -> None:
    source = Recording([3, 4, 5, 6])
    roll("1d4+(1d6*1d8)-1d10", source)
    assert source.asked == [4, 6, 8, 10]


# -- fudge ------------------------------------------------------------------------


def test_fudge_maps_1_2_3_to_minus_zero_plus() -> None:
    source = Recording([1, 2, 3, 3])
    result = roll("4dF", source)
    assert source.asked == [3, 3, 3, 3]
    assert result.dice == [-1, 0, 1, 1]
    assert result.total == 1
    assert result.expression == "4dF"
    assert result.render() == "4dF = [-, 0, +, +] = 1"


def test_fudge_with_modifier() -> None:
    assert run("dF+2", 1).total == 1
    assert run("4dFkh2", 3, 1, 2, 3).total == 2


# -- keep / drop ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "values", "total", "kept"),
    [
        ("4d6kh3", [6, 5, 3, 1], 14, [True, True, True, False]),
        ("4d6k3", [1, 5, 3, 6], 14, [False, True, True, True]),
        ("2d20kl1", [4, 9], 4, [True, False]),
        ("4d6dl1", [3, 1, 4, 5], 12, [True, False, True, True]),
        ("4d6dh1", [3, 1, 4, 5], 8, [True, True, True, False]),
        ("4d6kl2", [3, 1, 4, 5], 4, [True, True, False, False]),
        ("3d6kh5", [1, 2, 3], 6, [True, True, True]),
        ("3d6kh0", [1, 2, 3], 0, [False, False, False]),
        ("3d6dl9", [1, 2, 3], 0, [False, False, False]),
        ("2d20kh1", [12, 12], 12, [True, False]),
    ],
)
def test_keep_drop(text: str, values: list[int], total: int, kept: list[bool]) -> None:
    result = run(text, *values)
    assert result.total == total
    assert [d.kept for d in result.terms[0].dice] == kept


def test_keep_ties_keep_the_earlier_die() -> None:
    # kh3 and dl1 on the same faces drop the same (later) 1.
    for text in ("4d6kh3", "4d6dl1"):
        assert [d.kept for d in run(text, 3, 1, 1, 5).terms[0].dice] == [True, True, False, True]


def test_keep_render_marks_dropped_dice() -> None:
    assert run("4d6kh3", 6, 5, 3, 1).render() == "4d6kh3 = [6, 5, 3, (1)] = 14"


# -- advantage ------------------------------------------------------------------------


@pytest.mark.parametrize("word", ["adv", "ADV", "advantage", "优势", "優勢"])
def test_advantage_term(word: str) -> None:
    result = run(f"{word}+3", 4, 17)
    assert result.expression == "2d20kh1+3"
    assert result.total == 20


@pytest.mark.parametrize("word", ["dis", "disadvantage", "劣势", "劣勢"])
def test_disadvantage_term(word: str) -> None:
    result = run(word, 4, 17)
    assert result.expression == "2d20kl1"
    assert result.total == 4


@pytest.mark.parametrize(
    ("text", "expression", "total", "reason"),
    [
        ("1d20+5 adv", "2d20kh1+5", 22, ""),
        ("d20+5 dis", "2d20kl1+5", 8, ""),
        ("1d20+5adv", "2d20kh1+5", 22, ""),
        ("1d20+1d4 優勢 攻擊", "2d20kh1+1d4", None, "攻擊"),
        ("1d20 劣勢偷襲", "2d20kl1", 3, "偷襲"),
        ("1d20r1 adv", "2d20r1kh1", 17, ""),
        ("3#1d20 adv", "3#2d20kh1", None, ""),
    ],
)
def test_advantage_suffix(text: str, expression: str, total: int | None, reason: str) -> None:
    source = ScriptedSource([3, 17, 2, 3, 17, 3, 17], fallback=SeededSource(1))
    result = roll(text, source)
    assert result.expression == expression
    assert result.reason == reason
    if total is not None:
        assert result.total == total


@pytest.mark.parametrize(
    ("text", "count"),
    [("1d20+1d20 adv", 2), ("2d6 adv", 0), ("2d20kh1 adv", 0), ("adv adv", 0), ("1d20>=10 dis", 0)],
)
def test_advantage_suffix_needs_exactly_one_d20(text: str, count: int) -> None:
    error = refused(text)
    assert error.code == "dice.adv_needs_one_d20"
    assert error.params["count"] == count
    assert error.params["word"] in ("adv", "dis")


# -- explode ------------------------------------------------------------------------


def test_explode_adds_a_die_each_time_it_shows_max() -> None:
    result = run("3d6!", 6, 6, 2, 4, 1)
    assert result.total == 19
    assert result.dice == [6, 6, 2, 4, 1]
    dice = result.terms[0].dice
    assert [d.exploded for d in dice] == [True, True, False, False, False]
    assert [d.extra for d in dice] == [False, True, True, False, False]
    assert result.render() == "3d6! = [6!, 6!, 2, 4, 1] = 19"


def test_explode_with_condition() -> None:
    result = run("2d6!>=5", 5, 2, 3)
    assert result.total == 10
    assert result.expression == "2d6!>=5"
    assert run("2d6!5", 5, 2, 3).expression == "2d6!5"


def test_comparator_after_explode_belongs_to_the_explosion() -> None:
    result = run("2d10!>=8", 8, 3, 9, 2)
    assert result.expression == "2d10!>=8"
    assert result.total == 22  # a sum, not a success count
    assert [d.success for d in result.terms[0].dice] == [None] * 4


def test_compound_adds_into_the_same_die() -> None:
    result = run("2d6!!", 6, 6, 2, 3)
    assert result.total == 17
    first, second = result.terms[0].dice
    assert first.value == 14 and first.parts == (6, 6, 2) and first.exploded
    assert second.value == 3 and second.parts == ()
    assert result.render() == "2d6!! = [6!+6!+2, 3] = 17"


def test_explode_then_keep() -> None:
    result = run("2d6!kh1", 6, 3, 2)
    assert [d.kept for d in result.terms[0].dice] == [True, False, False]
    assert result.total == 6


def test_fudge_explodes_on_plus() -> None:
    assert run("dF!", 3, 3, 1).total == 1


@pytest.mark.parametrize("text", ["d1!", "1d1!!", "d6!>=1", "d6!<7", "d6r<6!", "dF!>=0r<0"])
def test_explosion_that_never_stops_is_refused(text: str) -> None:
    assert refused(text).code == "dice.explode_always"


# -- reroll -------------------------------------------------------------------------


def test_reroll_while_condition_holds() -> None:
    result = run("2d6r1", 1, 1, 4, 3)
    assert result.total == 7
    assert result.dice == [1, 1, 4, 3]
    first = result.terms[0].dice[0]
    assert first.rerolled == (1, 1) and first.value == 4
    assert result.render() == "2d6r1 = [1→1→4, 3] = 7"


@pytest.mark.parametrize(
    ("text", "values", "total"),
    [
        ("1d6r<3", [2, 1, 5], 5),
        ("1d6r<=2", [2, 6], 6),
        ("1d6r>4", [6, 5, 4], 4),
        ("1d6r>=5", [5, 1], 1),
        ("1d6r=2", [2, 3], 3),
        ("1d6r1r2", [1, 2, 6], 6),
        ("1d6ro1", [1, 1], 1),
        ("1d6ro<3", [2, 1], 1),
        ("2d8ro1+4", [1, 1, 5], 10),
    ],
)
def test_reroll_conditions(text: str, values: list[int], total: int) -> None:
    assert run(text, *values).total == total


def test_reroll_is_capped_per_die() -> None:
    limits = Limits(max_rerolls=3)
    source = strict_dice([1, 1, 1, 1])
    result = roll("1d2r1", source, limits)
    assert result.total == 1
    assert result.terms[0].dice[0].rerolled == (1, 1, 1)


@pytest.mark.parametrize("text", ["d6r<=6", "d1r1", "d6r<4r>=4", "dFr<=1", "d6r>0"])
def test_reroll_that_always_holds_is_refused(text: str) -> None:
    assert refused(text).code == "dice.reroll_always"


def test_reroll_once_that_always_holds_is_fine() -> None:
    assert run("1d1ro1", 1, 1).total == 1


def test_an_explosion_after_a_reroll_once_stops_on_its_own_faces() -> None:
    """``ro<6!``: the faces below 6 are rerolled once only, so the explosion on 6 can
    stop — only a plain reroll's faces count as always exploding."""
    result = run("1d6ro<6!", 2, 6, 3, 3)
    assert (result.total, result.render()) == (9, "1d6ro<6! = [2→6!, 3→3] = 9")


def test_mixing_r_and_ro_is_refused() -> None:
    assert refused("1d6r1ro2").code == "dice.duplicate_modifier"


def test_modifiers_act_in_fixed_order_whatever_the_written_order() -> None:
    a = run("3d6kh2!r1", 1, 6, 2, 4, 3)
    b = run("3d6r1!kh2", 1, 6, 2, 4, 3)
    assert a.expression == b.expression == "3d6r1!kh2"
    assert a.total == b.total == 10


# -- success counting -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "values", "total"),
    [
        ("5d10>=8", [9, 3, 8, 10, 1], 3),
        ("5d10>8", [9, 3, 8, 10, 1], 2),
        ("5d10<3", [9, 3, 8, 10, 1], 1),
        ("5d10<=3", [9, 3, 8, 10, 1], 2),
        ("5d10=10", [9, 3, 8, 10, 1], 1),
        ("5d10>=8+1", [9, 3, 8, 10, 1], 4),
        ("3d6kh2>=4", [4, 5, 6], 2),
        ("2d10!10>=8", [10, 7, 9], 2),
    ],
)
def test_success_counting(text: str, values: list[int], total: int) -> None:
    assert run(text, *values).total == total


def test_success_render_and_flags() -> None:
    result = run("5d10>=8", 9, 3, 8, 10, 1)
    assert [d.success for d in result.terms[0].dice] == [True, False, True, True, False]
    assert result.render() == "5d10>=8 = [9*, 3, 8*, 10*, 1] = 3"
    kept = run("3d6kh2>=4", 4, 5, 6)
    assert [d.success for d in kept.terms[0].dice] == [None, True, True]


def test_success_counting_only_on_a_dice_pool() -> None:
    error = refused("1d20+5>=15")
    assert error.code == "dice.unexpected" and error.params["found"] == ">="


# -- repeat -------------------------------------------------------------------------


def test_repeat() -> None:
    result = run("3#1d20+5 攻擊", 7, 13, 2)
    assert result.total is None
    assert result.repeat == 3
    assert result.expression == "3#1d20+5"
    assert result.reason == "攻擊"
    assert [r.total for r in result.rolls] == [12, 18, 7]
    assert result.totals == [12, 18, 7]
    assert result.dice == [7, 13, 2]
    assert all(r.expression == "1d20+5" for r in result.rolls)
    assert result.render() == "3#1d20+5: [7]+5 = 12; [13]+5 = 18; [2]+5 = 7"
    # too long: every roll drops its dice for their values, as a single roll does
    assert result.render(38) == "3#1d20+5: 7+5 = 12; 13+5 = 18; 2+5 = 7"


def test_a_repeat_of_one_is_one_roll() -> None:
    """docs/dice.md: ``N#expr`` with ``1 ≤ N``."""
    result = run("1#d6", 4)
    assert (result.expression, result.repeat, result.totals) == ("1#1d6", 1, [4])


def test_repeat_must_be_at_the_start() -> None:
    assert refused("1+3#d6").code == "dice.unexpected"
    assert refused("2#3#d6").code == "dice.unexpected"
    assert refused("0#d6").code == "dice.bad_repeat"


# -- errors -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "code", "params"),
    [
        ("(1d20", "dice.unclosed_paren", {"position": 0}),
        ("1d20+(3", "dice.unclosed_paren", {"position": 5}),
        ("1d20)", "dice.unmatched_paren", {"position": 4}),
        ("4d6kh3kl1", "dice.duplicate_modifier", {"position": 6, "modifier": "kl"}),
        ("d6!!!", "dice.duplicate_modifier", {"position": 4, "modifier": "!"}),
        ("d20d6", "dice.unexpected", {"position": 3, "found": "d6"}),
        ("0d6", "dice.no_dice", {"count": 0}),
        ("1d0", "dice.bad_faces", {"faces": 0}),
        ("(1d20+)", "dice.unexpected", {"position": 6, "found": ")"}),
        ("1d6r<", "dice.unexpected_end", {"position": 5}),
        ("0#d6", "dice.bad_repeat", {"repeats": 0}),
    ],
)
def test_errors(text: str, code: str, params: dict[str, object]) -> None:
    error = refused(text)
    assert (error.code, error.params) == (code, params)


def test_every_raised_code_is_documented() -> None:
    with open("docs/dice.md", encoding="utf-8") as doc:
        text = doc.read()
    for code, params in ERROR_CODES.items():
        assert f"`{code}`" in text, code
        for param in params:
            assert f"`{param}`" in text, (code, param)


def test_parse_is_strict_and_cached() -> None:
    assert parse("1d20 + 5", DEFAULT_LIMITS) is parse("1D20 + 5 ", DEFAULT_LIMITS)
    assert parse("1d20+5", DEFAULT_LIMITS).notation == "1d20+5"
    with pytest.raises(RuleError) as info:
        parse("1d20 攻擊", DEFAULT_LIMITS)
    assert info.value.params == {"position": 5, "found": "攻"}
    with pytest.raises(RuleError) as info:
        parse("  ", DEFAULT_LIMITS)
    assert info.value.code == "dice.empty"


# -- results --------------------------------------------------------------------------


def test_to_data_shape() -> None:
    data = run("2d6+3", 4, 5).to_data()
    assert data == {
        "expression": "2d6+3",
        "reason": "",
        "total": 12,
        "dice": [4, 5],
        "terms": [
            {
                "notation": "2d6",
                "count": 2,
                "faces": 6,
                "value": 9,
                "dice": [
                    {
                        "value": 4,
                        "kept": True,
                        "exploded": False,
                        "extra": False,
                        "rerolled": [],
                        "parts": [],
                        "success": None,
                    },
                    {
                        "value": 5,
                        "kept": True,
                        "exploded": False,
                        "extra": False,
                        "rerolled": [],
                        "parts": [],
                        "success": None,
                    },
                ],
            }
        ],
    }
    json.dumps(data)


def test_to_data_repeat_and_details() -> None:
    data = run("2#1d6r1!+dF 攻擊", 1, 6, 2, 3, 4, 1).to_data()
    assert data["repeat"] == 2 and data["total"] is None and data["reason"] == "攻擊"
    assert data["expression"] == "2#1d6r1!+1dF"
    assert data["dice"] == [1, 6, 2, 1, 4, -1]
    first, second = data["rolls"]
    assert first["expression"] == "1d6r1!+1dF" and first["total"] == 9
    d6, fudge = first["terms"]
    assert fudge["faces"] == "F"
    assert [d["rerolled"] for d in d6["dice"]] == [[1], []]
    assert [d["exploded"] for d in d6["dice"]] == [True, False]
    assert [d["extra"] for d in d6["dice"]] == [False, True]
    assert second["total"] == 3
    assert first["reason"] == second["reason"] == ""  # the reason belongs to the repeat
    json.dumps(data)


@pytest.mark.parametrize(
    ("text", "values", "line"),
    [
        ("2d6+3", [4, 5], "2d6+3 = [4, 5]+3 = 12"),
        ("d20", [15], "1d20 = [15] = 15"),
        ("5", [], "5 = 5"),
        ("5+3", [], "5+3 = 8"),
        ("(1d8+2)*2", [5], "(1d8+2)*2 = ([5]+2)*2 = 14"),
        ("-1d4", [3], "-1d4 = -[3] = -3"),
        ("1d20+5 adv", [3, 15], "2d20kh1+5 = [(3), 15]+5 = 20"),
        ("1d6!!r1", [1, 6, 2], "1d6r1!! = [1→6!+2] = 8"),
        ("2d6!kh1", [6, 3, 2], "2d6!kh1 = [6!, (3), (2)] = 6"),
        ("3d6!>=5>=5", [5, 1, 6, 2, 3], "3d6!>=5>=5 = [5!*, 1, 6!*, 2, 3] = 2"),
    ],
)
def test_render(text: str, values: list[int], line: str) -> None:
    assert run(text, *values).render() == line


def test_render_falls_back_to_values_then_cuts() -> None:
    result = roll("1000d6+1000d6", SeededSource(5))
    line = result.render()
    first, second = (term.value for term in result.terms)
    assert line == f"1000d6+1000d6 = {first}+{second} = {result.total}"
    full = result.render(max_length=100_000)
    assert full.startswith("1000d6+1000d6 = [") and len(full) > 5000
    cut = result.render(max_length=10)
    assert len(cut) == 10 and cut.endswith("…")


def test_die_lazy_and_eager_agree() -> None:
    plain = run("4d6kh3", 6, 5, 3, 1).terms[0].dice
    assert plain == [Die(6), Die(5), Die(3), Die(1, kept=False)]


def test_roll_pool() -> None:
    source = strict_dice([3, 4, 5])
    assert roll_pool(3, 6, source) == [3, 4, 5]
    assert roll_pool(0, 6, NoMoreDice()) == []
    for args, code in [
        ((1001, 6), "dice.too_many_dice"),
        ((1, 100_001), "dice.too_many_faces"),
        ((1, 0), "dice.bad_faces"),
        ((-1, 6), "dice.no_dice"),
    ]:
        with pytest.raises(RuleError) as info:
            roll_pool(*args, NoMoreDice())
        assert info.value.code == code


def test_random_source_stays_in_range() -> None:
    source = SeededSource(42)
    for _ in range(200):
        result = roll("3d6+1d4-1dF", source)
        assert all(1 <= face <= 6 for face in result.terms[0].rolled)
        assert -1 <= result.terms[2].rolled[0] <= 1
        assert 2 <= result.total <= 23  # type: ignore[operator]
