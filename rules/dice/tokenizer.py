"""Tokens of dice notation, and the scanner that finds where an expression ends.

One master regular expression recognises every token. Letter tokens carry a
look-ahead (``k`` must be followed by a digit, ``r`` by a digit or comparator,
``adv`` must not be followed by a letter) so that ordinary words after an
expression (``d20kill``, ``1d20 reflex``) are not mistaken for modifiers and
end up in the reason instead. Matching is case-insensitive with explicit
``[0-9]`` so that non-ASCII digits are never numbers.

``dF`` may be followed by a modifier (``4dFkh2``) but not by a word (``dfire``).

Both functions here are iterative: parenthesis depth is counted while
tokenizing, so 100,000 ``(`` are refused at the 33rd without any recursion.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from rules.errors import RuleError

_TOKEN_RE = re.compile(
    r"""
     (?P<ws>\s+)
    |(?P<dice>(?P<count>[0-9]*)d(?P<sides>[0-9]+|%|f(?![a-z])|f(?=(?:k[hl]?|d[hl])[0-9]|ro?[0-9<>=])))
    |(?P<num>[0-9]+)
    |(?P<keep>(?:kh|kl|dh|dl|k)(?=[0-9]))
    |(?P<reroll>(?:ro|r)(?=[0-9<>=]))
    |(?P<explode>!!?)
    |(?P<cmp>>=|<=|>|<|=)
    |(?P<op>[-+*/])
    |(?P<lparen>\()
    |(?P<rparen>\))
    |(?P<hash>\#)
    |(?P<adv>(?:advantage|adv)(?![a-z])|优势|優勢)
    |(?P<dis>(?:disadvantage|dis)(?![a-z])|劣势|劣勢)
    """,
    re.IGNORECASE | re.VERBOSE,
)
_match = _TOKEN_RE.match

# Token kinds after which an expression could be complete.
OPERAND_END = frozenset({"num", "dice", "rparen", "explode", "adv", "dis"})
# Token kinds that need an operand after them: never the last token of an expression.
DANGLING = frozenset({"op", "lparen", "hash"})
# Token kinds that can begin an operand (``op`` only as unary + or -).
_OPERAND_START = frozenset({"num", "dice", "lparen", "adv", "dis"})


class Token(NamedTuple):
    kind: str
    text: str  # lower-cased
    start: int
    end: int


def tokenize(text: str, max_depth: int) -> list[Token]:
    """Tokens of a whole expression (no reason allowed), ending with an ``end`` token.

    Raises ``dice.unexpected`` at the first character that starts no token and
    ``dice.too_deep`` as soon as parentheses nest deeper than ``max_depth``.
    """
    tokens: list[Token] = []
    append = tokens.append
    pos = 0
    n = len(text)
    depth = 0
    while pos < n:
        m = _match(text, pos)
        if m is None:
            raise RuleError("dice.unexpected", position=pos, found=text[pos])
        kind = m.lastgroup
        end = m.end()
        if kind != "ws":
            if kind == "lparen":
                depth += 1
                if depth > max_depth:
                    raise RuleError("dice.too_deep", depth=depth, max=max_depth)
            elif kind == "rparen":
                depth -= 1
            # lastgroup is typed optional, but every alternative of the pattern is a
            # named group; narrowing it would cost a step per token on the hot path
            append(Token(kind, m.group().lower(), pos, end))  # type: ignore[arg-type]
        pos = end
    append(Token("end", "", n, n))
    return tokens


def dice_parts(token_text: str) -> tuple[str, str]:
    """Count and sides text of a ``dice`` token (``"4d6"`` → ``("4", "6")``)."""
    count, _, sides = token_text.partition("d")
    return count, sides


def find_expression_end(text: str, max_length: int) -> int:
    """Index where the expression at the start of ``text`` ends (0: no expression).

    The rule (see docs/dice.md, "Where the expression ends"):

    1. Tokens are read from the start. Reading stops at the first character
       that starts no token (``攻`` in ``d20+3攻擊``, ``h`` in ``hit``).
    2. Whitespace outside parentheses, after a token that can end an operand,
       ends the expression unless what follows is a binary operator (or ``#``)
       followed by something that starts an operand, or an ``adv``/``dis``
       word. So ``1d20 + 5 hit`` keeps ``+ 5`` but ``1d20 攻擊+2`` stops at ``1d20``.
    3. An ``adv``/``dis`` word right after an operand at depth 0 is the
       trailing advantage word; the expression ends after it.
    4. Trailing operators, ``(`` and ``#`` are given back to the reason:
       ``1d20+攻擊`` → ``1d20`` / ``+攻擊``.

    Scanning is iterative and refuses with ``dice.too_long`` as soon as a token
    would end past ``max_length`` (even one that rule 4 would give back), so a
    long line costs at most ``max_length`` characters of work.
    """
    n = len(text)
    pos = 0
    depth = 0
    last = ""
    kinds: list[str] = []
    ends: list[int] = []
    while pos < n:
        m = _match(text, pos)
        if m is None:
            break
        kind = m.lastgroup
        if kind == "ws":
            if depth == 0 and last in OPERAND_END and not _continues(text, m.end()):
                break
            pos = m.end()
            continue
        end = m.end()
        if end > max_length:
            raise RuleError("dice.too_long", length=n, max=max_length)
        if kind == "lparen":
            depth += 1
        elif kind == "rparen":
            depth -= 1
        elif (kind == "adv" or kind == "dis") and depth == 0 and last in OPERAND_END:
            kinds.append(kind)
            ends.append(end)
            break
        # kind is never None here (see tokenize): no step spent narrowing it per token
        kinds.append(kind)  # type: ignore[arg-type]
        ends.append(end)
        last = kind  # type: ignore[assignment]
        pos = end
    while kinds and kinds[-1] in DANGLING:
        kinds.pop()
        ends.pop()
    return ends[-1] if ends else 0


def _continues(text: str, pos: int) -> bool:
    """After whitespace at ``pos``: does an operator-and-operand (or adv word) follow?"""
    m = _match(text, pos)
    if m is None:
        return False
    kind = m.lastgroup
    if kind == "adv" or kind == "dis":
        return True
    if kind != "op" and kind != "hash":
        return False
    nxt = m.end()
    m = _match(text, nxt)
    if m is not None and m.lastgroup == "ws":
        m = _match(text, m.end())
    if m is None:
        return False
    kind = m.lastgroup
    return kind in _OPERAND_START or (kind == "op" and m.group() in "+-")
