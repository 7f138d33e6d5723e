"""The state documents of the `jianshou` system (:class:`bot.documents.Doc`), one set per
table: the game (players, seats, hands, decks, zones, HP, 內力, turn, phase and duel)
with the players' pending agreements, the deck the GM loaded for the next games, and a
deck being pasted in parts.

The game and the deck are the rules' own dataclasses, stored as they are (hands and
decks included: the store is no channel message; only the bot's private messages show
a hand). Schema 1 stored them by hand-written ``to_dict`` methods, which the schema 2
migrations below read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.documents import Doc
from rules.systems import jianshou as js
from rules.systems.jianshou.cards import LABEL_KEYS


@dataclass(frozen=True)
class TableGame:
    """The table's game and the motions (``kick:<user>``, ``reset``) its players agreed
    to so far in place of a referee (issue 22): ``{motion: (user, …)}``, kept while they
    make sense (:func:`bot.systems.jianshou.state.save`)."""

    game: js.Game = field(default_factory=js.Game)
    agreed: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class TableDeck:
    """The deck a GM loaded for the next games; None: the sample deck."""

    deck: js.Deck | None = None


@dataclass(frozen=True)
class Draft:
    """A deck pasted in parts (`.js deck add`) until `.js deck done` validates it: the
    cards as pasted (each was checked when it was added)."""

    name: str = ""
    cards: tuple[Any, ...] = ()
    begun: bool = True
    """False once done or cancelled (and before any `.js deck begin`)."""


NO_DRAFT = Draft(begun=False)


def _card_v1(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A card as schema 1 stored it — a deck file's entry — in the fields of
    :class:`rules.systems.jianshou.Card`: an item's ``use`` is its effect, its names in
    other languages (``"en": …``) its labels."""
    fields = {k: v for k, v in entry.items() if k not in LABEL_KEYS and k != "use"}
    if "use" in entry:
        fields["effect"] = entry["use"]
    fields["labels"] = {k: entry[k] for k in LABEL_KEYS if k in entry}
    return fields


def _game_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 → 2: the game was stored flat with the agreements beside it, an art as
    a ``[name, level]`` pair and cards as deck file entries."""
    agreed = data.pop("agreed", None) or {}
    players = [{**p, "arts": [{"name": name, "level": level}
                              for name, level in p.get("arts", ())]}
               for p in data.get("players", ())]
    cards = [_card_v1(c) for c in data.get("cards", ())]
    return {"game": {**data, "players": players, "cards": cards}, "agreed": agreed}


def _deck_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 → 2: the deck's cards were deck file entries."""
    deck = data.get("deck")
    if not deck:
        return {"deck": None}
    return {"deck": {**deck, "cards": [_card_v1(c) for c in deck.get("cards", ())]}}


GAME = Doc("jianshou.game", TableGame, TableGame, schema=2, migrations={1: _game_v1})
DECK = Doc("jianshou.deck", TableDeck, TableDeck, schema=2, migrations={1: _deck_v1})
DRAFT = Doc("jianshou.deck_draft", Draft, lambda: NO_DRAFT)

DOCUMENTS = (GAME, DECK, DRAFT)
