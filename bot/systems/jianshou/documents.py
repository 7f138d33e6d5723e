"""The state documents of the `jianshou` system (``bot.documents``), one set per table:
the game (players, seats, hands, decks, zones, HP, 內力, turn, phase and duel), the
deck the GM loaded for the next games, and a deck being pasted in parts."""

from __future__ import annotations

from bot.documents import Document


class GameDoc(Document):
    """``rules.systems.jianshou.Game.to_dict()``: the whole table, hands included (the
    store is no channel message; only the bot's private messages show a hand)."""

    key = "jianshou.game"


class DeckDoc(Document):
    """``{"deck": Deck.to_dict()}``: the deck a GM loaded; empty → the sample deck."""

    key = "jianshou.deck"


class DraftDoc(Document):
    """``{"name": str, "cards": [card, …]}``: a deck pasted in parts (`.js deck add`)
    until `.js deck done` validates it."""

    key = "jianshou.deck_draft"


DOCUMENTS = (GameDoc, DeckDoc, DraftDoc)
