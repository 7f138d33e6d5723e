"""Matching stat names the way players type them.

A sheet stores each stat under one name; players type it in traditional or
simplified characters, or with an alias the system declares (靈巧 / 灵巧 /
DEX). Names are compared by a folded key: simplified characters, case-folded.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from bot.errors import CommandError
from bot.normalize import looks_blank
from bot.t2s import to_simplified
from rules.kits.game_system import GameSystem


@lru_cache(maxsize=4096)
def fold(name: str) -> str:
    return to_simplified(name.strip()).casefold()


def canonical(name: str, system: GameSystem, existing: Iterable[str] = ()) -> str:
    """The name to store ``name`` under: the system's declared name, else the
    spelling already on the sheet, else the name as typed."""
    stat = system.stat(name)
    if stat is not None:
        return stat.name
    key = fold(name)
    for declared in system.stats:
        if any(fold(spelling) == key for spelling in (declared.name, *declared.aliases)):
            return declared.name
    for present in existing:
        if fold(present) == key:
            return present
    return name.strip()


_ONE_WORD = re.compile(r"[^\s\d+\-=:]+")
"""A name `.st` reads as one (no space, digit, sign or ``=``)."""


@lru_cache(maxsize=32)
def _spaced(system: GameSystem) -> tuple[re.Pattern[str], dict[str, str]] | None:
    """The system's names of several words (``Spot Hidden``), as a pattern matching any
    of them between non-letters, and each one's declared name by its folded words
    (worked out once per system)."""
    names = {fold(" ".join(spelling.split())): stat.name for stat in system.stats
             for spelling in (stat.name, *stat.aliases)
             if len(spelling.split()) > 1 and _ONE_WORD.fullmatch(stat.name)}
    if not names:
        return None
    words = sorted((r"\s+".join(map(re.escape, name.split())) for name in names),
                   key=len, reverse=True)
    return (re.compile(r"(?<![A-Za-z])(?:" + "|".join(words) + r")(?![A-Za-z])", re.I),
            names)


def glue_spaced_names(text: str, system: GameSystem) -> str:
    """``text`` with each of the system's names of several words replaced by its
    declared one-word name: `.st Spot Hidden 60` reads as `.st 偵查 60`, as `.ra Spot
    Hidden` reads it — `.st` pairs are otherwise split at spaces."""
    found = _spaced(system)
    if found is None:
        return text
    pattern, names = found
    return pattern.sub(lambda m: names[fold(" ".join(m.group().split()))], text)


def visible_name(name: str) -> str:
    """``name`` stripped; refused (``core.error.blank_name``, nothing changed) when it
    shows nothing — only whitespace, invisible format characters or blank-looking
    fillers such as U+3164 or U+2800 (:func:`bot.normalize.looks_blank`). Every name a
    player gives that replies echo (`.nn`, `.pc new`, a team, an enemy) goes through
    it: a blank name reads as nobody in every reply (docs/decisions.md, "Echoed text")."""
    name = name.strip()
    if looks_blank(name):
        raise CommandError("core.error.blank_name")
    return name
