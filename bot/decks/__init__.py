"""The decks `.draw` draws from, read once at start: the operator's deck folder
(``TRPGBOT_DECKS_DIR``, default ``<data dir>/decks``: SealDice's JSON deck files, in
sub-folders too) and the bundled decks of this package (``bundled/``: original texts).

A file that cannot be read or parsed never stops the bot: it is reported in the log
with its file and line, and to whoever asks to draw one of its names (`.draw list`
shows it too). A name two files define is drawn from the first (the operator's
folder in path order, then the bundled decks), and the log says so.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from rules.decks import Deck, parse_deck
from rules.errors import RuleError

log = logging.getLogger(__name__)

MAX_FILE = 1024 * 1024
"""The largest deck file read (bytes): public decks are tens of kilobytes."""
MAX_FILES = 500
"""Deck files read from the folder at most (the first in path order)."""

#: The names a broken file seems to define (``"name":``), to tell its error to whoever
#: draws one of them.
_NAME = re.compile(r'"((?:[^"\\\n]|\\.){1,100})"\s*:')


@dataclass(frozen=True)
class Broken:
    """A deck file that could not be used, its refusal and the names it seems to hold."""

    source: str
    error: RuleError
    names: frozenset[str]


@dataclass(frozen=True)
class DeckShelf:
    decks: tuple[Deck, ...] = ()
    broken: tuple[Broken, ...] = field(default=())

    def find(self, name: str) -> Deck | None:
        """The deck `.draw name` draws from: an exact name first, then one that differs
        only in case (`.draw Tarot`)."""
        for deck in self.decks:
            if name in deck.keys:
                return deck
        folded = name.casefold()
        return next((deck for deck in self.decks
                     if any(key.casefold() == folded for key in deck.keys)), None)

    def key(self, deck: Deck, name: str) -> str:
        """The name as the deck writes it."""
        if name in deck.keys:
            return name
        return next(key for key in deck.keys if key.casefold() == name.casefold())

    def similar(self, name: str, most: int = 4) -> list[str]:
        """Shown names that contain ``name`` or are contained in it, ignoring case
        (SealDice answers a mistyped name with similar ones too)."""
        folded = name.casefold()
        found = [key for deck in self.decks for key in deck.shown()
                 if folded in key.casefold() or key.casefold() in folded]
        return list(dict.fromkeys(found))[:most]

    def broken_for(self, name: str) -> Broken | None:
        return next((b for b in self.broken if name in b.names or name == _stem(b.source)),
                    None)


def load(folder: Path | None) -> DeckShelf:
    """The operator's decks in ``folder`` (none when it does not exist) and the bundled
    ones."""
    found: list[tuple[str, bytes | OSError]] = []
    if folder is not None and folder.is_dir():
        for path in sorted(folder.rglob("*.json"))[:MAX_FILES]:
            found.append((path.relative_to(folder).as_posix(), _read(path)))
    elif folder is not None:
        log.info("no deck folder at %s: only the bundled decks", folder)
    bundled = resources.files(__name__).joinpath("bundled")
    for item in sorted(bundled.iterdir(), key=lambda i: i.name):
        if item.name.endswith(".json"):
            found.append((f"bundled/{item.name}", item.read_bytes()))
    decks: list[Deck] = []
    broken: list[Broken] = []
    for source, data in found:
        try:
            deck = _parse(source, data)
        except RuleError as error:
            text = data.decode("utf-8", "replace") if isinstance(data, bytes) else ""
            log.warning("deck file %s not used: %s %s", source, error.code, error.params)
            broken.append(Broken(source, error, frozenset(_NAME.findall(text))))
            continue
        _report(deck, decks)
        decks.append(deck)
    log.info("%d deck files loaded (%d not used)", len(decks), len(broken))
    return DeckShelf(tuple(decks), tuple(broken))


def _read(path: Path) -> bytes | OSError:
    try:
        if path.stat().st_size > MAX_FILE:
            return OSError(f"larger than {MAX_FILE} bytes")
        return path.read_bytes()
    except OSError as error:
        return error


def _parse(source: str, data: bytes | OSError) -> Deck:
    if isinstance(data, OSError):
        raise RuleError("decks.unreadable", file=source, limit=MAX_FILE)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise RuleError("decks.not_utf8", file=source, line=line) from None
    return parse_deck(text, source)


def _report(deck: Deck, earlier: list[Deck]) -> None:
    for line, name in deck.unknown:
        log.warning("deck file %s line %d: {%s} names no list of the file (shown as "
                    "written)", deck.source, line, name)
    for name in deck.keys:
        first = next((d for d in earlier if name in d.keys), None)
        if first is not None:
            log.warning("deck file %s: %s is drawn from %s, which defines it first",
                        deck.source, name, first.source)


def _stem(source: str) -> str:
    return source.rsplit("/", 1)[-1].rsplit(".", 1)[0]
