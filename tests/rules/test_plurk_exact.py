"""Exact results of the plurk system for the corners mutation testing found untested.

Scripted dice throughout; errors are compared with their code *and* params.
"""

from __future__ import annotations

import dataclasses

import pytest
from pydantic import TypeAdapter

from rules.dice.source import ScriptedSource
from rules.errors import RuleError
from rules.systems import plurk_trpg as P
from tests.support import strict_dice


def src(*dice: int) -> ScriptedSource:
    return strict_dice(dice)


STORED_BATTLE = TypeAdapter(P.Battle)
"""How the bot stores a battle (``bot.systems.plurk_trpg.documents``)."""


def refusal(call) -> tuple[str, dict]:
    with pytest.raises(RuleError) as caught:
        call()
    return caught.value.code, caught.value.params


def _battle() -> P.Battle:
    return P.start_battle(
        src(15, 10, 5),
        [
            P.Entrant("Ann", dex=4, con=2, hp=12, owner="u1", weapon_durability=3, position="A1"),
            P.Entrant("Orc", kind="enemy", dex=2, hp=8, armor=1, position="C3"),
            P.Entrant("Cat", kind="ally", dex=0, hp=6),
        ],
    )


LIMIT = {"max_dice": 100, "max_faces": 1000}

# --------------------------------------------------------------------------- the system's own dice


def test_dice_limits_are_the_documented_numbers() -> None:
    assert (P.DICE_MAX_COUNT, P.DICE_MAX_FACES, P.DICE_MAX_LENGTH) == (100, 1000, 64)


def test_dice_count_limit_at_its_exact_boundary() -> None:
    """The system's own limit: 100 dice are accepted, 101 refused."""
    assert P.parse_dice("100d6") == (P.DiceTerm(1, 100, 6),)
    rolled = P.roll_dice(src(*[1] * 100), "100d6")
    assert (rolled.rolls, rolled.total) == ((1,) * 100, 100)
    assert refusal(lambda: P.parse_dice("101d6")) == ("plurk.dice_limit",
                                                      {"expr": "101d6", **LIMIT})
    # the count is summed over the terms
    assert P.parse_dice("60d6+40d4") == (P.DiceTerm(1, 60, 6), P.DiceTerm(1, 40, 4))
    assert refusal(lambda: P.parse_dice("60d6+41d4"))[0] == "plurk.dice_limit"
    # constants are not dice
    assert P.parse_dice("100d6+500") == (P.DiceTerm(1, 100, 6), P.DiceTerm(1, 500, 0))


def test_dice_limit_counts_both_passes_of_an_impale() -> None:
    rolled = P.roll_dice(src(*[2] * 100), "50d6+1", passes=2)
    assert (len(rolled.rolls), rolled.modifier, rolled.total, rolled.impale) == (100, 1, 201, True)
    assert refusal(lambda: P.roll_dice(src(), " 51d6 ", passes=2)) == (
        "plurk.dice_limit", {"expr": " 51d6 ", **LIMIT})


def test_dice_faces_limit_at_its_exact_boundary() -> None:
    assert P.parse_dice("1d1000") == (P.DiceTerm(1, 1, 1000),)
    assert refusal(lambda: P.parse_dice("1d1001")) == ("plurk.dice_limit",
                                                       {"expr": "1d1001", **LIMIT})


def test_dice_length_limit_at_its_exact_boundary() -> None:
    ok = "1d6+" + "1" * 60
    assert len(ok) == 64
    assert P.parse_dice(ok) == (P.DiceTerm(1, 1, 6), P.DiceTerm(1, int("1" * 60), 0))
    assert P.parse_dice(f"  {ok}  ")[0] == P.DiceTerm(1, 1, 6)  # measured after stripping
    assert refusal(lambda: P.parse_dice(ok + "1")) == ("plurk.bad_dice", {"expr": ok + "1"})


@pytest.mark.parametrize("expr", ["", "   ", "0d6", "1d0", "2d", "d", "1d6 2", "1x6", "+"])
def test_bad_dice_are_refused_with_the_text(expr: str) -> None:
    assert refusal(lambda: P.parse_dice(expr)) == ("plurk.bad_dice", {"expr": expr})


def test_tiny_dice_are_accepted() -> None:
    assert P.parse_dice("d1") == (P.DiceTerm(1, 1, 1),)
    assert P.parse_dice(" 1d3-1 ") == (P.DiceTerm(1, 1, 3), P.DiceTerm(-1, 1, 0))
    rolled = P.roll_dice(src(3, 2), " 2D6-1 ")
    assert rolled == P.DiceRoll("2D6-1", (3, 2), -1, 4, False)


# --------------------------------------------------------------------------- opposed (PL-6)


def test_opposed_bad_mode() -> None:
    a, b = P.OpposedSide("A"), P.OpposedSide("B")
    assert refusal(lambda: P.opposed(src(), a, b, mode="x")) == (
        "plurk.bad_opposed_mode", {"mode": "x", "allowed": "general, zero_sum, one_way"})


def test_opposed_one_way_passive_side_exactly() -> None:
    a = P.OpposedSide("A", 2, "潛行", 1)
    b = P.OpposedSide("B", 3, "觀察", 4)
    result = P.opposed(src(14), a, b, mode="one_way")
    assert result == P.OpposedResult(
        "one_way",
        P.OpposedRoll("A", "潛行", 14, 2, 1, 17, False, False),
        P.OpposedRoll("B", "觀察", None, 3, 4, 17, False, False, passive=True),
        "a",
        "value",
    )
    lost = P.opposed(src(13), a, b, mode="one_way")
    assert (lost.winner, lost.b.value) == ("b", 17)
    no_stat = P.opposed(src(13), a, P.OpposedSide("B"), mode="one_way")
    assert no_stat.b == P.OpposedRoll("B", None, None, 0, 0, 10, False, False, passive=True)


