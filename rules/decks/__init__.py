"""Decks: named lists of texts drawn at random (`.draw`), in the JSON form of
SealDice's deck folder (the Dice! format): an object mapping a list's name to its
entries, ``::n::`` weights, ``{name}`` (without putting back) and ``{%name}`` (with
putting back) references to other lists of the same file, names starting with ``_``
drawn only through references. docs/decks.md tells the whole format and where it
differs from SealDice.

Pure: a deck is parsed from text (the bot reads the files), checked against the
limits before any die is rolled (:mod:`rules.decks.bounds`), and drawn with the
injected dice source (:mod:`rules.decks.draw`).
"""

from rules.decks.bounds import DEFAULT_LIMITS, Cost, DeckLimits, check, cost_of
from rules.decks.deck import PLAYER, Deck, Entry, Ref, Roll, parse_deck
from rules.decks.draw import Draw, draw

__all__ = [
    "DEFAULT_LIMITS",
    "PLAYER",
    "Cost",
    "Deck",
    "DeckLimits",
    "Draw",
    "Entry",
    "Ref",
    "Roll",
    "check",
    "cost_of",
    "draw",
    "parse_deck",
]
