"""Unit tests of `plurk` that do not fit a case table: vocabulary, refusals,
JSON round trips, documentation of error codes, and a few properties."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from rules.dice.source import ScriptedSource, SeededSource
from rules.errors import RuleError
from rules.systems import plurk_trpg as P
from rules.systems.registry import get
from tests.support import strict_dice

ROOT = Path(__file__).resolve().parents[2]


def src(*dice: int) -> ScriptedSource:
    return strict_dice(dice)


def _battle() -> P.Battle:
    return P.start_battle(
        src(15, 10, 5),
        [
            P.Entrant("Ann", dex=4, con=2, hp=12, owner="u1", weapon_durability=3, position="A1"),
            P.Entrant("Orc", kind="enemy", dex=2, hp=8, armor=1, position="C3"),
            P.Entrant("Cat", kind="ally", dex=0, hp=6),
        ],
    )


# --------------------------------------------------------------------------- vocabulary


def test_registry_knows_plurk() -> None:
    assert get("plurk") is P.SYSTEM
    assert P.SYSTEM.id == "plurk"


@pytest.mark.parametrize(
    ("spelling", "name", "kind", "combat"),
    [
        ("灵巧", "靈巧", "attribute", False),
        ("dex", "靈巧", "attribute", False),
        ("体质", "體質", "attribute", False),
        ("STR", "力量", "attribute", False),
        ("观察", "觀察", "skill", False),
        ("Stealth", "潛行", "skill", False),
        ("槍砲", "槍炮", "skill", True),
        ("普通攻击", "普通攻擊", "skill", True),
        ("武术", "武術", "skill", True),
        ("投掷", "投擲", "skill", True),
        ("HP", "體力", "resource", False),
        ("san", "理智", "resource", False),
        ("因果点数", "因果點數", "resource", False),
    ],
)
def test_stat_aliases(spelling: str, name: str, kind: str, combat: bool) -> None:
    stat = P.SYSTEM.stat(spelling)
    assert stat is not None
    assert (stat.name, stat.kind, stat.combat) == (name, kind, combat)


def test_every_combat_skill_of_the_seed_is_marked() -> None:
    for name in ("普通攻擊", "武器", "擒拿", "武術", "弓術", "槍炮", "投擲"):
        assert P.is_combat_skill(name), name
    assert not P.is_combat_skill("觀察")
    assert not P.is_combat_skill(None)


def test_aliases_are_unambiguous() -> None:
    seen: dict[str, str] = {}
    for stat in P.SYSTEM.stats:
        for spelling in (stat.name, *stat.aliases):
            key = spelling.casefold()
            assert seen.setdefault(key, stat.name) == stat.name, spelling


# --------------------------------------------------------------------------- checks


@settings(max_examples=200, deadline=None)
@given(
    raw=st.integers(1, 20),
    modifier=st.integers(-10, 15),
    bonus=st.integers(-5, 5),
    threshold=st.integers(1, 40),
)
def test_check_arithmetic(raw: int, modifier: int, bonus: int, threshold: int) -> None:
    result = P.check(src(raw), modifier, bonus=bonus, threshold=threshold)
    assert result.value == raw + modifier + bonus
    assert result.success == (result.value >= threshold)
    assert result.crit == (raw == 20)
    assert result.fumble == (raw == 1)


def test_secret_notice_carries_no_numbers() -> None:
    result = P.check(src(17), 4, stat="心理學")
    notice = P.secret_notice(result, "Ann")
    assert set(P.SecretNotice.__dataclass_fields__) == {"investigator", "stat"}
    assert (notice.investigator, notice.stat) == ("Ann", "心理學")


def test_scripted_die_out_of_range_is_not_clamped() -> None:
    with pytest.raises(RuleError) as caught:
        P.check(src(21))
    assert caught.value.code == "dice.script_out_of_range"


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(1, 20), min_size=2, max_size=40), st.integers(-3, 3))
def test_zero_sum_never_draws(dice: list[int], modifier: int) -> None:
    source = ScriptedSource(dice, fallback=SeededSource(1))
    result = P.opposed(source, P.OpposedSide("a", modifier), P.OpposedSide("b", 0), mode="zero_sum")
    assert result.winner in ("a", "b")


def test_negative_san_refused() -> None:
    with pytest.raises(RuleError) as caught:
        P.sanity_check(src(), -1, "1/1d6")
    assert caught.value.code == "plurk.negative_amount"


def test_award_cp() -> None:
    assert P.award_cp(3, 4) == 7
    assert P.award_cp(3, -3) == 0
    with pytest.raises(RuleError) as caught:
        P.award_cp(3, -4)
    assert caught.value.code == "plurk.cp_negative"


def test_ap_pool_defaults_and_a_new_cost() -> None:
    pool = P.ApPool()
    assert pool.costs == {"observe": 1, "interview": 1, "move": 2, "item": 1}
    pool = P.set_ap_cost(P.ApPool(points=3), "開鎖", 2)
    pool, event = P.spend_ap(pool, "開鎖")
    assert (event.action, event.cost, pool.points) == ("開鎖", 2, 1)


def test_ap_negative_cost_refused() -> None:
    with pytest.raises(RuleError) as caught:
        P.spend_ap(P.ApPool(points=3), "observe", cost=-1)
    assert caught.value.code == "plurk.negative_amount"


# --------------------------------------------------------------------------- battle


def test_battle_json_round_trip_is_plain() -> None:
    battle = _battle()
    battle, _ = P.declare_parry(battle, "Orc", durability=5)
    battle, _ = P.knock_out(battle, src(2, 1, 1, 1), "Cat", 4, kind="unarmed")
    stored = TypeAdapter(P.Battle)
    data = stored.dump_python(battle, mode="json")
    text = json.dumps(data)

    def plain(value: object) -> bool:
        if isinstance(value, dict):
            return all(isinstance(k, str) and plain(v) for k, v in value.items())
        if isinstance(value, list):
            return all(plain(v) for v in value)
        return value is None or isinstance(value, bool | int | str)

    assert plain(data)
    again = stored.validate_json(text)
    assert again == battle
    assert stored.dump_python(again, mode="json") == data
    assert again.get("Cat").unconscious == 3
    assert again.get("Ann").parry_against == "Orc"


def test_battle_basics() -> None:
    battle = _battle()
    assert battle.order == ("Ann", "Orc", "Cat")
    assert battle.actor.name == "Ann"
    assert battle.find("orc") is not None
    assert battle.find("nobody") is None
    assert battle.bp_cost("招架") == ("parry", 1)
    assert battle.occupant("c3") is not None
    assert P.board_grid(battle)[2][2] == "Orc"
    lines = P.render_board(battle, markers={"Ann": "1", "Orc": "x"}, empty="_")
    assert lines[1] == " 1 1 _ _ _ _ _ _ _"
    assert lines[3] == " 3 _ _ x _ _ _ _ _"


def test_bp_max_formula() -> None:
    assert [P.bp_max_for(d) for d in (0, 1, 2, 5, 9)] == [3, 3, 4, 5, 7]


def test_initiative_tie_reroll_is_bounded() -> None:
    with pytest.raises(RuleError) as caught:
        P.start_battle(
            src(10, 10, 3, 3, 4, 4),
            [P.Entrant("A"), P.Entrant("B")],
            max_rerolls=2,
        )
    assert caught.value.code == "plurk.reroll_limit"


def test_add_needs_initiative_or_dice() -> None:
    with pytest.raises(RuleError) as caught:
        P.add_combatant(_battle(), P.Entrant("Rat", kind="enemy"))
    assert caught.value.code == "plurk.initiative_needed"


def test_add_respects_the_surprising_side() -> None:
    battle = P.start_battle(
        src(2, 15), [P.Entrant("Orc", kind="enemy"), P.Entrant("Ann")], first_side="enemy"
    )
    assert battle.order == ("Orc", "Ann")
    battle = P.add_combatant(battle, P.Entrant("Rat", kind="enemy"), initiative=1)
    battle = P.add_combatant(battle, P.Entrant("Bob"), initiative=30)
    assert battle.order == ("Orc", "Rat", "Bob", "Ann")
    assert battle.actor.name == "Orc"


def test_removing_a_parried_enemy_clears_the_declaration() -> None:
    battle, _ = P.declare_parry(_battle(), "Orc")
    battle, event = P.remove_combatant(battle, "Orc")
    assert event is None
    assert battle.get("Ann").parry_against is None


def test_update_caps_bp_and_refuses_negatives() -> None:
    battle = P.update_combatant(_battle(), "Ann", bp_max=2)
    assert (battle.get("Ann").bp, battle.get("Ann").bp_max) == (2, 2)
    with pytest.raises(RuleError) as caught:
        P.update_combatant(battle, "Ann", armor=-1)
    assert caught.value.code == "plurk.negative_amount"
    with pytest.raises(RuleError) as caught:
        P.update_combatant(battle, "Ann", kind="boss")
    assert caught.value.code == "plurk.bad_combatant_kind"


def test_unconscious_actor_cannot_parry() -> None:
    battle, _ = P.declare_parry(_battle(), "Orc")
    battle = P.update_combatant(battle, "Ann", unconscious=2)
    battle, hit = P.apply_damage(battle, "Ann", 3, attacker="Orc", kind="unarmed")
    assert not hit.parried
    assert hit.taken == 3


@pytest.mark.parametrize(
    ("kind", "human_like", "expected"),
    [
        ("unarmed", False, True),
        ("thrown_edged", True, True),
        ("bow", True, False),
        ("gun", True, False),
        ("heavy_gun", True, False),
        ("other", True, False),
        (None, True, True),
        (None, False, False),
    ],
)
def test_can_parry(kind: str | None, human_like: bool, expected: bool) -> None:
    assert P.can_parry(kind, human_like) is expected


def test_everyone_down_keeps_the_turn_somewhere() -> None:
    battle = _battle()
    for name in ("Orc", "Cat"):
        battle = P.update_combatant(battle, name, hp=0)
    battle, event = P.pass_turn(battle)
    assert event.current == "Ann"
    assert event.skipped == ("Orc", "Cat")
    assert event.new_round and event.round == 1


def test_refusals_leave_state_untouched() -> None:
    battle = _battle()
    for attempt in (
        lambda: P.spend_bp(battle, "attack", count=3),
        lambda: P.move(battle, "C3"),
        lambda: P.apply_damage(battle, "Orc", 3, attacker="Nobody"),
        lambda: P.set_field(battle, 0, 8),
    ):
        with pytest.raises(RuleError):
            attempt()
    assert battle == _battle()


# --------------------------------------------------------------------------- docs


def test_every_error_code_is_documented() -> None:
    package = ROOT / "rules" / "systems" / "plurk_trpg"
    source = "\n".join(p.read_text(encoding="utf-8") for p in sorted(package.glob("*.py")))
    docs = (ROOT / "docs" / "systems" / "plurk.md").read_text(encoding="utf-8")
    codes = set(re.findall(r'"(plurk\.[a-z_]+)"', source))
    assert codes, "no codes found"
    missing = sorted(code for code in codes if f"`{code}`" not in docs)
    assert not missing, missing


def test_start_costs_merge_with_defaults() -> None:
    battle = P.start_battle(src(5), [P.Entrant("Ann")], costs={"攻擊": 3, "吟唱": 4})
    assert battle.costs == {
        "move": 1,
        "attack": 3,
        "skill": 2,
        "item": 1,
        "parry": 1,
        "吟唱": 4,
    }


def test_pl5_san_loss_over_the_dice_limit_names_the_limit() -> None:
    """PL-5: `1/1000d1000` is written correctly but rolls too many dice — the refusal
    must say so (dice_limit), not that the format is wrong (bad_san_loss)."""
    with pytest.raises(RuleError) as caught:
        P.parse_san_loss("1/1000d1000")
    assert (caught.value.code, caught.value.params) == ("plurk.dice_limit", {
        "expr": "1000d1000", "max_dice": P.DICE_MAX_COUNT, "max_faces": P.DICE_MAX_FACES})
    with pytest.raises(RuleError) as bad:
        P.parse_san_loss("1/1x6")
    assert bad.value.code == "plurk.bad_san_loss"


# ------------------------------------------------ what plurk relies on: rules.dice, rules.kits


def test_the_package_exports_what_the_old_module_did() -> None:
    assert len(P.__all__) == len(set(P.__all__)) == 121  # + life_of, require_target, pass_fallen
    assert all(hasattr(P, name) for name in P.__all__)
    from rules.dice import FlatTerm

    assert P.DiceTerm is FlatTerm


def test_registry_discovers_every_system_package() -> None:
    from rules.systems import registry

    assert registry.discover() == registry.SYSTEMS
    assert registry.SYSTEMS["plurk"] is P.SYSTEM
