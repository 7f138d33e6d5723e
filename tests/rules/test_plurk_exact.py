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
from rules.systems.plurk_trpg import damage as D
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


# --------------------------------------------------------------------------- every refusal's params

KINDS = "investigator, ally, enemy"
ATTACKS = "unarmed, blunt, edged, grapple, martial, bow, gun, heavy_gun, thrown_blunt, " \
    "thrown_edged, other"


def _duel(durability: int | None = 3) -> P.Battle:
    """Ann (17, first, 4 BP) against the monster Orc (6): Ann on A1, Orc on C1."""
    entrants = [P.Entrant("Ann", dex=2, con=2, hp=12, weapon_durability=durability,
                          position="A1"),
                P.Entrant("Orc", kind="enemy", dex=1, hp=10, position="C1")]
    return P.start_battle(src(15, 5), entrants)


def _failed_skill() -> P.CheckResult:
    return P.check(src(5), 0, stat="偵查")


REFUSALS = [
    ("a side other than party or enemy (PL-14)",
     lambda: P.start_battle(src(), [P.Entrant("Ann")], first_side="neutral"),
     "plurk.bad_side", {"side": "neutral", "allowed": "party, enemy"}),
    ("a kind of combatant that does not exist (PL-13)",
     lambda: P.start_battle(src(), [P.Entrant("Ann", kind="beast")]),
     "plurk.bad_combatant_kind", {"kind": "beast", "allowed": KINDS}),
    ("a negative BP cost at the start (PL-13)",
     lambda: P.start_battle(src(10), [P.Entrant("Ann")], costs={"攻擊": -1}),
     "plurk.negative_amount", {"name": "cost", "amount": -1}),
    ("a negative BP maximum (PL-13)",
     lambda: P.start_battle(src(10), [P.Entrant("Ann", bp_max=-1)]),
     "plurk.negative_amount", {"name": "bp_max", "amount": -1}),
    ("a second Ann mid-battle (PL-13)",
     lambda: P.add_combatant(_duel(), P.Entrant(" Ann "), src(10)),
     "plurk.battle_duplicate_name", {"name": " Ann "}),
    ("a newcomer without initiative or dice (PL-14)",
     lambda: P.add_combatant(_duel(), P.Entrant("Bob")),
     "plurk.initiative_needed", {"name": "Bob"}),
    ("a move of someone off the board (PL-15)",
     lambda: P.move(P.place(_duel(), "Ann", None), "B2"),
     "plurk.not_placed", {"name": "Ann"}),
    ("a move onto one's own cell (PL-15)",
     lambda: P.move(_duel(), "a1"),
     "plurk.same_cell", {"cell": "A1"}),
    ("a move dearer than the BP left (PL-15)",
     lambda: P.move(_duel(), "H8"),
     "plurk.bp_insufficient", {"actor": "Ann", "action": "move", "cost": 7, "bp": 4}),
    ("a move onto an occupied cell (PL-15)",
     lambda: P.move(_duel(), "C1"),
     "plurk.cell_occupied", {"cell": "C1", "occupant": "Orc"}),
    ("placing on an occupied cell (PL-15)",
     lambda: P.place(_duel(), "Ann", "c1"),
     "plurk.cell_occupied", {"cell": "C1", "occupant": "Orc"}),
    ("a cell that is no cell (PL-15)",
     lambda: P.place(_duel(), "Ann", "1A"),
     "plurk.bad_cell", {"cell": "1A"}),
    ("a field of width 0 (PL-15)",
     lambda: P.set_field(_duel(), 0, 5), "plurk.field_size",
     {"width": 0, "height": 5, "max": 26}),
    ("a field of height 27 (PL-15)",
     lambda: P.set_field(_duel(), 5, 27), "plurk.field_size",
     {"width": 5, "height": 27, "max": 26}),
    ("a field of width 27 (PL-15)",
     lambda: P.set_field(_duel(), 27, 5), "plurk.field_size",
     {"width": 27, "height": 5, "max": 26}),
    ("a field of height 0 (PL-15)",
     lambda: P.set_field(_duel(), 5, 0), "plurk.field_size", {"width": 5, "height": 0, "max": 26}),
    ("removing the last combatant (PL-13)",
     lambda: P.remove_combatant(P.remove_combatant(_duel(), "Orc")[0], "Ann"),
     "plurk.battle_last_combatant", {"name": "Ann"}),
    ("a combatant nobody knows",
     lambda: P.remove_combatant(_duel(), "Bob"), "plurk.unknown_combatant", {"name": "Bob"}),
    ("a negative BP cost set by the GM (PL-13)",
     lambda: P.set_bp_cost(_duel(), "attack", -2), "plurk.negative_amount",
     {"name": "cost", "amount": -2}),
    ("spending an action 0 times (PL-13)",
     lambda: P.spend_bp(_duel(), "attack", count=0), "plurk.negative_amount",
     {"name": "count", "amount": 0}),
    ("a negative GM cost (PL-13)",
     lambda: P.spend_bp(_duel(), "attack", cost=-1), "plurk.negative_amount",
     {"name": "cost", "amount": -1}),
    ("an unknown action",
     lambda: P.spend_bp(_duel(), "dance"), "plurk.bp_unknown_action",
     {"action": "dance", "known": "attack, item, move, parry, skill"}),
    ("a field the GM may not change",
     lambda: P.update_combatant(_duel(), "Ann", position="B2"), "plurk.bad_field",
     {"field": "position", "allowed": "armor, bp, bp_max, con, dead, dex, hp, hp_max, human_like, "
                                  "kind, owner, stuck_in, unconscious, weapon_durability"}),
    ("a negative armor",
     lambda: P.update_combatant(_duel(), "Ann", armor=-1), "plurk.negative_amount",
     {"name": "armor", "amount": -1}),
    ("an updated kind that does not exist",
     lambda: P.update_combatant(_duel(), "Ann", kind="beast"), "plurk.bad_combatant_kind",
     {"kind": "beast", "allowed": KINDS}),
    ("an attack after a parry (PL-16)",
     lambda: P.spend_bp(P.declare_parry(_duel(), "Orc")[0], "attack"),
     "plurk.attack_after_parry", {"name": "Ann", "enemy": "Orc"}),
    ("a parry after an attack (PL-16)",
     lambda: P.declare_parry(P.spend_bp(_duel(), "attack", cost=1)[0], "Orc"),
     "plurk.parry_after_attack", {"name": "Ann"}),
    ("a parry against oneself (PL-16)",
     lambda: P.declare_parry(_duel(), "Ann"), "plurk.parry_self", {"name": "Ann"}),
    ("a parry against a monster when the bot asks (PL-16)",
     lambda: P.declare_parry(_duel(), "Orc", allow_monster=False), "plurk.parry_monster",
     {"name": "Ann", "enemy": "Orc"}),
    ("a parry with the weapon stuck in a target (PL-18)",
     lambda: P.declare_parry(P.update_combatant(_duel(), "Ann", stuck_in="Orc"), "Orc"),
     "plurk.weapon_stuck", {"name": "Ann", "target": "Orc"}),
    ("a parry with a negative durability (PL-16)",
     lambda: P.declare_parry(_duel(), "Orc", durability=-1), "plurk.negative_amount",
     {"name": "durability", "amount": -1}),
    ("a parry without a weapon (PL-16)",
     lambda: P.declare_parry(_duel(None), "Orc"), "plurk.parry_no_weapon",
     {"name": "Ann"}),
    ("a parry with a broken weapon (PL-16)",
     lambda: P.declare_parry(_duel(), "Orc", durability=0), "plurk.parry_weapon_broken",
     {"name": "Ann"}),
    ("a parry dearer than the BP left (PL-16)",
     lambda: P.declare_parry(P.set_bp_cost(_duel(), "parry", 5), "Orc"),
     "plurk.bp_insufficient", {"actor": "Ann", "action": "parry", "cost": 5, "bp": 4}),
    ("an attack of an unknown kind (PL-16)",
     lambda: P.apply_damage(_duel(), "Orc", 3, kind="laser"), "plurk.unknown_attack_kind",
     {"kind": "laser", "allowed": ATTACKS}),
    ("a negative raw damage (PL-18)",
     lambda: P.apply_damage(_duel(), "Orc", -1), "plurk.negative_amount",
     {"name": "raw", "amount": -1}),
    ("a negative penetration (PL-18)",
     lambda: P.apply_damage(_duel(), "Orc", 1, penetration=-1), "plurk.negative_amount",
     {"name": "penetration", "amount": -1}),
    ("a damage type that does not exist (PL-18)",
     lambda: P.apply_damage(_duel(), "Orc", 1, damage_type="fire"), "plurk.bad_damage_type",
     {"damage_type": "fire", "allowed": "physical, mental, conceptual"}),
    ("damage to a combatant without HP",
     lambda: P.apply_damage(P.update_combatant(_duel(), "Orc", hp=None), "Orc", 1),
     "plurk.hp_unknown", {"name": "Orc"}),
    ("a knock-out with a gun (PL-17)",
     lambda: P.knock_out_roll(src(), 4, 10, 2, kind="gun"), "plurk.knockout_not_allowed",
     {"kind": "gun"}),
    ("a knock-out of an unknown kind (PL-17)",
     lambda: P.knock_out_roll(src(), 4, 10, 2, kind="laser"), "plurk.unknown_attack_kind",
     {"kind": "laser", "allowed": ATTACKS}),
    ("a knock-out of a monster without a battle (PL-17)",
     lambda: P.knock_out_roll(src(), 4, 10, 2, kind="blunt", human_like=False),
     "plurk.knockout_not_human", {"target": ""}),
    ("a knock-out of a monster in a battle (PL-17)",
     lambda: P.knock_out(_duel(), src(), "Orc", 4, kind="blunt"),
     "plurk.knockout_not_human", {"target": "Orc"}),
    ("a negative knock-out damage (PL-17)",
     lambda: P.knock_out_roll(src(), -1, 10, 2, kind="blunt"), "plurk.negative_amount",
     {"name": "raw_damage", "amount": -1}),
    ("an impale with a blunt weapon (PL-18)",
     lambda: P.roll_damage(src(), "1d6", impale=True, kind="blunt"), "plurk.impale_not_allowed",
     {"kind": "blunt"}),
    ("a damage roll of an unknown kind (PL-18)",
     lambda: P.roll_damage(src(), "1d6", kind="laser"), "plurk.unknown_attack_kind",
     {"kind": "laser", "allowed": ATTACKS}),
    ("a negative SAN loss (PL-5)",
     lambda: P.apply_loss(50, -1), "plurk.negative_amount", {"name": "loss", "amount": -1}),
    ("a negative SAN (PL-5)",
     lambda: P.sanity_check(src(), -1, "1/1d6"), "plurk.negative_amount",
     {"name": "san", "amount": -1}),
    ("a SAN loss without its slash (PL-5)",
     lambda: P.parse_san_loss("1d6"), "plurk.bad_san_loss", {"expr": "1d6"}),
    ("a SAN loss with a side that is no dice (PL-5)",
     lambda: P.parse_san_loss("1/d"), "plurk.bad_san_loss", {"expr": "1/d"}),
    ("CP that would fall below 0 (PL-12)",
     lambda: P.award_cp(2, -3), "plurk.cp_negative", {"cp": 2, "amount": -3}),
    ("an intervention dearer than the CP (PL-12)",
     lambda: P.intervene(12, 13), "plurk.intervention_cp_insufficient", {"cp": 12, "cost": 13}),
    ("a collective check of a combat skill (PL-9)",
     lambda: P.collective_check(src(), "Weapon", [P.Member("a", 1), P.Member("b", 1)]),
     "plurk.collective_combat", {"stat": "武器"}),
    ("a collective check naming a member twice (PL-9)",
     lambda: P.collective_check(src(), "偵查", [P.Member("a", 1), P.Member("a", 2)]),
     "plurk.collective_duplicate", {"name": "a"}),
    ("a check mode that does not exist (PL-2)",
     lambda: P.check(src(), 0, mode="take15"), "plurk.bad_mode",
     {"mode": "take15", "allowed": "roll, take10, take20"}),
    ("a push of an attribute (PL-10)",
     lambda: P.push(P.check(src(5), 0, stat="力量"), src()), "plurk.push_not_skill",
     {"stat": "力量"}),
    ("a push after a fumble (PL-10)",
     lambda: P.push(P.check(src(1), 0, stat="偵查"), src()), "plurk.push_after_fumble",
     {"stat": "偵查"}),
    ("a push of a success (PL-10)",
     lambda: P.push(P.check(src(15), 0, stat="偵查"), src()), "plurk.push_not_failed",
     {"stat": "偵查"}),
    ("a fate check without a crit or fumble (PL-4)",
     lambda: P.fate_check(_failed_skill(), src()), "plurk.fate_not_allowed",
     {"stat": "偵查", "raw": 5}),
    ("a negative melee reach (PL-15)",
     lambda: D.check_reach(_duel(), "Ann", "Orc", "blunt", reach=-1), "plurk.negative_amount",
     {"name": "reach", "amount": -1}),
    ("an attack of an unknown kind's reach (PL-15)",
     lambda: D.is_melee("laser"), "plurk.unknown_attack_kind",
     {"kind": "laser", "allowed": ATTACKS}),
    ("an attack with the weapon stuck in a target (PL-18)",
     lambda: D.check_weapon_free(P.update_combatant(_duel(), "Ann", stuck_in="Orc"), "Ann",
                                 "edged"),
     "plurk.weapon_stuck", {"name": "Ann", "target": "Orc"}),
    ("retrieving a weapon that is not stuck (PL-18)",
     lambda: D.retrieve_weapon(_duel(), "Ann"), "plurk.weapon_not_stuck", {"name": "Ann"}),
    ("an impale of an unknown kind (PL-18)",
     lambda: D.impale_on_hit(None, "laser", True), "plurk.unknown_attack_kind",
     {"kind": "laser", "allowed": ATTACKS}),
    ("an impale with a blunt weapon on a hit (PL-18)",
     lambda: D.impale_on_hit(None, "blunt", True), "plurk.impale_not_allowed", {"kind": "blunt"}),
    ("an impale declared on a hit that is no crit (PL-18)",
     lambda: D.impale_on_hit(P.check(src(15), 0), "edged", True), "plurk.impale_needs_crit",
     {"raw": 15}),
    ("an opposed check of an attribute against a skill (PL-6)",
     lambda: P.opposed(src(), P.OpposedSide("a", 1, stat="力量"),
                       P.OpposedSide("b", 1, stat="偵查")),
     "plurk.opposed_mixed_kinds", {"a": "a", "a_stat": "力量", "a_kind": "attribute", "b": "b",
                                   "b_stat": "偵查", "b_kind": "skill"}),
    ("a compound check naming a stat twice after an unnamed one (PL-8)",
     lambda: P.compound_check(src(), [P.StatRef(None, 1), P.StatRef("偵查", 1),
                                      P.StatRef("偵查", 2)]),
     "plurk.multiple_duplicate", {"stat": "偵查"}),
    ("a negative AP grant (PL-11)",
     lambda: P.grant_ap(P.ApPool(), -1), "plurk.negative_amount", {"name": "amount", "amount": -1}),
    ("negative AP (PL-11)",
     lambda: P.set_ap(P.ApPool(), -1), "plurk.negative_amount", {"name": "points", "amount": -1}),
    ("a negative AP cost (PL-11)",
     lambda: P.set_ap_cost(P.ApPool(), "拒絕", -1), "plurk.negative_amount",
     {"name": "cost", "amount": -1}),
    ("a negative AP spend (PL-11)",
     lambda: P.spend_ap(P.ApPool(points=3), "拒絕", cost=-1), "plurk.negative_amount",
     {"name": "cost", "amount": -1}),
]


