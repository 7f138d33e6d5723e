"""The pieces of a check's arguments as players type them: ``觀察+2 >=15 取10``.

Every check command (`.ra`, `.fate`, `.op`, `.secret`, `.rm`, `.rg`) reads its
arguments through :func:`parse_terms`, so a bonus, a threshold or a check mode
is written the same way in all of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.errors import CommandError

MODES: dict[str, str] = {
    "取10": "take10", "t10": "take10", "take10": "take10",
    "取20": "take20", "t20": "take20", "take20": "take20",
}
"""Check-mode words (PL-10) as players type them → the rules' mode name."""

_THRESHOLD = r"(?:>=|≥|≧|=>|>|(?<![A-Za-z0-9@_])(?i:dc))"
"""How players write a threshold: ``>=15``, ``≥15``, ``≧15``, ``=>15``, ``DC15`` (``dc``
only where it starts a word or follows a stat, so ``@dc99`` stays a name), and
``>15`` as CoC bots take it (issue 12 item 10): the threshold is 15, success is
still value ≥ 15 (PL-2 has no strict comparison)."""
_SUFFIX = re.compile(rf"([+-]\d{{1,6}})|{_THRESHOLD}(-?\d{{1,6}})")
_NUMBER = re.compile(r"^-?\d{1,6}$")
_THRESHOLD_ONLY = re.compile(rf"^{_THRESHOLD}$")


@dataclass(eq=False, slots=True)
class Term:
    """One whitespace-separated piece of a command's arguments.

    ``word`` is a stat, a character, a mention or a keyword (None for a bare
    ``+2`` / ``>=15`` / number); ``bonus`` sums the ``+N``/``-N`` written right
    after it (``觀察+2``), ``threshold`` a ``>=N`` written right after it.
    Terms compare by identity: two ``+2`` are two pieces of the text.
    """

    word: str | None = None
    number: int | None = None
    bonus: int = 0
    threshold: int | None = None


def _split_suffixes(token: str) -> Term:
    """``觀察+2>=15`` → Term("觀察", bonus=2, threshold=15); ``+2`` → Term(bonus=2)."""
    match = _SUFFIX.search(token)
    head = token if match is None else token[: match.start()]
    term = Term(word=head or None)
    position = len(head)
    while position < len(token):
        match = _SUFFIX.match(token, position)
        if match is None:
            raise CommandError("plurk.error.syntax", text=token[:30])
        if match.group(1) is not None:
            term.bonus += int(match.group(1))
        else:
            term.threshold = int(match.group(2))
        position = match.end()
    return term


def parse_terms(text: str) -> tuple[list[Term], str | None]:
    """Split arguments into terms and the check mode (取10 / 取20 / None).

    A stray ``1d20`` / ``d20`` token is dropped: with Plurk emoticon dice the core
    turns ``(dice20)`` into ``1d20`` and feeds the player's value through the dice
    source (PL-1), so the token only says "my own die". ``>= 15`` with a space is
    joined to ``>=15`` (``DC 15`` to ``DC15``) and ``+ 2`` to ``+2``.
    """
    text = re.sub(r"(>=|≥|≧|=>|>)\s+(?=-?\d)", r"\1", text)
    text = re.sub(r"(^|\s)([dD][cC])\s+(?=-?\d)", r"\1\2", text)
    text = re.sub(r"(^|\s)([+-])\s+(\d)", r"\1\2\3", text)
    terms: list[Term] = []
    mode: str | None = None
    for token in text.split():
        dice = re.match(r"^1?d20(?=[+-]|$)", token, re.IGNORECASE)
        if dice is not None:
            token = token[dice.end():]
            if not token:
                continue
        if token.casefold() in MODES:
            if mode is not None and mode != MODES[token.casefold()]:
                # `.ra 觀察 取10 取20` asks for two things: refused, never the last one
                raise CommandError("plurk.error.mode_twice")
            mode = MODES[token.casefold()]
            continue
        if _NUMBER.match(token) and not token.startswith("-"):
            terms.append(Term(number=int(token)))
            continue
        if _THRESHOLD_ONLY.match(token):
            raise CommandError("plurk.error.syntax", text=token)
        terms.append(_split_suffixes(token))
    return terms, mode


def attach_bonuses(terms: list[Term]) -> tuple[list[Term], int]:
    """Fold a lone ``+2`` into the word before it (``觀察 +2`` = ``觀察+2``).

    Returns the terms and the bonus that stood before any word (a global bonus).
    A lone ``>=N`` stays a term of its own (the default threshold).
    """
    merged: list[Term] = []
    leading = 0
    for term in terms:
        lone_bonus = term.word is None and term.number is None and term.threshold is None
        if lone_bonus:
            if merged:
                merged[-1].bonus += term.bonus
            else:
                leading += term.bonus
            continue
        merged.append(term)
    return merged, leading
