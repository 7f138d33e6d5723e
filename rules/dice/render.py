"""Plain-text, one-line rendering of a roll, identical on every chat platform.

No markdown (Discord's ``~~strike~~`` shows as tildes on QQ and Plurk), no
colour: markers are ordinary characters. Notation (also in docs/dice.md)::

    2d6+3 = [4, 5]+3 = 12            each dice term becomes its list of dice
    4d6kh3 = [6, 5, 3, (1)] = 14     (x)  dropped by keep/drop
    3d6! = [6!, 2, 4, 1] = 13        x!   exploded: the next die was added by it
    1d6!! = [6!+6!+2] = 14           a!+b!+c  a compounded die and its parts
    2d6r1 = [1→5, 3] = 8             a→b  a was rerolled into b
    5d10>=8 = [9*, 3, 8*, 10*, 1] = 3  x*  a success (the value counts successes)
    4dF = [+, 0, -, +] = 1           Fudge faces
    3#1d20+5: [7]+5 = 12; [13]+5 = 18; [2]+5 = 7

The reason is not part of the line: the bot puts it into its localised template.
Output never exceeds ``max_length``: when the full line is too long each dice
term is shown by its value only (``1000d6 = 3512``), and as a last resort the
line is cut with ``…``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from rules.dice.nodes import DiceTerm, Group, Neg, Node, Num, Product, Sum
from rules.dice.pools import PoolTerm

if TYPE_CHECKING:
    from rules.dice.terms import Die, TermResult

DEFAULT_MAX_LENGTH = 1000
"""Default ceiling of ``RollResult.render()``; the adapters split longer messages anyway."""

_FUDGE = {-1: "-", 0: "0", 1: "+"}


def _fudge(value: int) -> str:
    return _FUDGE.get(value) or str(value)


@lru_cache(maxsize=2048)
def template(root: Node) -> tuple[str | None, ...]:
    """The line's middle for an expression: fixed text, with None where a dice term goes.

    Built once per parsed expression (nodes hash by identity and are shared
    through the parse cache), so rendering does not walk the tree every time.
    """
    out: list[str | None] = []
    _walk(root, out)
    merged: list[str | None] = []
    for part in out:
        last = merged[-1] if merged else None
        if part is not None and last is not None:
            merged[-1] = last + part
        else:
            merged.append(part)
    return tuple(merged)


def _walk(node: Node, out: list[str | None]) -> None:
    """Append ``node``'s text, None for each dice term (same order as evaluation)."""
    if isinstance(node, DiceTerm | PoolTerm):
        out.append(None)
    elif isinstance(node, Num):
        out.append(str(node.value))
    elif isinstance(node, Neg):
        out.append("-")
        _walk(node.operand, out)
    elif isinstance(node, Group):
        out.append("(")
        _walk(node.inner, out)
        out.append(")")
    elif isinstance(node, Sum | Product):
        _walk(node.first, out)
        for op, child in node.rest:
            out.append(op)
            _walk(child, out)
    else:  # pragma: no cover - every node type is handled above
        raise TypeError(type(node).__name__)


def render_dice(term: TermResult) -> str:
    """``[6, 5, 3, (1)]`` for one term."""
    fudge = term.term.fudge
    if term.term.plain:  # fast path: nothing to mark
        if fudge:
            return "[" + ", ".join(_fudge(v) for v in term.rolled) + "]"
        return "[" + ", ".join(map(str, term.rolled)) + "]"
    return "[" + ", ".join(render_die(die, fudge) for die in term.dice) + "]"


def render_die(die: Die, fudge: bool = False) -> str:
    """One die with its markers: ``1→5``, ``6!``, ``6!+6!+2``, ``9*``, ``(1)``."""
    face = _fudge if fudge else str
    if die.parts:
        text = "+".join(face(p) + "!" for p in die.parts[:-1]) + "+" + face(die.parts[-1])
    else:
        text = face(die.value)
        if die.exploded:
            text += "!"
    if die.rerolled:
        text = "→".join(face(v) for v in die.rerolled) + "→" + text
    if die.success:
        text += "*"
    if not die.kept:
        text = f"({text})"
    return text