@pytest.mark.parametrize(("refused", "code", "params"),
                         [pytest.param(run, code, params, id=name)
                          for name, run, code, params in REFUSALS])
def test_every_refusal_names_its_numbers(refused, code: str, params: dict) -> None:
    with pytest.raises(RuleError) as caught:
        refused()
    assert (caught.value.code, caught.value.params) == (code, params)


# --------------------------------------------------------------------------- battles, exactly


def test_a_combatant_keeps_its_owner_and_dex_and_the_field_its_size() -> None:
    """PL-13/15: what a start takes from an entrant and from the GM."""
    battle = P.start_battle(src(10), [P.Entrant("Ann", owner="u1", dex=3)], width=12, height=5,
                            first_side="party")
    ann = battle.combatants[0]
    assert (ann.owner, ann.dex, ann.bp_max, ann.initiative) == ("u1", 3, 4, 13)
    assert (battle.width, battle.height, battle.first_side) == (12, 5, "party")


def test_the_party_that_surprised_acts_first() -> None:
    """PL-14: a party surprise puts every investigator before a faster enemy."""
    battle = P.start_battle(src(2, 19), [P.Entrant("Ann"), P.Entrant("Orc", kind="enemy")],
                            first_side="party")
    assert [c.name for c in battle.combatants] == ["Ann", "Orc"]


