"""What a roll produced: the result of one command, per term.

``RollResult.dice`` is the flat list of every face drawn, in drawing order
(rerolled-away faces and explosion dice included; Fudge faces as -1/0/+1), so
that a scripted test can compare it with the script it fed in. Per-die detail
(kept/dropped, exploded, rerolled, success) lives in ``terms[i].dice``
(``rules.dice.terms``).

Imports point one way — results → render → nodes → rolling → terms → spec — so
no module of the engine needs another half-loaded. ``render`` draws the dice and
the expression's skeleton; ``RollResult.render`` puts the whole line together.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rules.dice.render import DEFAULT_MAX_LENGTH, render_dice, template
from rules.dice.terms import Die, TermResult

if TYPE_CHECKING:
    from rules.dice.nodes import Node

__all__ = ["Die", "RollResult", "TermResult"]


@dataclass(slots=True)
class RollResult:
    """The outcome of one command.

    For a repeat (``3#1d20+5``) ``total`` is None, ``repeat`` is the count and
    ``rolls`` holds one ``RollResult`` per repetition; otherwise ``rolls`` is
    empty and ``terms`` lists the dice terms in evaluation order.
    """

    expression: str
    """Canonical notation (``d20+5 adv`` → ``2d20kh1+5``)."""
    reason: str
    """Free text after the expression, stripped (``開鎖``), or ``""``."""
    total: int | None
    terms: list[TermResult]
    root: Node | None = field(default=None, repr=False, compare=False)
    rolls: list[RollResult] = field(default_factory=list)
    repeat: int | None = None
    defaulted: bool = False
    """True when the text had no expression and the ``default`` one was rolled."""

    @property
    def dice(self) -> list[int]:
        """Every face drawn, in drawing order (all repetitions for a repeat)."""
        if self.repeat is not None:
            return [face for child in self.rolls for face in child.dice]
        return [face for term in self.terms for face in term.rolled]

    @property
    def totals(self) -> list[int]:
        """The totals of a repeat's rolls, or ``[total]``."""
        # a repetition and a roll that is not a repeat always have a total (see above)
        if self.repeat is not None:
            return [child.total for child in self.rolls]  # type: ignore[misc]
        return [self.total]  # type: ignore[list-item]

    def render(self, max_length: int = DEFAULT_MAX_LENGTH) -> str:
        """Plain one-line text such as ``2d6+3 = [4, 5]+3 = 12`` (see docs/dice.md),
        at most ``max_length`` characters (``rules.dice.render`` says how)."""
        text = self._line(compact=False)
        if len(text) > max_length:
            text = self._line(compact=True)
            if len(text) > max_length:
                text = text[: max(max_length - 1, 0)] + "…"
        return text

    def _line(self, compact: bool) -> str:
        if self.repeat is not None:
            return f"{self.expression}: " + "; ".join(child._body(compact) for child in self.rolls)
        return f"{self.expression} = {self._body(compact)}"

    def _body(self, compact: bool) -> str:
        """``[4, 5]+3 = 12`` — or just ``12`` when the middle would say the same."""
        total = str(self.total)
        if not self.terms or self.root is None:
            return total
        terms = iter(self.terms)
        parts = template(self.root)
        if compact:
            middle = "".join(str(next(terms).value) if p is None else p for p in parts)
        else:
            middle = "".join(render_dice(next(terms)) if p is None else p for p in parts)
        return total if middle == total else f"{middle} = {total}"

    def to_data(self) -> dict[str, Any]:
        """JSON-serialisable detail of the roll (console JSON mode, logs, tests)."""
        if self.repeat is not None:
            return {
                "expression": self.expression,
                "reason": self.reason,
                "repeat": self.repeat,
                "total": None,
                "dice": self.dice,
                "rolls": [child.to_data() for child in self.rolls],
            }
        return {
            "expression": self.expression,
            "reason": self.reason,
            "total": self.total,
            "dice": self.dice,
            "terms": [term.to_data() for term in self.terms],
        }