def test_opposed_general_value_and_draw() -> None:
    a, b = P.OpposedSide("A", 1), P.OpposedSide("B", 0, None, 2)
    assert P.opposed(src(20, 1), a, b) == P.OpposedResult(
        "general",
        P.OpposedRoll("A", None, 20, 1, 0, 21, True, False),
        P.OpposedRoll("B", None, 1, 0, 2, 3, False, True),
        "a",
        "value",
    )
    assert P.opposed(src(5, 7), a, b).winner == "b"
    draw = P.opposed(src(6, 5), a, b)
    assert (draw.mode, draw.winner, draw.decided_by, draw.rerolls) == ("general", None, "draw", ())


def test_opposed_zero_sum_modifier_then_reroll() -> None:
    a, b = P.OpposedSide("A", 3, None, 0), P.OpposedSide("B", 1, None, 1)
    # equal values, a's modifier+bonus 3 > b's 2
    result = P.opposed(src(5, 6), a, b, mode="zero_sum")
    assert (result.mode, result.winner, result.decided_by, result.rerolls) == (
        "zero_sum", "a", "modifier", ())
    result = P.opposed(src(6, 5), P.OpposedSide("A", 1, None, 1), P.OpposedSide("B", 3),
                       mode="zero_sum")
    assert (result.winner, result.decided_by) == ("b", "modifier")
    # fully tied twice, then a wins on value
    same = P.OpposedSide("A", 2), P.OpposedSide("B", 2)
    result = P.opposed(src(4, 4, 9, 9, 10, 3), *same, mode="zero_sum")
    assert (result.winner, result.decided_by, result.rerolls) == ("a", "value", ((4, 4), (9, 9)))
    assert refusal(lambda: P.opposed(src(4, 4, 5, 5), *same, mode="zero_sum",
                                     max_rerolls=1)) == ("plurk.reroll_limit", {"limit": 1})
    # exactly max_rerolls rerolls are allowed
    result = P.opposed(src(4, 4, 1, 2), *same, mode="zero_sum", max_rerolls=1)
    assert (result.winner, result.rerolls) == ("b", ((4, 4),))


# --------------------------------------------------------------------------- attack kinds


@pytest.mark.parametrize(
    ("skill", "options", "kind"),
    [
        ("普通攻擊", {}, "unarmed"),
        ("擒拿", {}, "grapple"),
        ("武術", {}, "martial"),
        ("弓術", {}, "bow"),
        ("槍炮", {}, "gun"),
        ("槍炮", {"heavy": True}, "heavy_gun"),
        ("武器", {"edged": True}, "edged"),
        ("武器", {"edged": False}, "blunt"),
        ("投擲", {"edged": True}, "thrown_edged"),
        ("投擲", {"edged": False}, "thrown_blunt"),
        (" Blunt ", {}, "blunt"),
    ],
)
def test_attack_kind(skill: str, options: dict, kind: str) -> None:
    assert P.attack_kind(skill, **options) == kind


def test_attack_kind_refusals() -> None:
    assert refusal(lambda: P.attack_kind("武器")) == ("plurk.attack_kind_ambiguous",
                                                      {"skill": "武器"})
    assert refusal(lambda: P.attack_kind("唱歌")) == (
        "plurk.unknown_attack_kind", {"kind": "唱歌", "allowed": ", ".join(P.ATTACK_KINDS)})
    assert P.ATTACK_KINDS == ("unarmed", "blunt", "edged", "grapple", "martial", "bow", "gun",
                              "heavy_gun", "thrown_blunt", "thrown_edged", "other")


# --------------------------------------------------------------------------- battle state


def test_battle_from_a_minimal_dict_takes_the_defaults() -> None:
    battle = STORED_BATTLE.validate_python({"combatants": []})
    assert (battle.combatants, battle.round, battle.current, battle.costs, battle.width,
            battle.height, battle.first_side, battle.ended) == (
        (), 0, 0, P.BP_DEFAULT_COSTS, 8, 8, None, False)
    assert P.BP_DEFAULT_COSTS == {"move": 1, "attack": 2, "skill": 2, "item": 1, "parry": 1}


def test_battle_round_trip_keeps_every_field() -> None:
    battle = dataclasses.replace(_battle(), round=3, current=2, width=10, height=12,
                                 first_side="enemy", ended=True, costs={"move": 2})
    data = STORED_BATTLE.dump_python(battle, mode="json")
    assert (data["round"], data["current"], data["width"], data["height"],
            data["first_side"], data["ended"], data["costs"]) == (
        3, 2, 10, 12, "enemy", True, {"move": 2})
    assert STORED_BATTLE.validate_python(data) == battle


def test_start_battle_duplicate_name() -> None:
    assert refusal(lambda: P.start_battle(src(1, 2), [P.Entrant("Ann"), P.Entrant("Ann")])) == (
        "plurk.battle_duplicate_name", {"name": "Ann"})


def test_initiative_adds_dex_and_bonus_and_sorts_high_first() -> None:
    battle = P.start_battle(
        src(10, 10, 10),
        [P.Entrant("Low", dex=1), P.Entrant("Bonus", dex=1, initiative_bonus=2),
         P.Entrant("Dex", dex=2)],
    )
    assert [c.name for c in battle.combatants] == ["Bonus", "Dex", "Low"]


def test_knock_out_needs_known_hp() -> None:
    battle = P.start_battle(src(5, 4), [P.Entrant("Ann", hp=10), P.Entrant("Orc", kind="enemy")])
    assert refusal(lambda: P.knock_out(battle, src(), "Orc", 3, kind="blunt")) == (
        "plurk.hp_unknown", {"name": "Orc"})