def test_the_higher_tie_rerolls_first_and_a_lone_value_between_ties_waits() -> None:
    """PL-14: every tied group rerolls, the highest value first; a lone value between
    two tied groups neither stops nor takes a reroll."""
    entrants = [P.Entrant(n) for n in ("A", "B", "C", "D", "E")]
    # first rolls: A 15, B 15, C 12, D 10, E 10; then A/B reroll (3, 9), then D/E (8, 2)
    battle = P.start_battle(src(15, 15, 12, 10, 10, 3, 9, 8, 2), entrants)
    assert [c.name for c in battle.combatants] == ["B", "A", "C", "D", "E"]
    assert [c.initiative_rolls for c in battle.combatants] == [
        (15, 9), (15, 3), (12,), (10, 8), (10, 2)]


def test_the_reroll_limit_counts_every_reroll() -> None:
    """PL-14: one tie rerolled once is within a limit of 1; no reroll at all is allowed
    with a limit of 0."""
    entrants = [P.Entrant("A"), P.Entrant("B")]
    assert [c.name for c in P.start_battle(src(7, 7, 2, 9), entrants, max_rerolls=1)
            .combatants] == ["B", "A"]
    with pytest.raises(RuleError) as refused:
        P.start_battle(src(7, 7), entrants, max_rerolls=0)
    assert (refused.value.code, refused.value.params) == ("plurk.reroll_limit", {"limit": 0})


