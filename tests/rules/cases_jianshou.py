"""The jianshou system's ops and scenarios for the case runner (tests/rules/data/jianshou).

Ops: ``deck`` (JS-1 validation: ``cards`` plus ``pad`` filler names of four valid
copies each; ``name`` or ``table`` for a ``{"name", "cards"}`` table), ``card`` (one
card of a deck file, ``raw``, as it is stored), ``sample`` (the shipped deck), ``seat``
(JS-1 seats) and ``shuffle``.

The scenario ``game`` plays steps on one table dealt from :data:`FIXTURE` — nine named
cards and six fillers, four of each. Its steps: ``join``, ``start`` (one seed die per
player), ``mulligan``, ``keep`` (the last one rolls the first player), ``ready`` (all of that for
``players`` with seeds 1…n and the first player's die ``first``), ``set`` (put a
player's hand, deck, arts, HP, 內力 … as a case needs them; ``game`` fields too, its
``cards`` added to the catalog),
``practise``, ``item``, ``event``, ``meditate``, ``transfer``, ``discard``, ``end``,
``resign``, ``attack``, ``defend``, ``assist``, ``evade``, ``pass`` and ``roundtrip`` (the
game stored as the bot stores it, by a pydantic ``TypeAdapter``, and read back).
A step's ``expect`` matches its event, ``state`` a snapshot of the table.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from rules.dice.source import ScriptedSource
from rules.systems import jianshou as J
from rules.systems.jianshou.cards import parse_card
from tests.rules.case_kit import Cases, Op, assert_match, expect_error, plain

FILLERS = [f"雜{n}" for n in range(1, 7)]
STORED = TypeAdapter(J.Game)
"""How the bot stores a game (``roundtrip``: written as JSON and read back, it is equal)."""


def _filler(name: str) -> dict[str, Any]:
    return {"name": name, "kind": "martial", "copies": 4,
            "levels": [{"cost": 1, "attack": 1, "defense": 1}]}


FIXTURE = J.parse_deck([
    {"name": "劍", "kind": "martial", "copies": 4, "levels": [
        {"cost": 1, "attack": 3, "defense": 2, "precision": 1},
        {"cost": 2, "attack": 5, "defense": 3, "precision": 2}]},
    {"name": "盾", "kind": "martial", "copies": 4, "levels": [
        {"cost": 1, "attack": 0, "defense": 3}]},
    {"name": "心", "kind": "internal", "copies": 4, "levels": [
        {"breath": 1, "meditate": 2}, {"breath": 2, "meditate": 3}]},
    {"name": "步", "kind": "lightfoot", "copies": 4, "levels": [
        {"cost": 0, "evade": 2}, {"cost": 1, "evade": 5}]},
    {"name": "藥", "kind": "item", "copies": 4, "use": {"heal": 2}},
    {"name": "香", "kind": "item", "copies": 4, "use": {"neili": 3}},
    {"name": "甲", "kind": "item", "copies": 4, "equip": {"defense": 1, "evade": 1}},
    {"name": "訊", "kind": "event", "copies": 4, "effect": {"draw": 2}},
    {"name": "鏢", "kind": "event", "copies": 4, "effect": {"damage": 2}},
    *(_filler(name) for name in FILLERS),
])

# --------------------------------------------------------------------------- simple ops


def op_deck(src: ScriptedSource, i: dict[str, Any]) -> Any:
    cards = list(i.get("cards", [])) + [_filler(f"填{n}") for n in range(i.get("pad", 0))]
    data: Any = cards
    if "name" in i or i.get("table"):  # {"name", "cards"} rather than a bare list
        data = {"cards": cards, **({"name": i["name"]} if "name" in i else {}),
                **i.get("labels", {})}
    if "raw" in i:
        data = i["raw"]
    deck = J.parse_deck_text(data) if isinstance(data, str) else J.parse_deck(data)
    return {"size": deck.size, "name": deck.name, "labels": dict(deck.labels),
            "cards": {c.name: J.card_json(c) for c in deck.cards}}


def op_card(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return J.card_json(parse_card(i["raw"], *([i["index"]] if "index" in i else [])))


def op_sample(src: ScriptedSource, i: dict[str, Any]) -> Any:
    path = Path(__file__).resolve().parents[2] / "rules/systems/jianshou/decks/sample.json"
    deck = J.parse_deck_text(path.read_text("utf-8"))
    copies: dict[str, int] = {}
    for card in deck.cards:
        copies[card.kind] = copies.get(card.kind, 0) + card.copies
    return {"size": deck.size, "names": len(deck.cards), "kinds": copies,
            "labels": dict(deck.labels),
            "max_copies": max(c.copies for c in deck.cards),
            "roundtrip": J.parse_deck(json.loads(json.dumps(J.deck_json(deck)))) == deck}


def op_seat(src: ScriptedSource, i: dict[str, Any]) -> Any:
    players = [J.Player(p["user"], p["user"], p.get("team", "")) for p in i["players"]]
    return {"order": [p.user for p in J.seat(players)]}


def op_shuffle(src: ScriptedSource, i: dict[str, Any]) -> Any:
    return {"order": list(J.shuffle(i["cards"], src))}


# --------------------------------------------------------------------------- the game


def snapshot(game: J.Game) -> dict[str, Any]:
    actor = game.actor
    return {
        "status": game.status,
        "round": game.round,
        "current": actor.user if actor is not None else None,
        "first": game.players[game.first].user if game.first >= 0 else None,
        "done": list(game.turn.done) if game.turn else [],
        "turn_of": game.turn.player if game.turn else None,
        "order": [p.user for p in game.players],
        "winners": list(game.winners),
        "duel": plain(game.duel) if game.duel else None,
        "deck_name": game.deck_name,
        "players": {p.user: {
            "name": p.name, "hp": p.hp, "neili": p.neili, "hand": list(p.hand), "deck": len(p.deck),
            "arts": {a.name: a.level for a in p.arts}, "equipment": list(p.equipment),
            "discard": list(p.discard), "mulligans": p.mulligans, "kept": p.kept,
            "turns": p.turns, "defeated": p.defeated, "team": p.team,
        } for p in game.players},
    }


def _set(game: J.Game, args: dict[str, Any]) -> J.Game:
    args = dict(args)
    table = dict(args.pop("game", {}))
    if "cards" in table:  # more cards in the catalog, written as in a deck file
        table["cards"] = (*game.cards, *(parse_card(c) for c in table["cards"]))
    if "current" in table:
        table["current"] = game.index(table["current"])
        table["turn"] = J.Turn(game.players[table["current"]].user)
    if "first" in table:
        table["first"] = game.index(table["first"])
    if "done" in table:
        table["turn"] = replace(table.get("turn") or game.turn, done=tuple(table.pop("done")))
    game = replace(game, **table)
    user = args.pop("user", None)
    if user is None:
        return game
    changes = {}
    for key, value in args.items():
        if key == "arts":
            changes["arts"] = tuple(J.Art(n, lv) for n, lv in value.items())
        elif key == "deck" and isinstance(value, int):
            changes["deck"] = tuple(FILLERS[0] for _ in range(value))
        elif isinstance(value, list):
            changes[key] = tuple(value)
        else:
            changes[key] = value
    return game.with_player(user, **changes)


def _step(game: J.Game, src: ScriptedSource, do: str, a: dict[str, Any]) -> tuple[J.Game, Any]:
    if do == "join":
        return J.join(game, a["user"], a.get("name", a["user"]),
                      *([a["team"]] if "team" in a else []))
    if do == "leave":
        return J.leave(game, a["user"]), None
    if do == "start":
        return J.start(game, FIXTURE, src)
    if do == "mulligan":
        return J.mulligan(game, a["user"], src)
    if do == "keep":
        return J.keep(game, a["user"], src)
    if do == "set":
        return _set(game, a), None
    if do == "ready":  # join, deal (seeds 1…n), everyone keeps; ``first`` is the die
        users = a.get("players", ["a", "b", "c"])
        teams = a.get("teams", {})
        for user in users:
            game, _ = J.join(game, user, user, teams.get(user, ""))
        own = ScriptedSource([*range(1, len(users) + 1), a.get("first", 1)])
        game, _ = J.start(game, FIXTURE, own)
        for user in [p.user for p in game.players]:
            game, _ = J.keep(game, user, own)
        return game, None
    if do in ("practise", "item", "event"):
        return getattr(J, do)(game, a["user"], a["card"], *([a["target"]] if "target" in a
                                                          else []))
    if do == "meditate":
        return J.meditate(game, a["user"])
    if do == "transfer":
        return J.transfer(game, a["user"], a["target"], a["amount"])
    if do == "discard":
        return J.discard(game, a["user"], tuple(a["cards"]),
                         *([a["ending"]] if "ending" in a else []))
    if do == "end":
        return J.end_turn(game, a["user"])
    if do == "resign":
        return J.resign(game, a["user"])
    if do == "reset":
        return J.reset(game), None
    if do == "attack":
        return J.attack(game, a["user"], a["target"], a["art"], a.get("level"))
    if do == "defend":
        return J.defend(game, a["user"], a.get("art", ""), a.get("level"), a.get("helper", ""))
    if do == "assist":
        return J.assist(game, a["user"], a.get("art", ""), a.get("level"))
    if do == "evade":
        return J.evade(game, a["user"], src, a.get("art", ""), a.get("level"))
    if do == "pass":
        return J.force_pass(game, src)
    if do == "roundtrip":
        again = STORED.validate_json(STORED.dump_json(game))
        assert again == game
        return again, None
    raise AssertionError(f"unknown game step {do!r}")


def run_game(case: dict[str, Any], src: ScriptedSource) -> None:
    game = J.Game()
    for n, step in enumerate(case["steps"]):
        src.push(step.get("dice", []))
        args = step.get("args", {})
        if "error" in step:
            before = game
            expect_error(step, lambda g=game, s=step, a=args: _step(g, src, s["do"], a))
            assert game == before
        else:
            game, event = _step(game, src, step["do"], args)
            if "expect" in step:
                assert_match(step["expect"], plain(event), f"step {n} ({step['do']})")
        if "state" in step:
            assert_match(step["state"], snapshot(game), f"step {n} state")
        assert src.remaining == 0, f"step {n}: {src.remaining} scripted dice unused"


OPS: dict[str, Op] = {"deck": op_deck, "card": op_card, "sample": op_sample,
                      "seat": op_seat, "shuffle": op_shuffle}

CASES = Cases(ops=OPS, scenarios={"game": run_game},
              rules=frozenset(f"JS-{n}" for n in range(1, 6)))
