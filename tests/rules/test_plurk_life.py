"""Issue 24 in the plurk rules: life states on the encounter kit (down, dead), who may
act, attacks on the fallen, and HP within 0 … the HP a combatant entered with."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.errors import RuleError
from rules.kits.encounter import Life
from rules.systems import plurk_trpg as P
from tests.support import strict_dice


def _battle() -> P.Battle:
    """Ann (investigator), Orc (human-like enemy), Ghoul (monster): Ann acts first."""
    return P.start_battle(strict_dice([15, 10, 5]), [
        P.Entrant("Ann", dex=4, hp=12, weapon_durability=3, position="A1", owner="p1"),
        P.Entrant("Orc", kind="enemy", dex=2, hp=8, human_like=True, position="C3"),
        P.Entrant("Ghoul", kind="enemy", dex=0, hp=8, position="B2"),
    ])


def refusal(run) -> tuple[str, dict[str, object]]:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleError) as caught:
        run()
    return caught.value.code, caught.value.params


def test_life_maps_knock_out_and_zero_hp_to_down_and_the_mark_to_dead() -> None:
    ann = _battle().get("Ann")
    assert P.life_of(ann) is Life.ACTIVE
    assert P.life_of(P.Combatant("x", hp=0)) is Life.DOWN
    assert P.life_of(P.Combatant("x", hp=1, unconscious=2)) is Life.DOWN
    assert P.life_of(P.Combatant("x", hp=5, dead=True)) is Life.DEAD
    assert P.life_of(P.Combatant("x", hp=None)) is Life.ACTIVE  # HP unknown: stands


def test_a_fallen_actor_cannot_spend_move_or_parry_but_its_turn_can_pass() -> None:
    down = P.update_combatant(_battle(), "Ann", hp=0)
    for run in (lambda: P.spend_bp(down, "attack"), lambda: P.move(down, "A2"),
                lambda: P.declare_parry(down, "Orc")):
        assert refusal(run) == ("encounter.down", {"name": "Ann"})
    dead = P.update_combatant(_battle(), "Ann", dead=True)
    assert refusal(lambda: P.spend_bp(dead, "move")) == ("encounter.dead", {"name": "Ann"})
    after, event = P.pass_turn(down)
    assert after.actor.name == "Orc" and event.skipped == ()


def test_the_turn_passes_over_the_dead_and_the_down_and_counts_a_knock_out_off() -> None:
    battle = P.update_combatant(_battle(), "Orc", dead=True)
    battle = P.update_combatant(battle, "Ghoul", unconscious=2)
    battle, event = P.pass_turn(battle)
    assert event.skipped == ("Orc", "Ghoul") and event.new_round
    assert battle.actor.name == "Ann"
    assert battle.get("Ghoul").unconscious == 1 and battle.get("Orc").dead


def test_death_ends_a_knock_out_and_a_parry() -> None:
    start = _battle()
    parrying = replace(start.get("Orc"), unconscious=5, parry_against="Ann")
    battle = replace(start, combatants=(start.get("Ann"), parrying, start.get("Ghoul")))
    dead = P.update_combatant(battle, "Orc", dead=True).get("Orc")
    assert (dead.unconscious, dead.parry_against, dead.life) == (0, None, Life.DEAD)


def test_a_fallen_enemy_dies_of_the_next_blow_that_hurts_it() -> None:
    battle, first = P.apply_damage(_battle(), "Ghoul", 8)
    assert (first.hp_after, first.killed, battle.get("Ghoul").life) == (0, False, Life.DOWN)
    battle, grazed = P.apply_damage(battle, "Ghoul", 0)
    assert not grazed.killed and battle.get("Ghoul").life is Life.DOWN  # no hurt, no kill
    battle, second = P.apply_damage(battle, "Ghoul", 1)
    assert second.killed and battle.get("Ghoul").life is Life.DEAD
    assert refusal(lambda: P.apply_damage(battle, "Ghoul", 3)) == \
        ("plurk.target_dead", {"name": "Ghoul"})  # about the target, not the one acting
    assert refusal(lambda: P.wake(battle, "Ghoul")) == ("encounter.dead", {"name": "Ghoul"})


def test_an_investigator_at_zero_is_down_not_dead_its_fatal_event_decides() -> None:
    battle, _ = P.apply_damage(_battle(), "Ann", 12)
    battle, again = P.apply_damage(battle, "Ann", 3)
    assert not again.killed and battle.get("Ann").life is Life.DOWN


def test_hp_stays_within_zero_and_the_hp_it_entered_with() -> None:
    battle = _battle()
    assert battle.get("Orc").hp_max == 8
    assert P.update_combatant(battle, "Orc", hp=8).get("Orc").hp == 8  # at the maximum
    assert P.update_combatant(battle, "Orc", hp=9).get("Orc").hp == 8  # one past it
    assert P.update_combatant(battle, "Orc", hp=-1).get("Orc").hp == 0  # below the floor
    lowered = P.update_combatant(battle, "Orc", hp_max=5).get("Orc")
    assert (lowered.hp, lowered.hp_max) == (5, 5)  # a lower maximum lowers the HP
    unknown = P.update_combatant(battle, "Orc", hp_max=None, hp=30).get("Orc")
    assert unknown.hp == 30  # a battle stored before issue 24 knows no maximum


def test_a_knock_out_on_the_unconscious_rolls_no_check_and_keeps_its_turns() -> None:
    """Issue 24 (decided, docs/decisions.md): the unconscious cannot resist — no 體質
    check, no new 3D6, it stays out for the turns it still had; the blow deals 1."""
    start = _battle()
    out = replace(start.get("Orc"), unconscious=4)
    battle = replace(start, combatants=(start.get("Ann"), out, start.get("Ghoul")))
    battle, event = P.knock_out(battle, strict_dice([]), "Orc", 6, kind="unarmed")
    assert event.knock_out == P.KnockOutResult(6, 8, True, None, True, (), 0, 1, already=True)
    assert (battle.get("Orc").unconscious, battle.get("Orc").hp) == (4, 7)


def test_an_actor_who_falls_on_its_own_turn_passes_it_named_as_passed_over() -> None:
    battle = P.update_combatant(_battle(), "Ann", dead=True)  # Ann's turn
    battle, event = P.pass_fallen(battle)
    assert event is not None and (event.reason, event.current, event.skipped) == \
        ("fallen", "Orc", ("Ann",))
    assert P.pass_fallen(battle) == (battle, None)  # Orc stands: nothing to pass


def test_a_failed_knock_out_leaves_the_target_standing_and_its_parry_declared() -> None:
    """PL-17: 2 is under half of 8 HP — no knock-out, a third of it (1) is dealt; a parry
    declared against someone else (no attacker named here) is not ended."""
    start = _battle()
    parrying = replace(start.get("Orc"), parry_against="Ann")
    battle = replace(start, combatants=(start.get("Ann"), parrying, start.get("Ghoul")))
    battle, event = P.knock_out(battle, strict_dice([]), "Orc", 2, kind="unarmed")
    assert (event.knock_out.knocked_out, event.damage.taken) == (False, 1)
    orc = battle.get("Orc")
    assert (orc.hp, orc.unconscious, orc.parry_against, orc.life) == (7, 0, "Ann", Life.ACTIVE)


def test_a_knocked_out_enemy_at_zero_killed_by_a_blow_is_dead_not_still_unconscious() -> None:
    battle = P.update_combatant(_battle(), "Orc", hp=0, unconscious=3)
    battle, hit = P.apply_damage(battle, "Orc", 2)
    orc = battle.get("Orc")
    assert (hit.killed, orc.dead, orc.unconscious, orc.life) == (True, True, 0, Life.DEAD)


def test_a_fallen_at_zero_hp_passed_over_keeps_no_knock_out_count() -> None:
    """Decision 12: only the knocked out lose a turn off their count; a combatant down
    at 0 HP has none to lose (it stays 0, its parry stays)."""
    start = _battle()
    down = replace(start.get("Orc"), hp=0, parry_against="Ann")
    battle = replace(start, combatants=(start.get("Ann"), down, start.get("Ghoul")))
    battle, event = P.pass_turn(battle)
    assert (event.skipped, battle.actor.name) == (("Orc",), "Ghoul")
    orc = battle.get("Orc")
    assert (orc.unconscious, orc.parry_against, orc.life) == (0, "Ann", Life.DOWN)


def test_nobody_standing_passes_no_turn() -> None:
    battle = P.update_combatant(_battle(), "Ann", hp=0)
    battle = P.update_combatant(battle, "Orc", dead=True)
    battle = P.update_combatant(battle, "Ghoul", unconscious=2)
    assert P.pass_fallen(battle) == (battle, None)  # the turn would only come back
