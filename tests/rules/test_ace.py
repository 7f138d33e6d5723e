"""What ace's case tables (tests/rules/data/ace) cannot say: the state a channel
stores between commands — the fight (AE-9 holds, AE-10 postures, AE-13 hiders, the
initiative order), a GM-run fighter's sheet numbers, the nightmare mark (AE-14) and an
extended action (AE-4) — with every key spelled out, and what a record stored before
a key existed reads as."""

from __future__ import annotations

import json

import pytest

from rules.errors import RuleError
from rules.systems.ace import combat, extended, fight, grapple, mark, stealth

FIGHT = fight.Fight(
    (fight.Member("甲", "enemy", "gm", 12, 9, 1, 22, True), fight.Member("乙")),
    1, 3,
    {"甲": fight.Posture("charge", 2, "light", "asleep", True)},
    (grapple.Hold("甲", "乙", "pinned", 4, 2),),
    (stealth.Hidden("甲", ("乙",), ("丙",), True),),
)


def test_a_fight_is_stored_with_every_key() -> None:
    assert FIGHT.to_dict() == {
        "members": [
            {"name": "甲", "side": "enemy", "owner": "gm", "dex": 12, "raw": 9, "bonus": 1,
             "initiative": 22, "ambush": True},
            {"name": "乙", "side": "party", "owner": None, "dex": 0, "raw": 0, "bonus": 0,
             "initiative": 0, "ambush": False},
        ],
        "current": 1, "round": 3,
        "postures": {"甲": {"stance": "charge", "charge": 2, "cover": "light",
                            "condition": "asleep", "reflex_used": True}},
        "holds": [{"grappler": "甲", "target": "乙", "state": "pinned", "margin": 4,
                   "round": 2}],
        "hidden": [{"hider": "甲", "unseen_by": ["乙"], "seen_by": ["丙"], "ambush": True}],
    }


def test_a_stored_fight_reads_back_as_it_was() -> None:
    assert fight.Fight.from_dict(json.loads(json.dumps(FIGHT.to_dict()))) == FIGHT


def test_a_fight_stored_before_its_keys_existed_reads_as_a_new_one() -> None:
    assert fight.Fight.from_dict({}) == fight.Fight((), 0, 0, {}, (), ())
    assert fight.Fight.from_dict({"holds": [{"grappler": "甲", "target": "乙", "extra": 1}],
                                  "hidden": [{"hider": "甲"}]}) == fight.Fight(
        holds=(grapple.Hold("甲", "乙", "held", 0, 0),),
        hidden=(stealth.Hidden("甲", (), (), False),))


def test_a_fighter_is_stored_with_every_sheet_number() -> None:
    fighter = combat.Fighter("狼", 3, 4, 5, 6, 1, 2, 1, 1, 1, 1, 2, 1, 0, 1,
                             (("fire", 3),), "block", 0, "light", "asleep", 2, True)
    data = fighter.to_dict()
    assert data == {"name": "狼", "strength": 3, "dex": 4, "con": 5, "spi": 6, "footwork": 1,
                    "melee": 2, "ranged": 1, "shooting": 1, "grapple": 1, "waist": 1,
                    "weapon": 2, "armor": 1, "ammo": 0, "size": 1, "resist": [["fire", 3]],
                    "stance": "block", "charge": 0, "cover": "light", "condition": "asleep",
                    "held_penalty": 2, "pinned": True}
    assert combat.Fighter.from_dict(json.loads(json.dumps(data))) == fighter
    assert combat.Fighter.from_dict({"name": "狼", "unknown": 1}) == combat.Fighter("狼")
    assert combat.Fighter.from_dict({"name": "狼", "resist": [["cold", "2"]]}).resist == (
        ("cold", 2),)


def test_the_mark_is_stored_with_every_stack() -> None:
    stored = mark.Mark(2, (mark.Stack("太刀", 1, 1, 2), mark.Stack("繃帶", 3, 5, 1)), 7)
    data = stored.to_dict()
    assert data == {"level": 2, "kills": 7,
                    "stacks": [{"item": "太刀", "count": 1, "per_slot": 1, "span": 2},
                               {"item": "繃帶", "count": 3, "per_slot": 5, "span": 1}]}
    assert mark.Mark.from_dict(json.loads(json.dumps(data))) == stored
    assert mark.Mark.from_dict({"stacks": [{"item": "繃帶", "count": "3"}]}) == mark.Mark(
        1, (mark.Stack("繃帶", 3, 1, 1),), 0)


def test_an_extended_action_is_stored_with_its_totals() -> None:
    action = extended.Extended("開鎖", 5, 3, True, 2, 1, 2, "running")
    data = action.to_dict()
    assert data == {"name": "開鎖", "dc": 5, "deadline": 3, "mishap": True, "successes": 2,
                    "ones": 1, "periods": 2, "status": "running"}
    assert extended.Extended.from_dict({**data, "unknown": 1}) == action


def test_forty_fighters_fill_a_fight() -> None:
    full = fight.Fight(tuple(fight.Member(f"F{n}") for n in range(40)))
    with pytest.raises(RuleError) as refused:
        fight.check_join(full, "F40")
    assert (refused.value.code, refused.value.params) == ("ace.too_many_fighters", {"max": 40})
    fight.check_join(fight.Fight(full.members[:39]), "F40")
