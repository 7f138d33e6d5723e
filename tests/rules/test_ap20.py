"""What ap20's case tables (tests/rules/data/ap20) cannot say: the fight as a channel
stores it between commands (``Combat.to_dict`` / ``from_dict``) — every key spelled
out, and what a fight stored before a key existed reads as (AP-1's 6 action points,
tier 1, a fight not started)."""

from __future__ import annotations

from rules.kits.turns import TurnOrder
from rules.systems.ap20 import Combat, Fighter

WOLF = Fighter("狼", "foe", "gm", 7, 13, (10,), 2, 3, 5, 2, {"hp": 20}, ("hidden",),
               {"fire": 2})


def test_a_fight_is_stored_with_every_key_of_every_fighter() -> None:
    combat = Combat(TurnOrder((WOLF, Fighter("艾莉絲")), 1, 2), True)
    assert combat.to_dict() == {
        "fighters": [
            {"name": "狼", "side": "foe", "owner": "gm", "character_id": 7,
             "initiative": 13, "init_rolls": [10], "tiebreak": 2, "ap": 3, "ap_max": 5,
             "tier": 2, "stats": {"hp": 20}, "flags": ["hidden"], "resist": {"fire": 2}},
            {"name": "艾莉絲", "side": "party", "owner": None, "character_id": None,
             "initiative": 0, "init_rolls": [], "tiebreak": 0, "ap": 6, "ap_max": 6,
             "tier": 1, "stats": {}, "flags": [], "resist": {}},
        ],
        "current": 1, "round": 2, "started": True,
    }


def test_a_stored_fight_reads_back_as_it_was() -> None:
    combat = Combat(TurnOrder((WOLF, Fighter("艾莉絲")), 1, 2), True)
    assert Combat.from_dict(combat.to_dict()) == combat


def test_a_fight_stored_with_names_only_reads_with_the_defaults() -> None:
    loaded = Combat.from_dict({"fighters": [{"name": "狼", "stats": None, "resist": None}]})
    assert loaded == Combat(TurnOrder((Fighter("狼", "party", None, None, 0, (), 0, 6, 6, 1,
                                               {}, (), {}),), 0, 0), False)


def test_a_stored_fight_without_fighters_is_no_fight() -> None:
    assert Combat.from_dict({}) is None
    assert Combat.from_dict({"fighters": [], "round": 3}) is None


def test_stored_numbers_are_read_as_numbers() -> None:
    loaded = Fighter.from_dict({"name": "狼", "initiative": "12", "ap": "4", "tier": "2",
                                "stats": {"hp": "9"}, "resist": {"cold": "1"}})
    assert (loaded.initiative, loaded.ap, loaded.tier, loaded.stats, loaded.resist) == (
        12, 4, 2, {"hp": 9}, {"cold": 1})
