"""What a dice term asks for: ``NdM``, its modifiers and the conditions they test.

The lowest piece of the engine: the AST (``nodes``), rolling (``rolling``) and the
results (``terms``) all read a term's spec, and nothing here needs any of them, so
imports point one way — nodes → rolling → terms → spec.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Protocol

_TESTS: dict[str, Callable[[int, int], bool]] = {
    "=": operator.eq,
    ">": operator.gt,
    ">=": operator.ge,
    "<": operator.lt,
    "<=": operator.le,
}


class Cond:
    """A comparison against a fixed number: ``>=8`` in ``5d10>=8``, ``<3`` in ``r<3``."""

    __slots__ = ("n", "op", "test")

    def __init__(self, op: str, n: int) -> None:
        self.op = op
        self.n = n
        compare = _TESTS[op]
        self.test: Callable[[int], bool] = lambda value: compare(value, n)

    def interval(self) -> tuple[float, float]:
        """The faces it accepts, as a closed interval (for "always true" checks)."""
        n = self.n
        inf = float("inf")
        return {
            "=": (n, n),
            ">": (n + 1, inf),
            ">=": (n, inf),
            "<": (-inf, n - 1),
            "<=": (-inf, n),
        }[self.op]

    def notation(self) -> str:
        """``=N`` is written as a bare ``N`` (``r1``, ``!6``), others as written."""
        return str(self.n) if self.op == "=" else f"{self.op}{self.n}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cond) and (self.op, self.n) == (other.op, other.n)

    def __hash__(self) -> int:
        return hash((self.op, self.n))

    def __repr__(self) -> str:
        return f"Cond({self.op!r}, {self.n})"


def covers(lo: int, hi: int, conds: list[Cond]) -> bool:
    """True when every face in ``lo..hi`` satisfies at least one of ``conds``."""
    need = float(lo)
    for start, stop in sorted(c.interval() for c in conds):
        if start > need:
            return False
        need = max(need, stop + 1)
        if need > hi:
            return True
    return need > hi


class TermSpec(Protocol):
    """What the limits, the results and the renderer read of any dice term: ``NdM``
    (``DiceSpec``) or a SealDice pool (``rules.dice.pools``)."""

    count: int
    """Dice drawn before any explosion: what ``max_dice`` and ``max_rolls`` count."""
    faces: int
    fudge: bool
    plain: bool
    """True: the result's dice are its raw faces, nothing to mark."""
    success: Cond | None
    text: str
    """Canonical notation."""

    def finish(self) -> None: ...


class DiceSpec:
    """``NdM`` with its modifiers (the AST node is ``nodes.DiceTerm``).

    Whatever order the modifiers are written in, they act in one fixed order:
    each face is rerolled (``r``/``ro``), then explodes (``!``/``!!``), then
    keep/drop picks among all dice, then success counting looks at the kept ones.
    The canonical notation lists them in that order.
    """

    __slots__ = (
        "compound",
        "count",
        "explode",
        "explode_cond",
        "explode_test",
        "faces",
        "fudge",
        "keep",
        "plain",
        "position",
        "reroll",
        "reroll_once",
        "reroll_test",
        "simple",
        "success",
        "text",
    )

    def __init__(self, count: int, faces: int, fudge: bool = False, position: int = 0) -> None:
        self.count = count
        self.faces = faces  # what the source is asked for: 3 for dF
        self.fudge = fudge
        self.position = position
        self.keep: tuple[str, int] | None = None  # ("kh" | "kl" | "dh" | "dl", n)
        self.reroll: tuple[Cond, ...] = ()
        self.reroll_once = False
        self.explode = False
        self.explode_cond: Cond | None = None  # None: the highest face
        self.compound = False
        self.success: Cond | None = None
        self.explode_test: Callable[[int], bool] | None = None  # set by finish()
        self.reroll_test: Callable[[int], bool] | None = None  # set by finish()
        self.simple = True  # one face per die: no reroll, no explosion
        self.plain = True  # simple and no keep/drop, no success counting
        self.text = ""  # canonical notation, set by finish()

    @property
    def low(self) -> int:
        return -1 if self.fudge else 1

    @property
    def high(self) -> int:
        return 1 if self.fudge else self.faces

    def finish(self) -> None:
        """Compute derived flags and the notation once the modifiers are known."""
        self.simple = not self.reroll and not self.explode
        self.plain = self.simple and self.keep is None and self.success is None
        self.text = self._build_notation()
        if self.explode:
            if self.explode_cond is None:
                high = self.high
                self.explode_test = lambda value: value == high
            else:
                self.explode_test = self.explode_cond.test
        if len(self.reroll) == 1:
            self.reroll_test = self.reroll[0].test
        elif self.reroll:
            tests = [cond.test for cond in self.reroll]
            self.reroll_test = lambda value: any(test(value) for test in tests)

    def notation(self) -> str:
        return self.text

    def _build_notation(self) -> str:
        parts = [f"{self.count}d{'F' if self.fudge else self.faces}"]
        for cond in self.reroll:
            parts.append(("ro" if self.reroll_once else "r") + cond.notation())
        if self.explode:
            parts.append("!!" if self.compound else "!")
            if self.explode_cond is not None:
                parts.append(self.explode_cond.notation())
        if self.keep is not None:
            parts.append(f"{self.keep[0]}{self.keep[1]}")
        if self.success is not None:
            parts.append(f"{self.success.op}{self.success.n}")
        return "".join(parts)
