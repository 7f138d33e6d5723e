"""Flat sums: ``NdM`` terms and integers joined by ``+`` and ``-``, nothing else.

What a game system needs for damage and loss expressions (``1d6+2``, ``2d4``,
``d4-1``, ``3``): the signed terms, then a roll that reports every face, the
constants' sum and the total. Parsing is the engine's own (``parse``: same
tokens, same errors, same parse cache); this module only refuses what a flat
sum does not allow and rolls the terms.

- ``parse_flat(text, limits, *, passes=1)`` → ``tuple[FlatTerm, ...]``. Refuses,
  in this order: the engine's length, syntax and meaning errors (``dice.empty``,
  ``dice.unexpected``, ``dice.no_dice``, ``dice.bad_faces``, …); anything but a
  flat sum with ``dice.unexpected`` (``position``, ``found``: a modifier, ``*``,
  ``/``, parentheses, ``#``, ``adv``/``dis``, ``d%``, ``dF``, or more than one
  sign in a row — one leading sign is allowed: ``-1d4+2``); then the limits
  (``max_dice`` and ``max_faces`` per term, and the dice of every term, times
  ``passes``, against ``max_rolls``).
- ``roll_flat(text_or_terms, source, limits, *, passes=1)`` → ``FlatRoll``.
  ``passes`` rolls the dice terms that many times (a critical or an impale that
  doubles the dice) while constants count once; faces are listed pass by pass,
  terms in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.dice.limits import DEFAULT_LIMITS, Limits, check_length
from rules.dice.nodes import DiceTerm, Neg, Node, Num, Sum
from rules.dice.parser import normalise, parse_cached
from rules.dice.source import DiceSource
from rules.dice.tokenizer import Token, dice_parts, tokenize
from rules.errors import RuleError


@dataclass(frozen=True, slots=True)
class FlatTerm:
    """One term of a flat sum: ``sign × count d faces``, or the constant ``sign × count``."""

    sign: int  # 1 or -1
    count: int  # number of dice, or the constant when ``faces == 0``
    faces: int  # 0 for a constant


@dataclass(frozen=True, slots=True)
class FlatRoll:
    """A rolled flat sum: every face drawn (in order), the constants' sum and the total."""

    terms: tuple[FlatTerm, ...]
    dice: tuple[int, ...]
    modifier: int
    total: int
    passes: int = 1


def _check_shape(tokens: list[Token]) -> None:
    """A flat sum, token by token: ``[sign] operand (sign operand)*``."""
    i = 0
    if tokens[0].kind == "op" and tokens[0].text in "+-":
        i = 1
    while True:
        token = tokens[i]
        plain_dice = token.kind == "dice" and dice_parts(token.text)[1].isdigit()
        if token.kind != "num" and not plain_dice:
            raise RuleError("dice.unexpected", position=token.start, found=token.text)
        token = tokens[i + 1]
        if token.kind == "end":
            return
        if token.kind != "op" or token.text not in "+-":
            raise RuleError("dice.unexpected", position=token.start, found=token.text)
        i += 2


def _term(node: Node, sign: int) -> FlatTerm:
    if isinstance(node, Neg):
        return _term(node.operand, -sign)
    if isinstance(node, DiceTerm):
        return FlatTerm(sign, node.count, node.faces)
    assert isinstance(node, Num), node  # guaranteed by _check_shape
    return FlatTerm(sign, node.value, 0)


def parse_flat(
    text: str, limits: Limits = DEFAULT_LIMITS, *, passes: int = 1
) -> tuple[FlatTerm, ...]:
    """The signed terms of a flat sum (``"1d6+2"`` → ``(FlatTerm(1, 1, 6), FlatTerm(1, 2, 0))``).

    Every limit is checked here, before any die is drawn; ``passes`` multiplies
    the dice counted against ``limits.max_rolls``.
    """
    if passes < 1:
        raise ValueError("passes must be at least 1")
    check_length(text, limits)
    key = normalise(text)
    parsed = parse_cached(key, limits.max_depth)
    _check_shape(tokenize(key, limits.max_depth))
    parsed.check_limits(limits)
    if parsed.min_rolls * passes > limits.max_rolls:
        rolls = parsed.min_rolls * passes
        raise RuleError("dice.too_many_rolls", rolls=rolls, max=limits.max_rolls)
    root = parsed.root
    if isinstance(root, Sum):
        rest = tuple(_term(node, -1 if op == "-" else 1) for op, node in root.rest)
        return (_term(root.first, 1), *rest)
    return (_term(root, 1),)


def roll_flat(
    flat: str | Sequence[FlatTerm],
    source: DiceSource,
    limits: Limits = DEFAULT_LIMITS,
    *,
    passes: int = 1,
) -> FlatRoll:
    """Roll a flat sum: text (parsed and checked by ``parse_flat``) or its terms.

    Terms given directly are taken as already checked (they come from
    ``parse_flat`` with the same ``passes``).
    """
    terms = parse_flat(flat, limits, passes=passes) if isinstance(flat, str) else tuple(flat)
    draw = source.roll
    faces: list[int] = []
    total = 0
    for _ in range(passes):
        for term in terms:
            if term.faces:
                for _ in range(term.count):
                    face = int(draw(term.faces))
                    faces.append(face)
                    total += term.sign * face
    modifier = sum(t.sign * t.count for t in terms if not t.faces)
    return FlatRoll(terms, tuple(faces), modifier, total + modifier, passes)
