"""The decks a table can play: the sample deck shipped with the rules (package data,
read here — ``rules/`` does no I/O), the one a GM loaded (``DECK``) and a deck file a
GM uploaded (JSON)."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from importlib import resources

from bot.context import Context
from bot.errors import CommandError
from bot.systems.jianshou.documents import DECK
from rules.systems import jianshou as js


@cache
def sample() -> js.Deck:
    """The original sample deck (``rules/systems/jianshou/decks/sample.json``)."""
    text = resources.files("rules.systems.jianshou").joinpath("decks/sample.json").read_text(
        "utf-8")
    return js.parse_deck_text(text)


async def table_deck(ctx: Context) -> tuple[js.Deck, bool]:
    """The deck the next game deals from, and whether it is the sample."""
    loaded = (await ctx.uow.load(DECK)).deck
    return (sample(), True) if loaded is None else (loaded, False)


MAX_DECK_FILE = 256 * 1024
"""The largest deck file read (bytes): a 200-card deck is a few kilobytes."""


def deck_from_file(filename: str, data: bytes) -> js.Deck:
    """A deck from an uploaded ``.json`` file (RULES.md: "a deck file (YAML/JSON)"),
    validated as a pasted deck is (JS-1); a deck without a name is named after the
    file. YAML is not read: no YAML library is a dependency of the bot (PyYAML is
    only a test tool's)."""
    if len(data) > MAX_DECK_FILE:
        raise CommandError("jianshou.error.deck_file_too_large", size=len(data),
                           limit=MAX_DECK_FILE)
    stem, _, suffix = filename.rpartition(".")
    if not stem or suffix.casefold() != "json":
        raise CommandError("jianshou.error.deck_file_kind", name=filename[:40])
    deck = js.parse_deck_text(data.decode("utf-8-sig", errors="replace"))
    return deck if deck.name else replace(deck, name=stem.strip()[:40] or filename[:40])
