"""Whatever text arrives, the engine answers with a result or a RuleError."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.dice import ERROR_CODES, RandomSource, roll, split_expression
from rules.errors import RuleError

DICE_ALPHABET = "0123456789dDfFkKhHlLrRoO!<>=+-*/()#% \tadvis优势優勢劣勢攻擊x"

dice_like = st.text(alphabet=DICE_ALPHABET, max_size=60)
anything = st.text(max_size=80)
PIECES = "1d20 d6 4d6 kh kl dl k 1 3 ! !! r ro < >= = + - * / ( ) # adv dis dF d% 20 0 優勢 攻擊"
pieces = st.lists(st.sampled_from([*PIECES.split(), " "]), max_size=25).map("".join)


def _check(text: str) -> None:
    try:
        result = roll(text, RandomSource(7))
    except RuleError as error:
        assert error.code in ERROR_CODES
        return
    line = result.render()
    assert len(line) <= 1000
    assert "\n" not in line
    assert result.to_data()["expression"] == result.expression
    assert result.reason == split_expression(text)[1]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(dice_like, pieces))
def test_dice_like_text_only_raises_rule_errors(text: str) -> None:
    _check(text)


@settings(max_examples=150, deadline=None)
@given(anything)
def test_arbitrary_text_only_raises_rule_errors(text: str) -> None:
    _check(text)
