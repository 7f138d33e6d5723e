"""Where the expression ends and the free-text reason begins."""

from __future__ import annotations

import pytest

from rules.dice import ScriptedSource, roll, split_expression
from rules.errors import RuleError


@pytest.mark.parametrize(
    ("text", "expression", "reason"),
    [
        # the brief's cases
        ("1d20+3 開鎖", "1d20+3", "開鎖"),
        ("d20+3攻擊", "d20+3", "攻擊"),
        ("1d20 攻擊+2", "1d20", "攻擊+2"),
        ("1d20 hit-2", "1d20", "hit-2"),
        ("開鎖", "", "開鎖"),
        # whitespace followed by operator + operand continues the expression
        ("1d20 + 5 hit", "1d20 + 5", "hit"),
        ("1d20 +5攻擊", "1d20 +5", "攻擊"),
        ("1d20 - -2 x", "1d20 - -2", "x"),
        ("3 # d6 火球", "3 # d6", "火球"),
        ("2d6 * (1+1)", "2d6 * (1+1)", ""),
        # ... but an operator without an operand after it does not
        ("1d20 * 攻擊", "1d20", "* 攻擊"),
        ("1d20 +", "1d20", "+"),
        ("1d20 + * 2", "1d20", "+ * 2"),  # only + and - may follow another operator
        # trailing operators and "(" go back to the reason
        ("1d20+攻擊", "1d20", "+攻擊"),
        ("1d20+", "1d20", "+"),
        ("1d20(開鎖)", "1d20", "(開鎖)"),
        ("3#", "3", "#"),
        ("- 攻擊", "", "- 攻擊"),
        # whitespace inside parentheses never ends the expression
        ("( 1d20 + 3 ) 攻擊", "( 1d20 + 3 )", "攻擊"),
        # whitespace is not allowed inside a dice term
        ("2 d6", "2", "d6"),
        ("4d6 kh3", "4d6", "kh3"),
        # words after a space, and a leading word that is not notation, are the reason
        ("d20 dmg", "d20", "dmg"),
        ("dfire", "", "dfire"),
        ("dice", "", "dice"),
        ("stealth", "", "stealth"),
        ("bow", "", "bow"),
        ("fireball", "", "fireball"),
        ("kill2", "", "kill2"),
        ("1d20 advance", "1d20", "advance"),
        ("1d20 + bonus", "1d20", "+ bonus"),  # b, p, f, d starting a word after a space
        ("1d20 - fire 3", "1d20", "- fire 3"),
        ("1d20 + b2 侦查", "1d20 + b2", "侦查"),
        ("advantage", "advantage", ""),
        # SealDice's letters glued to a die are notation (issue 26 item 9)
        ("4d6kh", "4d6kh", ""),
        ("2d20q", "2d20q", ""),
        ("b2侦查", "b2", "侦查"),
        ("p 侦查", "p", "侦查"),
        ("f 命運", "f", "命運"),
        ("d", "d", ""),
        ("2d 傷害", "2d", "傷害"),
        ("5a8k7 WoD", "5a8k7", "WoD"),
        ("3c8m10雙十字", "3c8m10", "雙十字"),
        # the advantage word is read on: what follows it is the parser's to judge
        ("1d20+5 adv 攻擊", "1d20+5 adv", "攻擊"),
        ("1d20+5 adv+2", "1d20+5 adv+2", ""),
        ("d20优势+5 偷襲", "d20优势+5", "偷襲"),
        ("dadv+5 hit", "dadv+5", "hit"),  # the default die with advantage, ASCII
        ("dadvice", "", "dadvice"),
        ("1d20 優勢偷襲", "1d20 優勢", "偷襲"),
        ("1d20 (adv)", "1d20", "(adv)"),
        # numbers are expressions too
        ("3個哥布林", "3", "個哥布林"),
        # blanks
        ("", "", ""),
        ("   ", "", ""),
        ("  1d20   開鎖  ", "1d20", "開鎖"),
        ("1d20\n攻擊", "1d20", "攻擊"),
        # syntax errors are not hidden in the reason
        ("1d20+(3 攻擊", "1d20+(3", "攻擊"),
        ("(1d20 攻擊", "(1d20", "攻擊"),
        ("d20d6", "d20d6", ""),
    ],
)
def test_split(text: str, expression: str, reason: str) -> None:
    assert split_expression(text) == (expression, reason)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("1d20+(3 攻擊", "dice.unclosed_paren"),
        ("(1d20 攻擊", "dice.unclosed_paren"),
        ("1d20+5 adv+2", "dice.adv_not_last"),
        ("d20 dis + 5", "dice.adv_not_last"),
        # play-test finding: an operator left at the end is a forgotten operand, not
        # the reason “+” of a roll without it (the split alone still gives it back)
        ("2d6+", "dice.unexpected_end"),
        ("1d20 *", "dice.unexpected_end"),
        ("3#", "dice.unexpected_end"),
        ("1d20 + (", "dice.unexpected_end"),
    ],
)
def test_broken_expression_is_an_error_not_a_reason(text: str, code: str) -> None:
    with pytest.raises(RuleError) as info:
        roll(text, ScriptedSource([1]))
    assert info.value.code == code


def test_default_when_no_expression() -> None:
    result = roll("開鎖", ScriptedSource([11]))
    assert (result.expression, result.total, result.reason, result.defaulted) == (
        "1d20",
        11,
        "開鎖",
        True,
    )
    result = roll("", ScriptedSource([3]), default="1d100")
    assert (result.expression, result.total, result.reason) == ("1d100", 3, "")
    assert roll("1d6", ScriptedSource([3])).defaulted is False


def test_reason_keeps_its_case() -> None:
    assert roll("1D20 Pick The LOCK", ScriptedSource([5])).reason == "Pick The LOCK"


@pytest.mark.parametrize(
    ("text", "expression", "reason"),
    [
        ("(1d6 + 2) 3 goblins", "(1d6 + 2)", "3 goblins"),  # depth back to 0 after ")"
        ("1d20 5 goblins", "1d20", "5 goblins"),  # a number after a space is the reason
        ("d20+2 dis 偷襲", "d20+2 dis", "偷襲"),  # the trailing disadvantage word
        ("d20 dis + 5", "d20 dis + 5", ""),  # read on, then refused (dice.adv_not_last)
    ],
)
def test_where_an_expression_ends_after_brackets_numbers_and_dis(
        text: str, expression: str, reason: str) -> None:
    assert split_expression(text) == (expression, reason)


@pytest.mark.parametrize(
    ("text", "position", "found"),
    [
        ("d20kill", 3, "kill"),  # once the reason "kill", now a refusal
        ("d20reflex", 3, "reflex"),
        ("1d20r 攻擊", 4, "r"),  # r without a condition
        ("3x", 1, "x"),
        ("1d20+str", 5, "str"),  # a word where an operand belongs
        ("(1d6)dmg", 5, "dmg"),
        ("b2x", 2, "x"),
        ("4d6kill", 3, "kill"),
        ("1d20+" + "x" * 500, 5, "x" * 19 + "…"),  # echoed, so cut to a chat word
    ],
)
def test_letters_glued_to_an_expression_are_refused_not_read_as_the_reason(
        text: str, position: int, found: str) -> None:
    """Issue 26 item 8: a letter glued to a number, a die or an operator is notation
    or a refusal that names it — never the start of the reason."""
    with pytest.raises(RuleError) as info:
        split_expression(text)
    assert (info.value.code, info.value.params) == (
        "dice.glued_letters", {"position": position, "found": found})
