"""Recursive-descent parser: tokens → AST → ``Parsed`` (cached per expression).

Grammar (case-insensitive; whitespace between tokens is ignored here — the
splitter has already decided where the expression ends)::

    command  := [INT "#"] sum [adv-word]          (nothing may follow the adv word)
    sum      := product (("+" | "-") product)*
    product  := unary (("*" | "/") unary)*
    unary    := ("+" | "-")* primary              (a loop, not recursion)
    primary  := INT | dice modifier* [success] | adv-word | "(" sum ")"
              | ("b" | "p") [INT]                 (CoC bonus/penalty d100)
              | [INT] "a" INT (("m"|"k"|"q") INT)*  (WoD pool)
              | INT "c" INT ("m" INT)*              (Double Cross pool)
              | "f"                               (4dF)
    dice     := [INT] "d" [INT | "%" | "F"]       (no faces: the default die)
    modifier := ("kh"|"kl"|"dh"|"dl"|"k"|"q") [INT]   (no number: 1)
              | ("r" | "ro") cond                 (several r/ro conditions are OR-ed)
              | ("!" | "!!") [cond]
              | adv-word glued to a one-die term  (``d20优势``: 2d20kh1)
    success  := (">=" | ">" | "<=" | "<" | "=") INT
    cond     := [(">=" | ">" | "<=" | "<" | "=")] INT

Recursion happens only at parentheses, whose depth the tokenizer has already
bounded. Checks that do not depend on ``Limits`` (``1d0``, ``d1!``, ``r``
that always rerolls, a literal ``/0``) are made here; limit checks are made by
``check_limits`` on every use, since one cached parse serves every ``Limits``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal, overload

from rules.dice.limits import Limits, check_length
from rules.dice.nodes import DiceTerm, Group, Neg, Node, Num, Product, Sum
from rules.dice.pools import DoubleCrossTerm, PercentileTerm, WodTerm
from rules.dice.spec import Cond, TermSpec, covers
from rules.dice.tokenizer import Token, dice_parts, tokenize
from rules.errors import RuleError

_KEEP_NAMES = {"k": "kh", "kh": "kh", "kl": "kl", "dh": "dh", "dl": "dl", "q": "kl"}


class Parsed:
    """A parsed command, shared through the cache: never mutate it.

    ``root`` is the expression rolled once (``repeat`` times for ``N#``);
    ``min_rolls`` is the number of dice it rolls before any explosion or
    reroll, the static part of the random-number budget.
    """

    __slots__ = (
        "_checked",
        "dice_terms",
        "inner_notation",
        "min_rolls",
        "notation",
        "repeat",
        "root",
    )

    def __init__(self, root: Node, repeat: int | None, dice_terms: tuple[TermSpec, ...]) -> None:
        self.root = root
        self.repeat = repeat
        self.dice_terms = dice_terms
        self.inner_notation = root.notation()
        self.notation = self.inner_notation if repeat is None else f"{repeat}#{self.inner_notation}"
        self.min_rolls = sum(term.count for term in dice_terms) * (repeat or 1)
        self._checked: Limits | None = None

    def check_limits(self, limits: Limits) -> None:
        """Refuse what exceeds ``limits`` — before any die is rolled."""
        if self._checked is limits:
            return
        if self.repeat is not None and self.repeat > limits.max_repeats:
            raise RuleError("dice.too_many_repeats", repeats=self.repeat, max=limits.max_repeats)
        for term in self.dice_terms:
            if term.count > limits.max_dice:
                raise RuleError("dice.too_many_dice", count=term.count, max=limits.max_dice)
            if term.faces > limits.max_faces:
                raise RuleError("dice.too_many_faces", faces=term.faces, max=limits.max_faces)
        if self.min_rolls > limits.max_rolls:
            raise RuleError("dice.too_many_rolls", rolls=self.min_rolls, max=limits.max_rolls)
        self._checked = limits

    def __repr__(self) -> str:
        return f"Parsed({self.notation!r})"


def normalise(text: str) -> str:
    """The cache key of an expression: stripped and lower-cased.

    Inner whitespace is kept as is, so error positions still point into the
    text the user wrote (minus leading blanks).
    """
    return text.strip().lower()


def parse(text: str, limits: Limits, default_faces: int = 20) -> Parsed:
    """Parse an expression (no reason after it) and check it against ``limits``.

    ``default_faces`` is what a die written without faces (``d``, ``2d``, ``d优势``)
    rolls: the channel's default die. The length is checked first, in O(1),
    before any tokenizing.
    """
    check_length(text, limits)
    parsed = parse_cached(normalise(text), limits.max_depth, default_faces)
    parsed.check_limits(limits)
    return parsed


@lru_cache(maxsize=2048)
def parse_cached(text: str, max_depth: int, default_faces: int = 20) -> Parsed:
    """Parse normalised text; errors are not cached, so only valid input fills the cache."""
    if not text:
        raise RuleError("dice.empty")
    return _Parser(tokenize(text, max_depth), default_faces).command()


class _Parser:
    __slots__ = ("default_faces", "dice_terms", "i", "tokens")

    def __init__(self, tokens: list[Token], default_faces: int) -> None:
        self.tokens = tokens
        self.i = 0
        self.default_faces = default_faces
        self.dice_terms: list[TermSpec] = []

    # -- helpers ---------------------------------------------------------------

    def _peek(self) -> Token:
        return self.tokens[self.i]

    def _next(self) -> Token:
        token = self.tokens[self.i]
        if token.kind != "end":
            self.i += 1
        return token

    @staticmethod
    def _unexpected(token: Token) -> RuleError:
        if token.kind == "end":
            return RuleError("dice.unexpected_end", position=token.start)
        if token.kind == "unsupported":  # SealDice's min/max: named, not just unreadable
            return RuleError("dice.unsupported", position=token.start, found=token.text)
        return RuleError("dice.unexpected", position=token.start, found=token.text)

    def _int(self) -> int:
        token = self._next()
        if token.kind != "num":
            raise self._unexpected(token)
        return int(token.text)

    # -- grammar ---------------------------------------------------------------

    def command(self) -> Parsed:
        repeat = None
        tokens = self.tokens
        if tokens[0].kind == "num" and tokens[1].kind == "hash":
            repeat = int(tokens[0].text)
            if repeat < 1:
                raise RuleError("dice.bad_repeat", repeats=repeat)
            self.i = 2
        root = self.sum()
        token = self._peek()
        if token.kind in ("adv", "dis"):
            self._next()
            self._apply_advantage(token)
            token = self._peek()
            if token.kind != "end":
                raise RuleError("dice.adv_not_last", position=token.start, found=token.text)
        if token.kind == "rparen":
            raise RuleError("dice.unmatched_paren", position=token.start)
        if token.kind != "end":
            raise self._unexpected(token)
        for term in self.dice_terms:
            term.finish()
        return Parsed(root, repeat, tuple(self.dice_terms))

    def sum(self) -> Node:
        first = self.product()
        rest: list[tuple[str, Node]] = []
        while (token := self._peek()).kind == "op" and token.text in "+-":
            self._next()
            rest.append((token.text, self.product()))
        return Sum(first, tuple(rest)) if rest else first

    def product(self) -> Node:
        first = self.unary()
        rest: list[tuple[str, Node]] = []
        while (token := self._peek()).kind == "op" and token.text in "*/":
            self._next()
            node = self.unary()
            if token.text == "/" and _is_literal_zero(node):
                raise RuleError("dice.division_by_zero")
            rest.append((token.text, node))
        return Product(first, tuple(rest)) if rest else first

    def unary(self) -> Node:
        negative = False
        while (token := self._peek()).kind == "op" and token.text in "+-":
            self._next()
            negative ^= token.text == "-"
        node = self.primary()
        return Neg(node) if negative else node

    def primary(self) -> Node:
        token = self._next()
        kind = token.kind
        if kind == "num":
            return Num(int(token.text))
        if kind == "dice":
            return self.dice(token)
        if kind in ("adv", "dis"):
            term = DiceTerm(2, 20, position=token.start)
            term.keep = ("kh" if kind == "adv" else "kl", 1)
            self.dice_terms.append(term)
            return term
        if kind in ("coc", "wod", "dc", "fate"):
            return self.pool(token)
        if kind == "lparen":
            inner = self.sum()
            closing = self._next()
            if closing.kind != "rparen":
                if closing.kind == "end":
                    raise RuleError("dice.unclosed_paren", position=token.start)
                raise self._unexpected(closing)
            return Group(inner)
        raise self._unexpected(token)

    def pool(self, token: Token) -> Node:
        """The SealDice terms: ``b``/``p`` d100, WoD and Double Cross pools, ``f``."""
        text = token.text
        node: DiceTerm | PercentileTerm | WodTerm | DoubleCrossTerm
        if token.kind == "fate":
            node = DiceTerm(4, 3, fudge=True, position=token.start)
        elif token.kind == "coc":
            count = int(text[1:]) if len(text) > 1 else 1
            node = PercentileTerm(count if text[0] == "b" else -count)
        elif token.kind == "wod":
            node = WodTerm.from_text(text)
        else:
            node = DoubleCrossTerm.from_text(text)
        self.dice_terms.append(node)
        return node

    def dice(self, token: Token) -> DiceTerm:
        count_text, sides = dice_parts(token.text)
        count = int(count_text) if count_text else 1
        if count < 1:
            raise RuleError("dice.no_dice", count=count)
        if sides == "f":
            term = DiceTerm(count, 3, fudge=True, position=token.start)
        else:
            faces = 100 if sides == "%" else int(sides) if sides else self.default_faces
            if faces < 1:
                raise RuleError("dice.bad_faces", faces=faces)
            term = DiceTerm(count, faces, position=token.start)
        self._modifiers(term)
        self.dice_terms.append(term)
        return term

    def _modifiers(self, term: DiceTerm) -> None:
        reroll: list[Cond] = []
        while True:
            token = self._peek()
            kind = token.kind
            if kind == "keep":
                self._next()
                if term.keep is not None:
                    raise RuleError(
                        "dice.duplicate_modifier", position=token.start, modifier=token.text
                    )
                number = self._peek()
                if number.kind == "num" and number.start == token.end:  # glued: k3
                    self._next()
                    term.keep = (_KEEP_NAMES[token.text], int(number.text))
                else:  # SealDice: no number means 1 (``4d6k``, ``2d20q``)
                    term.keep = (_KEEP_NAMES[token.text], 1)
            elif kind == "reroll":
                self._next()
                once = token.text == "ro"
                if reroll and once != term.reroll_once:
                    raise RuleError(
                        "dice.duplicate_modifier", position=token.start, modifier=token.text
                    )
                term.reroll_once = once
                reroll.append(self._cond(required=True))
            elif kind == "explode":
                self._next()
                if term.explode:
                    raise RuleError(
                        "dice.duplicate_modifier", position=token.start, modifier=token.text
                    )
                term.explode = True
                term.compound = token.text == "!!"
                term.explode_cond = self._cond(required=False)
            elif kind == "cmp":
                self._next()
                term.success = Cond(token.text, self._int())
                break  # success counting is always the last modifier
            elif (kind == "adv" or kind == "dis") and self._glued_advantage(token, term):
                # SealDice's ``d20优势``: this one die becomes two, keeping one
                self._next()
                term.count = 2
                term.keep = ("kh" if kind == "adv" else "kl", 1)
            else:
                break
        term.reroll = tuple(reroll)
        self._check_termination(term)

    def _glued_advantage(self, token: Token, term: DiceTerm) -> bool:
        """An adv word written right after a one-die term (no space) belongs to it."""
        return (
            token.start == self.tokens[self.i - 1].end
            and term.count == 1
            and not term.fudge
            and term.keep is None
            and term.success is None
        )

    @overload
    def _cond(self, required: Literal[True]) -> Cond: ...

    @overload
    def _cond(self, required: Literal[False]) -> Cond | None: ...

    def _cond(self, required: bool) -> Cond | None:
        token = self._peek()
        if token.kind == "cmp":
            self._next()
            return Cond(token.text, self._int())
        if token.kind == "num":
            self._next()
            return Cond("=", int(token.text))
        if required:
            raise self._unexpected(token)
        return None

    @staticmethod
    def _check_termination(term: DiceTerm) -> None:
        """Refuse modifiers that could never stop (``d1!``, ``d6r<=6``, ``d6r<6!``)."""
        low, high = term.low, term.high
        rerolls = list(term.reroll)
        if rerolls and not term.reroll_once and covers(low, high, rerolls):
            term.text = term._build_notation()
            raise RuleError("dice.reroll_always", notation=term.text)
        if term.explode:
            explode = term.explode_cond if term.explode_cond is not None else Cond("=", high)
            conds = [explode] if term.reroll_once else [*rerolls, explode]
            if covers(low, high, conds):
                term.text = term._build_notation()
                raise RuleError("dice.explode_always", notation=term.text)

    def _apply_advantage(self, word: Token) -> None:
        """``1d20+5 adv``: the only plain 1d20 becomes ``2d20kh1`` (``kl1`` for dis)."""
        eligible = [
            term
            for term in self.dice_terms
            if isinstance(term, DiceTerm)
            and term.count == 1
            and term.faces == 20
            and not term.fudge
            and term.keep is None
            and term.success is None
        ]
        if len(eligible) != 1:
            raise RuleError("dice.adv_needs_one_d20", word=word.kind, count=len(eligible))
        term = eligible[0]
        term.count = 2
        term.keep = ("kh" if word.kind == "adv" else "kl", 1)


def _is_literal_zero(node: Node) -> bool:
    while isinstance(node, Neg | Group):
        node = node.operand if isinstance(node, Neg) else node.inner
    return isinstance(node, Num) and node.value == 0