def test_a_newcomer_rolls_dex_and_bonus_and_is_placed() -> None:
    """PL-14/15: a combatant added mid-battle rolls 1d20 + 靈巧 + bonus and stands on its cell."""
    battle = P.add_combatant(_duel(), P.Entrant("Bob", dex=3, initiative_bonus=2, position="B3"),
                             src(4))
    bob = battle.get("Bob")
    assert (bob.initiative, bob.initiative_rolls, bob.position) == (9, (4,), "B3")
    assert [c.name for c in battle.combatants] == ["Ann", "Bob", "Orc"]


def test_only_the_current_actor_passes_or_moves() -> None:
    for act in (lambda b: P.pass_turn(b, actor="Orc"), lambda b: P.move(b, "B1", actor="Orc")):
        with pytest.raises(RuleError) as refused:
            act(_duel())
        assert (refused.value.code, refused.value.params) == (
            "plurk.not_current_actor", {"actor": "Orc", "current": "Ann"})


def test_a_move_costs_the_distance_times_the_move_cost() -> None:
    """PL-15: Chebyshev distance × BP per cell, exactly."""
    battle = P.set_bp_cost(_duel(), "move", 2)
    _, event = P.move(battle, "B2")
    assert (event.distance, event.cost, event.bp_before, event.bp_after) == (1, 2, 4, 2)
    assert type(event.cost) is int


