"""What jianshou's case tables (tests/rules/data/jianshou) cannot say: the detail a
deck file that is no JSON shows, and the name of the deck a table was dealt from
(JS-1: cards are data)."""

from __future__ import annotations

import json

import pytest

from rules.dice.source import ScriptedSource
from rules.errors import RuleError
from rules.systems import jianshou as J
from rules.systems.jianshou.cards import Card, Level


def test_a_deck_file_that_is_no_json_shows_the_first_80_characters_of_why() -> None:
    text = " " * 100_000 + "{"
    with pytest.raises(json.JSONDecodeError) as reason:
        json.loads(text)
    with pytest.raises(RuleError) as refused:
        J.parse_deck_text(text)
    assert len(str(reason.value)) > 80
    assert (refused.value.code, refused.value.params) == (
        "jianshou.deck_bad_json", {"detail": str(reason.value)[:80]})


def test_a_game_is_dealt_from_a_named_deck_and_keeps_its_name() -> None:
    """JS-1: the table remembers which deck it was dealt from."""
    deck = J.Deck("松風", (Card("劍", "martial", 60, (Level(cost=1, attack=3),)),))
    game = J.Game(players=(J.Player("u1", "阿"), J.Player("u2", "乙")))
    started, _ = J.start(game, deck, ScriptedSource([1, 2]))
    assert (started.deck_name, started.cards) == ("松風", deck.cards)
