"""How much work one dice command may ask for.

Every limit is checked before the first die is rolled (the random-number budget
is also enforced while rolling, because explosions and rerolls cannot be
predicted). A chat bot is a public endpoint: without these, ``99999999d99999``
or a line of 100,000 ``(`` would tie up the process or blow the Python stack.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import RuleError

# The parser and evaluator recurse once per parenthesis level (about four Python
# frames each); beyond this Python's own recursion limit comes into sight.
HARD_MAX_DEPTH = 100
# No value of an expression has more digits than the expression has characters,
# so this keeps every number below Python's int/str conversion limit (4,300 digits).
HARD_MAX_LENGTH = 4_000


@dataclass(frozen=True, slots=True)
class Limits:
    """Per-command ceilings. Frozen so that it can key caches and be shared."""

    max_dice: int = 1_000
    """Dice in one term (``1000d6`` is the largest pool)."""
    max_faces: int = 100_000
    """Faces of one die."""
    max_repeats: int = 20
    """``N`` in ``N#expr``."""
    max_length: int = 500
    """Characters of expression text (the reason after it does not count)."""
    max_depth: int = 32
    """Parenthesis nesting."""
    max_rolls: int = 10_000
    """Random numbers drawn by one command, explosions and rerolls included."""
    max_rerolls: int = 100
    """Rerolls of one die by ``r``; after that the last face stands (a safety cap)."""

    def __post_init__(self) -> None:
        for name in (
            "max_dice",
            "max_faces",
            "max_repeats",
            "max_length",
            "max_depth",
            "max_rolls",
            "max_rerolls",
        ):
            if getattr(self, name) < 1:
                raise ValueError(f"Limits.{name} must be at least 1")
        if self.max_depth > HARD_MAX_DEPTH:
            raise ValueError(f"Limits.max_depth must be at most {HARD_MAX_DEPTH}")
        if self.max_length > HARD_MAX_LENGTH:
            raise ValueError(f"Limits.max_length must be at most {HARD_MAX_LENGTH}")


DEFAULT_LIMITS = Limits()


def check_length(text: str, limits: Limits) -> None:
    """Refuse over-long text before any tokenizing happens (it is O(1))."""
    if len(text) > limits.max_length:
        raise RuleError("dice.too_long", length=len(text), max=limits.max_length)