def test_a_move_on_a_large_field_measures_far_cells_both_ways() -> None:
    battle = P.set_field(_duel(), 26, 26)
    for start, to in (("A1", "A20"), ("A20", "A1")):
        with pytest.raises(RuleError) as refused:
            P.move(P.place(battle, "Ann", start), to)
        assert refused.value.params == {"actor": "Ann", "action": "move", "cost": 19, "bp": 4}


def test_placing_on_a_wide_field_uses_its_width() -> None:
    battle = P.set_field(_duel(), 10, 3)
    assert P.place(battle, "Ann", "J1").get("Ann").position == "J1"


def test_the_field_shrinks_to_its_last_placed_combatant_and_no_further() -> None:
    """PL-15: 1…26 each way; a combatant off the new field refuses it, an unplaced one
    (here Ann, first in order) does not."""
    battle = P.place(_duel(), "Ann", None)
    narrow = P.set_field(battle, 3, 1)
    assert (narrow.width, narrow.height) == (3, 1)
    with pytest.raises(RuleError) as refused:
        P.set_field(battle, 2, 1)
    assert (refused.value.code, refused.value.params) == (
        "plurk.field_too_small", {"name": "Orc", "cell": "C1", "width": 2, "height": 1})
    tall = P.place(P.set_field(battle, 26, 26), "Orc", "A26")
    assert P.set_field(tall, 1, 26).height == 26
    with pytest.raises(RuleError) as refused:
        P.set_field(tall, 1, 25)
    assert refused.value.params == {"name": "Orc", "cell": "A26", "width": 1, "height": 25}


