"""What ace's case tables (tests/rules/data/ace) cannot say: a fight's size limit, a
fight's state after a turn, a death or the last fighter leaving, direct Fighter reads."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.errors import RuleError
from rules.systems.ace import fight


def test_forty_fighters_fill_a_fight() -> None:
    full = fight.Fight(tuple(fight.Member(f"F{n}") for n in range(40)))
    with pytest.raises(RuleError) as refused:
        fight.check_join(full, "F40")
    assert (refused.value.code, refused.value.params) == ("ace.too_many_fighters", {"max": 40})
    fight.check_join(fight.Fight(full.members[:39]), "F40")


def test_the_dead_hold_nobody_and_lose_their_helpless_state() -> None:
    from rules.systems.ace.grapple import Hold
    start = fight.set_condition(fight.Fight(holds=(Hold("鮑伯", "狼人", "pinned"),
                                                   Hold("狼人", "艾莉絲"),
                                                   Hold("卡蘿", "蝙蝠"))), "狼人", "asleep")
    after = fight.fallen_dead(start, "狼人")
    assert after.holds == (Hold("卡蘿", "蝙蝠"),)
    assert after.posture("狼人").condition is None
    assert fight.fallen_dead(after, "狼人") == after  # nothing left to end


def test_a_dead_fighter_without_a_posture_gets_none_recorded() -> None:
    """Nothing to end for a fighter with no stored posture: no default posture is stored."""
    from rules.systems.ace.grapple import Hold
    start = fight.Fight(holds=(Hold("鮑伯", "狼人"),))
    assert fight.fallen_dead(start, "狼人") == fight.Fight()


def test_the_last_fighter_leaving_leaves_a_fresh_fight() -> None:
    running = fight.start(fight.set_cover(fight.Fight((fight.Member("鮑伯"),)), "鮑伯", "light"))
    assert fight.remove(running, "鮑伯") == fight.Fight()


def test_a_fighter_that_acted_may_declare_a_full_attack_at_its_next_turn() -> None:
    """Decision 5 / AE-10: having acted ends with the turn; the next one starts fresh."""
    members = (fight.Member("鮑伯", initiative=15), fight.Member("狼人", initiative=10))
    running = fight.start(fight.set_cover(fight.Fight(members), "鮑伯", "light"))
    assert fight.set_stance(running, "鮑伯", "full_attack").posture("鮑伯").stance \
        == "full_attack"
    acted = fight.mark_acted(running, "鮑伯")
    with pytest.raises(RuleError) as refused:
        fight.set_stance(acted, "鮑伯", "full_attack")
    assert refused.value.code == "ace.stance_after_action"
    back, _ = fight.next_turn(fight.next_turn(acted)[0])
    assert (back.round, back.actor) == (2, members[0])
    assert back.posture("鮑伯") == fight.Posture(cover="light")
    assert fight.set_stance(back, "鮑伯", "full_attack").posture("鮑伯") \
        == fight.Posture(stance="full_attack", cover="light")


def test_no_energy_no_resistance_and_an_unknown_cover_no_penalty() -> None:
    """AE-11: resistance is per energy (none named: 0); AE-10's cover table, else 0."""
    from rules.systems.ace import combat
    fighter = combat.Fighter("鮑伯", resist=(("火", 5),), cover="behind a cart")
    assert (fighter.resistance(None), fighter.resistance("火"), fighter.resistance("冰")) \
        == (0, 5, 0)
    assert combat.cover_penalty(fighter) == 0
    assert combat.cover_penalty(replace(fighter, cover="partial")) == 4
