"""Public entry points: split a command into expression and reason, parse, roll.

``roll`` is what the bot calls for ``.r``; game systems may call it too
(``roll("1d20", source)`` is a cache hit plus one draw) or use ``roll_pool``
for a bare list of faces.
"""

from __future__ import annotations

from functools import lru_cache

from rules.dice.limits import DEFAULT_LIMITS, Limits
from rules.dice.parser import Parsed, normalise, parse, parse_cached
from rules.dice.results import RollResult
from rules.dice.rolling import Context
from rules.dice.source import DiceSource
from rules.dice.tokenizer import find_expression_end
from rules.errors import RuleError

# Command lines longer than this are split and parsed without the cache, so a
# flood of long unique lines cannot pin megabytes of keys in memory.
_CACHE_TEXT_MAX = 200


def split_expression(text: str, limits: Limits = DEFAULT_LIMITS) -> tuple[str, str]:
    """``"1d20+3 開鎖"`` → ``("1d20+3", "開鎖")``; ``"開鎖"`` → ``("", "開鎖")``.

    Both parts are stripped. Where the expression ends is documented in
    docs/dice.md ("Where the expression ends"). Raises ``dice.too_long`` when
    the expression part runs past ``limits.max_length``; any other problem is
    left to ``parse``.
    """
    text = text.strip()
    end = find_expression_end(text, limits.max_length)
    return text[:end].rstrip(), text[end:].strip()


def roll(
    text: str,
    source: DiceSource,
    limits: Limits = DEFAULT_LIMITS,
    default: str = "d20",
) -> RollResult:
    """Roll a command line such as ``"4d6kh3 力量"`` with dice from ``source``.

    ``default`` is rolled when the text has no expression (``.r 開鎖``); the
    result then has ``defaulted=True``. Its faces are also those of a die written
    without faces (``d``, ``2d``, ``d优势``, as in SealDice). Every limit is checked
    before the first die is drawn; refusals are ``RuleError`` (codes in docs/dice.md).
    """
    faces = _FACES.get(default)
    if faces is None:
        faces = default_faces(default)
        if len(_FACES) < _CACHE_TEXT_MAX:  # a handful of dies in practice; bounded anyway
            _FACES[default] = faces
    if len(text) <= _CACHE_TEXT_MAX:
        parsed, reason = _prepare_cached(text, limits.max_length, limits.max_depth, faces)
    else:
        parsed, reason = _prepare(text, limits.max_length, limits.max_depth, faces)
    defaulted = parsed is None
    if parsed is None:
        parsed = parse(default, limits, faces)
    else:
        parsed.check_limits(limits)
    return evaluate(parsed, source, limits, reason, defaulted)


_FACES: dict[str, int] = {}

_DANGLING_TEXT = "+-*/(# \t\n"
"""What a reason made only of is an expression cut short (``2d6+``, ``1d20 *``, ``3#``):
the operand was forgotten — refused, not rolled without it (docs/dice.md, rule 4)."""


def default_faces(default: str) -> int:
    """The faces of a default die written ``dN`` / ``1dN`` / ``d%``; 20 for anything else."""
    count, _, sides = default.strip().lower().partition("d")
    if count in ("", "1"):
        if sides == "%":
            return 100
        if sides.isascii() and sides.isdigit():
            return int(sides)
    return 20


def _prepare(
    text: str, max_length: int, max_depth: int, faces: int
) -> tuple[Parsed | None, str]:
    limits = Limits(max_length=max_length, max_depth=max_depth)
    expression, reason = split_expression(text, limits)
    if not expression:
        return None, reason
    if reason and not reason.strip(_DANGLING_TEXT):  # `2d6+`: a typo, never a reason “+”
        raise RuleError("dice.unexpected_end", position=len(text.strip()))
    # The length was checked by the splitter; roll() checks the other limits.
    return parse_cached(normalise(expression), max_depth, faces), reason


_prepare_cached = lru_cache(maxsize=2048)(_prepare)


def evaluate(
    parsed: Parsed,
    source: DiceSource,
    limits: Limits = DEFAULT_LIMITS,
    reason: str = "",
    defaulted: bool = False,
) -> RollResult:
    """Roll an already parsed (and limit-checked) expression."""
    ctx = Context(source, limits)
    root = parsed.root
    if parsed.repeat is None:
        total = root.evaluate(ctx)
        return RollResult(parsed.notation, reason, total, ctx.terms, root, defaulted=defaulted)
    rolls = []
    for _ in range(parsed.repeat):
        ctx.terms = []
        total = root.evaluate(ctx)
        rolls.append(RollResult(parsed.inner_notation, "", total, ctx.terms, root))
    return RollResult(
        parsed.notation, reason, None, [], root, rolls, parsed.repeat, defaulted=defaulted
    )


def roll_pool(
    count: int, faces: int, source: DiceSource, limits: Limits = DEFAULT_LIMITS
) -> list[int]:
    """``count`` faces of a ``faces``-sided die, for game systems that need raw dice.

    Same limits and error codes as an expression (``count`` may be 0: an empty pool).
    """
    if count < 0:
        raise RuleError("dice.no_dice", count=count)
    if count > limits.max_dice:
        raise RuleError("dice.too_many_dice", count=count, max=limits.max_dice)
    if faces < 1:
        raise RuleError("dice.bad_faces", faces=faces)
    if faces > limits.max_faces:
        raise RuleError("dice.too_many_faces", faces=faces, max=limits.max_faces)
    if count > limits.max_rolls:
        raise RuleError("dice.too_many_rolls", rolls=count, max=limits.max_rolls)
    draw = source.roll
    return [draw(faces) for _ in range(count)]