def test_an_unconscious_combatant_loses_its_last_turn_and_its_parry() -> None:
    """Decision 12: one turn left unconscious is passed over, its parry ends."""
    battle, _ = P.declare_parry(_duel(), "Orc")
    battle = P.update_combatant(battle, "Ann", unconscious=1)
    battle, event = P.pass_turn(battle)
    battle, event = P.pass_turn(battle)
    ann = battle.get("Ann")
    assert (event.current, event.skipped, ann.unconscious, ann.parry_against) == (
        "Orc", ("Ann",), 0, None)


def test_a_new_round_of_ones_own_lets_one_parry_after_attacking() -> None:
    """PL-16: attack or parry is one per round, from one own turn to the next."""
    battle, _ = P.spend_bp(_duel(), "attack", cost=1)
    battle, _ = P.pass_turn(battle)
    battle, _ = P.pass_turn(battle)
    assert battle.get("Ann").attacked is False
    battle, event = P.declare_parry(battle, "Orc")
    assert (event.action, event.cost) == ("parry", 1)


def test_an_attack_dearer_than_the_bp_left_names_the_action() -> None:
    with pytest.raises(RuleError) as refused:
        P.spend_bp(_duel(), "攻擊", count=3)
    assert refused.value.params == {"actor": "Ann", "action": "attack", "cost": 6, "bp": 4}


def test_a_parry_costing_every_bp_left_is_allowed() -> None:
    _, event = P.declare_parry(P.set_bp_cost(_duel(), "parry", 4), "Orc")
    assert event.turn is not None
    assert (event.bp_before, event.bp_after, event.turn.current) == (4, 0, "Orc")


def test_removing_a_combatant_keeps_the_parries_against_others() -> None:
    battle = P.add_combatant(_duel(), P.Entrant("Bob"), initiative=1)
    battle, _ = P.declare_parry(battle, "Orc")
    battle, _ = P.remove_combatant(battle, "Bob")
    assert battle.get("Ann").parry_against == "Orc"


def test_a_new_action_gets_its_own_cost_and_a_kind_may_change() -> None:
    battle = P.set_bp_cost(_duel(), "dance", 3)
    assert battle.costs["dance"] == 3
    assert P.update_combatant(battle, "Orc", kind="ally").get("Orc").kind == "ally"


# --------------------------------------------------------------------------- damage, exactly


