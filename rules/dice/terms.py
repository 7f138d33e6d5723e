"""The dice of one term (``4d6kh3``): every die with its history.

Terms whose dice are one face each (no reroll, no explosion) keep only the raw
faces and build their ``Die`` objects on first access: most rolls are never
inspected die by die, and allocating objects nobody reads is most of the cost.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules.dice.spec import TermSpec


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
        term: TermSpec,
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
