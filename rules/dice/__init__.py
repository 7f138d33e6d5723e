"""The dice engine: tokenizer → parser → AST (LRU-cached) → evaluator → result tree.

Pure: no I/O, no asyncio, no chat text. Refusals are
``rules.errors.RuleError(code, **params)``; the codes are listed in
``rules.dice.codes.ERROR_CODES`` and explained in docs/dice.md.
"""

from rules.dice.codes import ERROR_CODES
from rules.dice.engine import evaluate, roll, roll_pool, split_expression
from rules.dice.flat import FlatRoll, FlatTerm, parse_flat, roll_flat
from rules.dice.limits import DEFAULT_LIMITS, Limits
from rules.dice.parser import Parsed, parse
from rules.dice.results import Die, RollResult, TermResult
from rules.dice.source import (
    DiceSource,
    ScriptedSource,
    SeededSource,
    SystemSource,
    shuffle,
)

__all__ = [
    "DEFAULT_LIMITS",
    "ERROR_CODES",
    "DiceSource",
    "Die",
    "FlatRoll",
    "FlatTerm",
    "Limits",
    "Parsed",
    "RollResult",
    "ScriptedSource",
    "SeededSource",
    "SystemSource",
    "TermResult",
    "evaluate",
    "parse",
    "parse_flat",
    "roll",
    "roll_flat",
    "roll_pool",
    "shuffle",
    "split_expression",
]