def _hit(battle: P.Battle, attacker: str = "orc", **options: object) -> P.DamageResult:
    return P.apply_damage(battle, "Ann", 5, attacker=attacker, **options)[1]  # type: ignore[arg-type]


def test_why_a_declared_parry_did_not_apply() -> None:
    """PL-16: each reason a parry against this attacker is blocked, by name."""
    human = P.update_combatant(P.declare_parry(_duel(), "Orc")[0], "Orc", human_like=True)
    assert _hit(human, parry=False).parry_blocked == "ruled"
    assert _hit(P.update_combatant(human, "Ann", unconscious=1)).parry_blocked == "unconscious"
    assert _hit(human, damage_type="mental").parry_blocked == "armorless"
    assert _hit(P.update_combatant(human, "Ann", weapon_durability=0)).parry_blocked == \
        "no_weapon"
    assert _hit(human, kind="gun").parry_blocked == "unparryable"
    parried = _hit(human)
    assert (parried.attacker, parried.parried, parried.parry_blocked, parried.absorbed,
            parried.durability_after, parried.kind) == ("Orc", True, None, 3, 0, None)


def test_no_parry_declared_is_no_parry_blocked() -> None:
    result = _hit(P.update_combatant(_duel(None), "Orc", human_like=True))
    assert (result.parried, result.parry_blocked, result.taken) == (False, None, 5)


def test_cancelling_a_hit_gives_back_exactly_what_it_took() -> None:
    """PL-12: intervention restores the HP the hit took from the current HP."""
    battle, first = P.apply_damage(_duel(), "Ann", 4)
    battle, _ = P.apply_damage(battle, "Ann", 3)
    assert P.cancel_damage(battle, first).get("Ann").hp == 9


def test_a_knock_out_in_a_battle_hands_its_options_on() -> None:
    """PL-17: attacker, kind, penetration, parry and 體質 bonus reach the check and the hit;
    the knocked-out target's parry ends."""
    battle = P.update_combatant(P.declare_parry(_duel(), "Orc")[0], "Orc", human_like=True,
                                armor=0)
    battle = P.update_combatant(battle, "Ann", armor=3)
    battle, event = P.knock_out(battle, src(2, 1, 1, 1), "Ann", 6, kind="blunt",
                                attacker="Orc", penetration=1, con_bonus=1)
    assert (event.knock_out.check.bonus, event.knock_out.knocked_out, event.knock_out.rounds) \
        == (1, True, 3)
    hit = event.damage
    assert (hit.attacker, hit.kind, hit.penetration, hit.parried, hit.raw) == (
        "Orc", "blunt", 1, True, 1)
    ann = battle.get("Ann")
    assert (ann.unconscious, ann.parry_against) == (3, None)


def test_a_knock_out_without_its_condition_rolls_nothing() -> None:
    result = P.knock_out_roll(src(), 2, 10, 3, kind="blunt")
    assert (result.raw_damage, result.condition_met, result.check, result.rounds_rolls,
            result.damage) == (2, False, None, (), 1)


def test_a_negative_damage_roll_is_no_damage() -> None:
    assert P.roll_damage(src(2), "1d4-5").total == 0


def test_a_push_keeps_the_skill_and_its_kind() -> None:
    pushed = P.push(_failed_skill(), src(12))
    assert (pushed.stat, pushed.kind, pushed.combat, pushed.mode) == ("偵查", "skill", False,
                                                                      "push")


def test_a_check_without_a_modifier_is_the_die() -> None:
    assert P.check(src(9)).value == 9


# --------------------------------------------------------------------------- losses, groups, AP


def test_fatal_means_a_loss_reaching_zero() -> None:
    """PL-12: a loss of 0 is never fatal, a loss of 1 at 1 is."""
    assert (P.is_fatal(0, 0), P.is_fatal(1, 1), P.is_fatal(2, 1)) == (False, True, False)


def test_an_intervention_may_spend_every_cp() -> None:
    assert P.intervene(13, 13).cp_after == 0


