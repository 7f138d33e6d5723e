"""Tokens of dice notation, and the scanner that finds where an expression ends.

One master regular expression recognises every token. Letter tokens carry a
look-ahead (``r`` must be followed by a digit or comparator, ``adv`` and ``f``
must not be followed by a letter, a bare ``d`` only by something that can
follow a die) so that a word is never read as notation by accident. Matching is
case-insensitive with explicit ``[0-9]`` so that non-ASCII digits are never
numbers.

The SealDice notations (issue 26) are tokens too: ``b2``/``p`` (``coc``),
``5a8k7`` (``wod``), ``3c8m10`` (``dc``), ``f`` (``fate``), ``min``/``max``
(``unsupported``: named in a refusal), keep/drop with an optional number
(``k``, ``q3``, ``dl``) and a bare ``d``/``2d`` (the channel's default die).

An ASCII letter glued to an expression (``d20kill``, ``3x``, ``1d20+str``) is
never swallowed into the reason: the scanner refuses it with
``dice.glued_letters`` (docs/dice.md, "Where the expression ends").

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
    |(?P<adv>(?:advantage|adv)(?![a-z])|优势|優勢)
    |(?P<dis>(?:disadvantage|dis)(?![a-z])|劣势|劣勢)
    |(?P<wod>[0-9]*a[0-9]+(?:[mkq][0-9]+)*)
    |(?P<dc>[0-9]+c[0-9]+(?:m[0-9]+)*)
    |(?P<dice>[0-9]*d(?:[0-9]+|%|f(?![a-z])|f(?=[kq]|d[hl]|ro?[0-9<>=])|(?![a-z0-9%])|(?=[kqr]|adv|dis)))
    |(?P<num>[0-9]+)
    |(?P<keep>kh|kl|dh|dl|k|q)
    |(?P<reroll>(?:ro|r)(?=[0-9<>=]))
    |(?P<coc>[bp][0-9]*)
    |(?P<fate>f)
    |(?P<unsupported>(?:min|max)[0-9]*)
    |(?P<explode>!!?)
    |(?P<cmp>>=|<=|>|<|=)
    |(?P<op>[-+*/])
    |(?P<lparen>\()
    |(?P<rparen>\))
    |(?P<hash>\#)
    """,
    re.IGNORECASE | re.VERBOSE,
)
_match = _TOKEN_RE.match

# Token kinds after which an expression could be complete.
OPERAND_END = frozenset(
    {"num", "dice", "rparen", "explode", "adv", "dis", "keep", "coc", "wod", "dc", "fate"}
)
# Token kinds that need an operand after them: never the last token of an expression.
DANGLING = frozenset({"op", "lparen", "hash"})
# Token kinds that can begin an operand (``op`` only as unary + or -).
_OPERAND_START = frozenset({"num", "dice", "lparen", "adv", "dis", "coc", "wod", "dc", "fate"})


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

    0. A text that starts with a word of ASCII letters that is not notation
       (``stealth``, ``dice``, ``bow``, ``kill2``) has no expression: it is all reason.
    1. Tokens are read from the start. Reading stops at the first character
       that starts no token (``攻`` in ``d20+3攻擊``) — but an ASCII letter glued
       to the token before it (``d20kill``, ``3x``, ``1d20+str``, ``4d6r``), or
       where an operand must come (``1d20+ str``), is refused with
       ``dice.glued_letters``: it is never read as the reason.
    2. Whitespace outside parentheses, after a token that can end an operand,
       ends the expression unless what follows is a binary operator (or ``#``)
       followed by something that starts an operand, or an ``adv``/``dis``
       word. So ``1d20 + 5 hit`` keeps ``+ 5`` but ``1d20 攻擊+2`` stops at ``1d20``.
    3. An ``adv``/``dis`` word is a token like any other: what follows it is
       read on (``d20优势+5``); the parser says where it may stand.
    4. Trailing operators, ``(`` and ``#`` are given back to the reason:
       ``1d20+攻擊`` → ``1d20`` / ``+攻擊``.

    Scanning is iterative and refuses with ``dice.too_long`` as soon as a token
    would end past ``max_length`` (even one that rule 4 would give back), so a
    long line costs at most ``max_length`` characters of work.
    """
    n = len(text)
    if n and _is_letter(text[0]) and _is_prose(text, max_length):
        return 0
    pos = 0
    depth = 0
    last = ""
    kinds: list[str] = []
    ends: list[int] = []
    while pos < n:
        m = _match(text, pos)
        if m is None:
            # a letter glued to a token, or where an operand must come (``1d20+ x``)
            if ends and _is_letter(text[pos]) and (ends[-1] == pos or last not in OPERAND_END):
                raise _glued(text, pos)
            break
        kind = m.lastgroup
        if kind == "ws":
            if depth == 0 and last in OPERAND_END and not _continues(text, m.end(), max_length):
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
        # kind is never None here (see tokenize): no step spent narrowing it per token
        kinds.append(kind)  # type: ignore[arg-type]
        ends.append(end)
        last = kind  # type: ignore[assignment]
        pos = end
    while kinds and kinds[-1] in DANGLING:
        kinds.pop()
        ends.pop()
    return ends[-1] if ends else 0


def _is_letter(char: str) -> bool:
    return "a" <= char <= "z" or "A" <= char <= "Z"


# Token kinds a leading word of letters may start with and still be notation.
_LETTER_STARTS = frozenset({"dice", "coc", "wod", "fate", "adv", "dis"})


def _is_prose(text: str, max_length: int) -> bool:
    """Rule 0: is the leading run of ASCII letters and digits a word, not notation?

    Notation starts with a die, ``b``/``p``, a pool, ``f`` or an advantage word; a
    word without digits must moreover be notation to its end (``dice`` is prose,
    ``dk`` is not). A word with digits that starts as notation (``d20kill``) is
    left to the scanner, which refuses its glued letters. At most ``max_length + 1``
    characters are looked at.
    """
    end = 0
    stop = min(len(text), max_length + 1)
    while end < stop and (_is_letter(text[end]) or "0" <= text[end] <= "9"):
        end += 1
    m = _match(text, 0)
    if m is None or m.lastgroup not in _LETTER_STARTS:
        return True
    if any("0" <= char <= "9" for char in text[:end]):
        return False
    pos = m.end()
    while pos < end:
        m = _match(text, pos)
        if m is None or m.lastgroup == "ws":
            return True
        pos = m.end()
    return False


_FOUND_MAX = 20


def _glued(text: str, pos: int) -> RuleError:
    """``dice.glued_letters`` naming the whole run of letters (and digits) at ``pos``."""
    start = pos
    while start > 0 and _is_letter(text[start - 1]):
        start -= 1
    end = pos
    stop = min(len(text), pos + _FOUND_MAX + 1)  # enough to name it: a huge word costs no more
    while end < stop and (_is_letter(text[end]) or "0" <= text[end] <= "9"):
        end += 1
    found = text[start:end]
    if len(found) > _FOUND_MAX:  # the word is echoed in the refusal: keep it a chat line
        found = found[: _FOUND_MAX - 1] + "…"
    return RuleError("dice.glued_letters", position=start, found=found)


def _continues(text: str, pos: int, max_length: int) -> bool:
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
    if kind in _LETTER_STARTS:  # ``1d20 + bonus``: a word, not ``b`` glued to "onus"
        return not _is_prose(text[m.start() : m.start() + max_length + 1], max_length)
    return kind in _OPERAND_START or (kind == "op" and m.group() in "+-")
