"""What a roll produced: every die with its history, per term, per command.

``RollResult.dice`` is the flat list of every face drawn, in drawing order
(rerolled-away faces and explosion dice included; Fudge faces as -1/0/+1), so
that a scripted test can compare it with the script it fed in. Per-die detail
(kept/dropped, exploded, rerolled, success) lives in ``terms[i].dice``.

Terms whose dice are one face each (no reroll, no explosion) keep only the raw
faces and build their ``Die`` objects on first access: most rolls are never
inspected die by die, and allocating objects nobody reads is most of the cost.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules.dice.nodes import DiceTerm, Node

DEFAULT_MAX_LENGTH = 1000
"""Default ceiling of ``RollResult.render()``; the adapters split longer messages anyway."""


@dataclass(slots=True)
class Die:
    """One die as shown to players."""

    value: int
    """What the die counts for (a compounded die: the sum of its parts)."""
    kept: bool = True
    """False when dropped by keep/drop (``kh``/``kl``/``dh``/``dl``)."""
    exploded: bool = False
    """``!``: this die met the explode condition and added the next die.
    ``!!``: this die compounded (it has several ``parts``)."""
    extra: bool = False
    """Added by the explosion of the die before it."""
    rerolled: tuple[int, ...] = ()
    """Faces replaced by ``r``/``ro``, in order; ``value`` is the last face."""
    parts: tuple[int, ...] = ()
    """``!!`` only: the faces added together into ``value`` (empty otherwise)."""
    success: bool | None = None
    """Success counting: whether this kept die succeeded (None: not counted)."""

    def to_data(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "kept": self.kept,
            "exploded": self.exploded,
            "extra": self.extra,
            "rerolled": list(self.rerolled),
            "parts": list(self.parts),
            "success": self.success,
        }


class TermResult:
    """The outcome of one dice term (``4d6kh3``) inside an expression."""

    __slots__ = ("_dice", "dropped", "rolled", "term", "value")

    def __init__(
        self,
        term: DiceTerm,
        rolled: list[int],
        value: int,
        dropped: tuple[int, ...] = (),
        dice: list[Die] | None = None,
    ) -> None:
        self.term = term
        self.rolled = rolled  # every face drawn for this term, in order
        self.value = value
        self.dropped = dropped  # indices into rolled (only when dice is built lazily)
        self._dice = dice

    @property
    def notation(self) -> str:
        return self.term.text

    @property
    def faces(self) -> int | str:
        """Faces of the die: an int, or ``"F"`` for Fudge dice."""
        return "F" if self.term.fudge else self.term.faces

    @property
    def dice(self) -> list[Die]:
        """The dice of this term, in rolling order."""
        if self._dice is None:
            dropped = set(self.dropped)
            success = self.term.success
            if success is None:
                self._dice = [Die(v, kept=i not in dropped) for i, v in enumerate(self.rolled)]
            else:
                test = success.test
                self._dice = [
                    Die(v, kept=False) if i in dropped else Die(v, success=test(v))
                    for i, v in enumerate(self.rolled)
                ]
        return self._dice

    def to_data(self) -> dict[str, Any]:
        return {
            "notation": self.term.text,
            "count": self.term.count,
            "faces": self.faces,
            "value": self.value,
            "dice": [die.to_data() for die in self.dice],
        }

    def __repr__(self) -> str:
        return f"TermResult({self.term.text!r}, value={self.value}, rolled={self.rolled})"


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
        if self.repeat is not None:
            return [child.total for child in self.rolls]  # type: ignore[misc]
        return [self.total]  # type: ignore[list-item]

    def render(self, max_length: int = DEFAULT_MAX_LENGTH) -> str:
        """Plain one-line text such as ``2d6+3 = [4, 5]+3 = 12`` (see docs/dice.md)."""
        return render_result(self, max_length)

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


# At the bottom: render imports nodes, which imports rolling, which imports this
# module — by now everything they need from here is defined.
from rules.dice.render import render_result  # noqa: E402
