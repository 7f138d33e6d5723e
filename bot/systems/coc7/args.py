"""What a coc7 check line says: `.ra [b|p][N] [困难|极难]技能[值] [值]`.

Bonus and penalty dice (``b``, ``b2``, ``p``), a difficulty (a word or a prefix glued
to the skill), one skill name (an English name may take several words: ``Spot
Hidden``) and at most one value (spaced or glued: ``侦查 60``, ``侦查60``). Anything
else is refused with the usage — never read as something else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.errors import CommandError
from bot.names import fold
from rules.dice.percentile import MAX_EXTRA_DICE
from rules.errors import RuleError
from rules.systems import coc7
from rules.systems.coc7 import Difficulty

ECHO = 30
_EXTRA = re.compile(r"^(?:[bp]\d{0,2})+$", re.IGNORECASE)
"""``b``, ``b2``, ``p`` — and glued together, ``b2p1`` (they cancel, as spaced)."""
_ONE_EXTRA = re.compile(r"([bp])(\d{0,2})", re.IGNORECASE)
_VALUE = re.compile(r"^\d{1,5}$")
_GLUED = re.compile(r"^(?P<name>.*?\D)(?P<value>\d{1,5})$")
_MODIFIER = re.compile(r"^(?P<rest>.*?)(?P<mod>[+-]\d{1,3})$")
MAX_MODIFIER = 100
_SPELLINGS: tuple[tuple[Difficulty, tuple[str, ...]], ...] = (
    ("hard", ("困難", "困难", "hard")),
    ("extreme", ("極難", "极难", "極限", "极限", "extreme")),
)
DIFFICULTY_WORDS: dict[str, Difficulty] = {
    fold(word): level for level, words in _SPELLINGS for word in words}
_PREFIXES = sorted(DIFFICULTY_WORDS, key=len, reverse=True)


@dataclass
class CheckArgs:
    """A check line, read: the skill as typed (None: a bare value), the inline value,
    the net bonus dice (negative: penalty), the difficulty and a modifier."""

    stat: str | None = None
    value: int | None = None
    bonus: int = 0
    difficulty: Difficulty = "regular"
    modifier: int = 0
    """``侦查+10`` / ``侦查 -20``: added to the skill for this check (SealDice's habit)."""


def _difficulty(args: CheckArgs, word: Difficulty, usage: str) -> None:
    if args.difficulty != "regular":
        raise CommandError(usage)
    args.difficulty = word


def _value(args: CheckArgs, text: str, usage: str) -> None:
    if args.value is not None:
        raise CommandError(usage)
    args.value = int(text)
    if args.value > coc7.MAX_SKILL:
        raise CommandError("coc7.error.bad_skill", value=args.value, max=coc7.MAX_SKILL)


def _strip_difficulty(args: CheckArgs, word: str, usage: str) -> str:
    """``困难侦查`` → 侦查 with the difficulty set (a skill named 困難… is no skill)."""
    folded = fold(word)
    for prefix in _PREFIXES:
        if folded.startswith(prefix) and len(folded) > len(prefix):
            _difficulty(args, DIFFICULTY_WORDS[prefix], usage)
            return word[len(prefix):]
    return word


def _modifier(args: CheckArgs, token: str, usage: str) -> str:
    """Take a trailing ``+10`` / ``-20`` off ``token`` into the modifier (one per line)."""
    found = _MODIFIER.match(token)
    if found is None:
        return token
    if args.modifier:
        raise CommandError(usage)
    args.modifier = int(found["mod"])
    if abs(args.modifier) > MAX_MODIFIER:
        raise CommandError("coc7.error.bad_modifier", value=args.modifier, max=MAX_MODIFIER)
    return found["rest"]


def stray(names: list[str]) -> str:
    """The first word that is no part of a skill: after the longest run of words that
    names one (`.ra Spot Hidden now` → now), else the first (`.en b 偵查` → b)."""
    for end in range(len(names) - 1, 0, -1):
        if coc7.SYSTEM.stat(" ".join(names[:end])) is not None:
            return names[end]
    return names[0]


def parse_check(text: str, usage: str = "coc7.error.ra_usage", *,
                extra_dice: bool = True) -> CheckArgs:
    """Read a check line; ``extra_dice`` False where `b`/`p` mean nothing (`.en`)."""
    args = CheckArgs()
    names: list[str] = []
    for typed in text.split():
        token = _modifier(args, typed, usage)
        if not token:
            continue
        folded = fold(token)
        extra = _EXTRA.match(token)
        if extra and extra_dice and not names:
            for kind, digits in _ONE_EXTRA.findall(token):
                count = int(digits) if digits else 1
                args.bonus += count if kind.casefold() == "b" else -count
        elif folded in DIFFICULTY_WORDS and not names:
            _difficulty(args, DIFFICULTY_WORDS[folded], usage)
        elif _VALUE.match(token):
            _value(args, token, usage)
        elif args.value is not None:
            raise CommandError("coc7.error.extra_word", word=token[:ECHO])
        else:
            word = _strip_difficulty(args, token, usage) if not names else token
            glued = _GLUED.match(word)
            if glued and not glued["name"].isspace():
                names.append(glued["name"])
                _value(args, glued["value"], usage)
            else:
                names.append(word)
    if names:
        args.stat = " ".join(names)
        if len(names) > 1 and coc7.SYSTEM.stat(args.stat) is None:
            raise CommandError("coc7.error.extra_word", word=stray(names)[:ECHO])
    if args.stat is None and args.value is None:
        raise CommandError(usage)
    if abs(args.bonus) > MAX_EXTRA_DICE:  # refused before any die (CO-4)
        raise RuleError("dice.too_many_bonus_dice", count=abs(args.bonus), max=MAX_EXTRA_DICE)
    return args


def precheck_check(text: str) -> None:
    parse_check(text)