def test_a_sanity_check_takes_a_parsed_loss() -> None:
    result = P.sanity_check(src(10, 3), 50, P.parse_san_loss("1/1d6"))
    assert (result.success, result.loss, result.san_after) == (True, 1, 49)


def test_a_collective_check_keeps_the_stat_on_every_member() -> None:
    result = P.collective_check(src(11), "偵查", [P.Member("a", 1), P.Member("b", 0)])
    assert [r.result.stat for r in result.results] == ["偵查", "偵查"]


def test_group_surprise_sends_the_least_stealthy_with_bonus_in_its_mode() -> None:
    """PL-14: the representative is the lowest 潛行 modifier + bonus."""
    sneakers = [P.OpposedSide("a", 3, bonus=0, stat="潛行"),
                P.OpposedSide("b", 1, bonus=3, stat="潛行")]
    watchers = [P.OpposedSide("w", 0, stat="聆聽")]
    from rules.systems.plurk_trpg.opposed import group_surprise
    result = group_surprise(src(10), sneakers, watchers, mode="one_way")
    assert result.stealth.label == "a"
    assert [(c.opposed.mode, c.opposed.a.value, c.surprised) for c in result.checks] == [
        ("one_way", 13, True)]


def test_an_opposed_tie_goes_to_the_higher_modifier_with_bonus() -> None:
    """PL-6 zero-sum: equal values, then modifier + bonus decides."""
    result = P.opposed(src(10, 11), P.OpposedSide("a", 2, bonus=1), P.OpposedSide("b", 2),
                       mode="zero_sum")
    assert (result.winner, result.decided_by) == ("a", "modifier")


def test_ap_grants_and_sets_report_no_cost() -> None:
    _, granted = P.grant_ap(P.ApPool(points=1), 2)
    _, set_to = P.set_ap(P.ApPool(points=1), 5)
    assert (granted.op, granted.action, granted.cost, granted.after) == ("grant", None, 0, 3)
    assert (set_to.op, set_to.action, set_to.cost, set_to.after) == ("set", None, 0, 5)


def test_a_compound_check_of_unnamed_and_undeclared_stats() -> None:
    """PL-8: an unnamed stat shows as "?"; with no stat named there is no kind; the mode
    stays; a stat the system does not declare is a skill."""
    result = P.compound_check(src(10), [P.StatRef(None, 2), P.StatRef(None, 3)])
    assert (result.stats, result.mean_modifier) == ((None, None), 2)
    assert (result.result.stat, result.result.kind, result.result.mode, result.result.value) == (
        "?+?", None, "roll", 12)
    named = P.compound_check(src(10), [P.StatRef(None, 2), P.StatRef("Dance", 3)])
    assert (named.stats, named.result.stat, named.result.kind) == (
        (None, "Dance"), "?+Dance", "skill")


def test_a_specialised_stat_keeps_every_part_of_its_name() -> None:
    assert P.stat_label("知识：医学：外科") == "知識：医学：外科"


def test_a_parry_after_an_attack_is_refused_as_such_before_a_stuck_weapon() -> None:
    battle, _ = P.spend_bp(_duel(), "attack", cost=1)
    with pytest.raises(RuleError) as refused:
        P.declare_parry(P.update_combatant(battle, "Ann", stuck_in="Orc"), "Orc")
    assert refused.value.code == "plurk.parry_after_attack"


def test_only_the_current_actor_declares_a_parry() -> None:
    with pytest.raises(RuleError) as refused:
        P.declare_parry(_duel(), "Ann", actor="Orc")
    assert (refused.value.code, refused.value.params) == (
        "plurk.not_current_actor", {"actor": "Orc", "current": "Ann"})


def test_a_knock_out_the_gm_rules_unparried_is_not_parried() -> None:
    battle = P.update_combatant(P.declare_parry(_duel(), "Orc")[0], "Orc", human_like=True)
    _, event = P.knock_out(battle, src(19), "Ann", 6, kind="blunt", attacker="Orc", parry=False)
    assert (event.damage.parried, event.damage.parry_blocked) == (False, "ruled")
