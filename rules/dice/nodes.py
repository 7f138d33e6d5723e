"""The parsed form of a dice expression (AST).

Nodes are built once per distinct expression and shared through the parse
cache, so they are never mutated after parsing. Each node evaluates itself
(``evaluate(ctx) -> int``): a method call is the cheapest dispatch Python
has, and evaluation speed is the point of caching the parse. Sums and products
are n-ary (``first`` plus a tuple of ``(op, node)``) rather than nested binary
nodes, so ``1+1+…+1`` does not recurse once per operator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.dice.rolling import roll_term
from rules.dice.spec import DiceSpec
from rules.errors import RuleError

if TYPE_CHECKING:
    from rules.dice.rolling import Context


class Node:
    """Base of every AST node."""

    __slots__ = ()

    def evaluate(self, ctx: Context) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def notation(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError


class Num(Node):
    """An integer literal."""

    __slots__ = ("value",)

    def __init__(self, value: int) -> None:
        self.value = value

    def evaluate(self, ctx: Context) -> int:
        return self.value

    def notation(self) -> str:
        return str(self.value)


class Neg(Node):
    """Unary minus (an even number of minus signs parses to nothing at all)."""

    __slots__ = ("operand",)

    def __init__(self, operand: Node) -> None:
        self.operand = operand

    def evaluate(self, ctx: Context) -> int:
        return -self.operand.evaluate(ctx)

    def notation(self) -> str:
        return "-" + self.operand.notation()


class Group(Node):
    """Parentheses; kept in the tree only so that notation and rendering show them."""

    __slots__ = ("inner",)

    def __init__(self, inner: Node) -> None:
        self.inner = inner

    def evaluate(self, ctx: Context) -> int:
        return self.inner.evaluate(ctx)

    def notation(self) -> str:
        return f"({self.inner.notation()})"


class Sum(Node):
    """``a + b - c …`` evaluated left to right."""

    __slots__ = ("first", "rest")

    def __init__(self, first: Node, rest: tuple[tuple[str, Node], ...]) -> None:
        self.first = first
        self.rest = rest

    def evaluate(self, ctx: Context) -> int:
        total = self.first.evaluate(ctx)
        for op, node in self.rest:
            if op == "+":
                total += node.evaluate(ctx)
            else:
                total -= node.evaluate(ctx)
        return total

    def notation(self) -> str:
        return self.first.notation() + "".join(op + node.notation() for op, node in self.rest)


class Product(Node):
    """``a * b / c …`` left to right; ``/`` is floor division and refuses zero."""

    __slots__ = ("first", "rest")

    def __init__(self, first: Node, rest: tuple[tuple[str, Node], ...]) -> None:
        self.first = first
        self.rest = rest

    def evaluate(self, ctx: Context) -> int:
        total = self.first.evaluate(ctx)
        for op, node in self.rest:
            value = node.evaluate(ctx)
            if op == "*":
                total *= value
            elif value == 0:
                raise RuleError("dice.division_by_zero")
            else:
                total //= value
        return total

    def notation(self) -> str:
        return self.first.notation() + "".join(op + node.notation() for op, node in self.rest)


class DiceTerm(DiceSpec, Node):
    """A dice term in the tree: its spec (``rules.dice.spec``), rolled by ``roll_term``."""

    __slots__ = ()

    # The function itself is the method: one Python frame less per dice term.
    evaluate = roll_term
