"""What jianshou's case tables (tests/rules/data/jianshou) cannot say: the table as a
channel stores it between commands (``Game.to_dict`` / ``from_dict``, JS-1 … JS-5
state) with every key spelled out and the defaults of a table stored before a key
existed; a stored deck without a name; and the detail a deck file that is no JSON
shows (JS-1: cards are data)."""

from __future__ import annotations

import json

import pytest

from rules.dice.source import ScriptedSource
from rules.errors import RuleError
from rules.systems import jianshou as J
from rules.systems.jianshou.cards import Card, Level

SWORD = Card("劍", "martial", 4, (Level(cost=1, attack=3, defense=2),))
PLAYER = J.Player("u1", "阿", "紅", 7, 3, ("劍",), ("劍", "劍"), (J.Art("劍", 1),), ("劍",),
                  ("劍",), 1, True, 2, "")
DUEL = J.Duel("u1", "u2", "劍", 1, 3, 1, 1, "evade", "u3", "u3", "劍", 1, 2, 3)


def _game() -> J.Game:
    return J.Game("play", (PLAYER, J.Player("u2", "乙")), (SWORD,), "測試", 1, 3, 0,
                  J.Turn("u2", ("item",)), DUEL, ("u1",))


def test_a_table_is_stored_with_every_key() -> None:
    assert _game().to_dict() == {
        "status": "play",
        "players": [
            {"user": "u1", "name": "阿", "team": "紅", "hp": 7, "neili": 3, "deck": ["劍"],
             "hand": ["劍", "劍"], "arts": [["劍", 1]], "equipment": ["劍"], "discard": ["劍"],
             "mulligans": 1, "kept": True, "turns": 2, "defeated": ""},
            {"user": "u2", "name": "乙", "team": "", "hp": 0, "neili": 2, "deck": [], "hand": [],
             "arts": [], "equipment": [], "discard": [], "mulligans": 0, "kept": False,
             "turns": 0, "defeated": ""},
        ],
        "cards": [{"name": "劍", "kind": "martial", "copies": 4,
                   "levels": [{"cost": 1, "attack": 3, "defense": 2, "precision": 0}]}],
        "deck_name": "測試", "current": 1, "round": 3, "first": 0,
        "turn": {"player": "u2", "done": ["item"]},
        "duel": {"attacker": "u1", "target": "u2", "art": "劍", "level": 1, "attack": 3,
                 "precision": 1, "cost": 1, "step": "evade", "helper": "u3",
                 "defender": "u3", "defense_art": "劍", "defense_level": 1, "defense": 2,
                 "defense_cost": 3},
        "winners": ["u1"],
    }


def test_a_stored_table_reads_back_as_it_was() -> None:
    game = _game()
    assert J.Game.from_dict(json.loads(json.dumps(game.to_dict()))) == game


def test_a_table_stored_with_its_players_only_reads_with_the_defaults() -> None:
    loaded = J.Game.from_dict({"players": [{"user": "u1", "name": "阿"}]})
    assert loaded == J.Game("lobby", (J.Player("u1", "阿"),), (), "", 0, 0, -1, None, None, ())
    assert J.Game.from_dict({}) == J.Game()
    assert J.Game.from_dict({"status": "lobby"}) == J.Game()


def test_a_stored_deck_without_a_name_has_none() -> None:
    deck = J.deck_from_dict({"cards": [SWORD.to_dict()]})
    assert deck == J.Deck("", (SWORD,))


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
