"""The stored documents of `jianshou` (issue 23): what the old hand-written ``to_dict``
stored (schema 1, pasted below as it wrote it) reads as the same typed value, through the
declarations and through a real Core; a damaged document is refused, changing nothing."""

from __future__ import annotations

from typing import Any

from bot import systems
from bot.core import Core
from bot.systems.jianshou.documents import DECK, DRAFT, GAME, NO_DRAFT, Draft, TableDeck, TableGame
from rules.systems import jianshou as js
from tests.support import Table, store_document, stored_document

WHERE = "console:table"

# --------------------------------------------------------------------------- schema 1
# Game.to_dict() and Deck.to_dict() of the code before issue 23 (commit 21ac043).

OLD_CARDS: list[dict[str, Any]] = [
    {"name": "松風劍法", "kind": "martial", "copies": 4,
     "levels": [{"cost": 1, "attack": 2, "defense": 1, "precision": 0},
                {"cost": 2, "attack": 4, "defense": 2, "precision": 1}],
     "en": "PineWindSword", "zh-Hans": "松风剑法"},
    {"name": "歸元心法", "kind": "internal", "copies": 2,
     "levels": [{"cost": 0, "breath": 1, "meditate": 2}]},
    {"name": "踏雪步", "kind": "lightfoot", "copies": 1, "levels": [{"cost": 0, "evade": 1}]},
    {"name": "回春散", "kind": "item", "copies": 1, "use": {"heal": 2}},
    {"name": "護心鏡", "kind": "item", "copies": 1, "equip": {"defense": 1}},
    {"name": "江湖傳聞", "kind": "event", "copies": 1, "effect": {"draw": 2}},
]

OLD_GAME: dict[str, Any] = {
    "status": "play",
    "players": [
        {"user": "alice", "name": "Alice", "team": "紅", "hp": 7, "neili": 3,
         "deck": ["回春散", "踏雪步"], "hand": ["江湖傳聞", "松風劍法"],
         "arts": [["松風劍法", 2], ["歸元心法", 1]], "equipment": ["護心鏡"],
         "discard": ["回春散"], "mulligans": 1, "kept": True, "turns": 2, "defeated": ""},
        {"user": "bob", "name": "Bob", "team": "", "hp": 0, "neili": 1, "deck": [],
         "hand": ["踏雪步"], "arts": [], "equipment": [], "discard": [], "mulligans": 0,
         "kept": True, "turns": 1, "defeated": "hp"},
        {"user": "carol", "name": "Carol", "team": "", "hp": 5, "neili": 2, "deck": [],
         "hand": [], "arts": [], "equipment": [], "discard": [], "mulligans": 0,
         "kept": True, "turns": 1, "defeated": ""}],
    "cards": OLD_CARDS,
    "deck_name": "小牌組", "current": 0, "round": 3, "first": 1,
    "turn": {"player": "alice", "done": ["practise", "item"]},
    "duel": {"attacker": "alice", "target": "carol", "art": "松風劍法", "level": 2,
             "attack": 4, "precision": 1, "cost": 2, "step": "assist", "helper": "bob",
             "defender": "carol", "defense_art": "", "defense_level": 0, "defense": 0,
             "defense_cost": 0},
    "winners": [],
    "agreed": {"kick:bob": ["alice"], "reset": ["carol"]},
}

OLD_LOBBY: dict[str, Any] = {
    "status": "lobby",
    "players": [{"user": "alice", "name": "Alice", "team": "", "hp": 0, "neili": 2,
                 "deck": [], "hand": [], "arts": [], "equipment": [], "discard": [],
                 "mulligans": 0, "kept": False, "turns": 0, "defeated": ""}],
    "cards": [], "deck_name": "", "current": 0, "round": 0, "first": -1, "turn": None,
    "duel": None, "winners": [],
}

OLD_DECK: dict[str, Any] = {"deck": {"name": "小牌組", "cards": OLD_CARDS}}

OLD_DRAFT: dict[str, Any] = {"name": "小", "cards": [
    {"name": "藥", "kind": "item", "copies": 4, "use": {"heal": 1}}]}

# --------------------------------------------------------------------------- the values

CARDS = (
    js.Card("松風劍法", "martial", 4, (js.Level(cost=1, attack=2, defense=1),
                                    js.Level(cost=2, attack=4, defense=2, precision=1)),
            labels={"en": "PineWindSword", "zh-Hans": "松风剑法"}),
    js.Card("歸元心法", "internal", 2, (js.Level(breath=1, meditate=2),)),
    js.Card("踏雪步", "lightfoot", 1, (js.Level(evade=1),)),
    js.Card("回春散", "item", effect={"heal": 2}),
    js.Card("護心鏡", "item", equip={"defense": 1}),
    js.Card("江湖傳聞", "event", effect={"draw": 2}),
)

