"""The decks a table can play: the sample deck shipped with the rules (package data,
read here — ``rules/`` does no I/O) and the one a GM loaded (``DECK``)."""

from __future__ import annotations

from functools import cache
from importlib import resources

from bot.context import Context
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