GAME_VALUE = TableGame(js.Game(
    "play",
    (js.Player("alice", "Alice", "紅", hp=7, neili=3, deck=("回春散", "踏雪步"),
               hand=("江湖傳聞", "松風劍法"), arts=(js.Art("松風劍法", 2), js.Art("歸元心法")),
               equipment=("護心鏡",), discard=("回春散",), mulligans=1, kept=True, turns=2),
     js.Player("bob", "Bob", hp=0, neili=1, hand=("踏雪步",), kept=True, turns=1,
               defeated="hp"),
     js.Player("carol", "Carol", hp=5, kept=True, turns=1)),
    CARDS, "小牌組", current=0, round=3, first=1,
    turn=js.Turn("alice", ("practise", "item")),
    duel=js.Duel("alice", "carol", "松風劍法", 2, 4, 1, 2, step="assist", helper="bob",
                 defender="carol"),
), {"kick:bob": ("alice",), "reset": ("carol",)})


def test_a_game_stored_by_the_old_code_reads_as_the_same_game() -> None:
    value = GAME.read(OLD_GAME, 1, WHERE)
    assert value == GAME_VALUE
    assert GAME.read(GAME.dump(value), GAME.schema, WHERE) == value
    # the cards still read as the deck file they came from (what replies show)
    assert [js.card_json(c) for c in value.game.cards] == OLD_CARDS


def test_a_lobby_stored_by_the_old_code_reads_without_agreements() -> None:
    value = GAME.read(OLD_LOBBY, 1, WHERE)
    assert value == TableGame(js.Game(players=(js.Player("alice", "Alice"),)))


def test_a_deck_stored_by_the_old_code_reads_as_the_same_deck() -> None:
    assert DECK.read(OLD_DECK, 1, WHERE) == TableDeck(js.Deck("小牌組", CARDS))
    assert DECK.read({}, 1, WHERE) == TableDeck()  # the sample's
    assert DECK.read(DECK.dump(TableDeck()), DECK.schema, WHERE) == TableDeck()


def test_a_draft_stored_by_the_old_code_reads_as_the_same_draft() -> None:
    assert DRAFT.read(OLD_DRAFT, 1, WHERE) == Draft("小", tuple(OLD_DRAFT["cards"]))
    assert DRAFT.read({"name": "", "cards": []}, 1, WHERE) == Draft()  # begun, empty
    assert DRAFT.read({}, 1, WHERE) == NO_DRAFT  # done or cancelled
    assert DRAFT.read(DRAFT.dump(NO_DRAFT), 1, WHERE) == NO_DRAFT


# --------------------------------------------------------------------------- through a Core


async def test_an_old_table_plays_on_and_is_stored_in_the_new_shape(core: Core) -> None:
    table = Table(core)
    await table.text("gm", ".system jianshou")
    await store_document(core, "jianshou.game", OLD_GAME, 1)
    await store_document(core, "jianshou.deck", OLD_DECK, 1)
    assert await table.text("dave", ".duel") == "⚔ 對決：Alice → Carol，等 Bob 援助防禦。"
    outs = await table.say("dave", ".js deck")
    assert outs[0].data == {"kind": "jianshou.deck", "deck": OLD_DECK["deck"]}
    # the agreements stood: carol's agreement to reset counts, alice's completes it
    outs = await table.say("alice", ".js reset")
    assert outs[0].data["kind"] == "jianshou.reset"
    data, schema = await stored_document(core, "jianshou.game")
    assert schema == 2 and GAME.read(data, 2, WHERE) == TableGame(js.reset(GAME_VALUE.game))


async def test_a_damaged_game_is_refused_in_the_tables_language(core: Core) -> None:
    table = Table(core)
    await table.text("gm", ".system jianshou")
    damaged = {"game": {**GAME.dump(GAME_VALUE)["game"], "round": "third"}, "agreed": {}}
    await store_document(core, "jianshou.game", damaged, 2)
    catalog = systems.catalog()
    for locale in ("zh-Hant", "en"):
        await table.text("gm", f".lang {locale}")
        refusal = catalog.text(locale, "core.error.prefix", text=catalog.text(
            locale, "core.error.damaged_document", document="jianshou.game", where=WHERE))
        for command in (".js", ".js join", ".meditate"):
            assert await table.text("alice", command) == refusal
    assert await stored_document(core, "jianshou.game") == (damaged, 2)
