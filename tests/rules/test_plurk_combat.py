"""Combat in the plurk rules (PL-13, PL-14, PL-15, PL-16, PL-18), the pure parts with
scripted dice: BP, parry, reach, impale and a group's surprise (first written for
issue 12, items 1, 3, 4 and 6)."""

from __future__ import annotations

import pytest

from rules.dice.source import ScriptedSource
from rules.errors import RuleError
from rules.systems import plurk_trpg as P
from rules.systems.plurk_trpg import damage as D
from rules.systems.plurk_trpg.opposed import group_surprise
from tests.support import strict_dice


def src(*dice: int) -> ScriptedSource:
    return strict_dice(dice)


def _battle() -> P.Battle:
    return P.start_battle(src(15, 10, 5), [
        P.Entrant("Ann", dex=4, hp=12, weapon_durability=3, position="A1"),
        P.Entrant("Orc", kind="enemy", dex=2, hp=8, human_like=True, position="C3"),
        P.Entrant("Ghoul", kind="enemy", dex=0, hp=8, position="B2"),
    ])


def code(run) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleError) as caught:
        run()
    return caught.value.code


def test_bp_max_drops_the_fraction_toward_zero() -> None:
    """PL-13: 靈巧 ÷ 2, 小數捨去 (toward zero), + 3, never below 0."""
    assert [P.bp_max_for(d) for d in (-9, -7, -4, -3, -2, -1, 0, 1, 3)] == [
        0, 0, 1, 2, 2, 3, 3, 3, 4]


def test_parry_needs_a_weapon_and_excludes_an_attack_in_the_same_round() -> None:
    """PL-16: no durability / broken weapon / a monster (when the bot asks) / after an
    attack: refused; after a parry an attack is refused; a new own turn frees both."""
    battle = _battle()
    no_weapon = P.update_combatant(battle, "Ann", weapon_durability=None)
    assert code(lambda: P.declare_parry(no_weapon, "Orc")) == "plurk.parry_no_weapon"
    assert code(lambda: P.declare_parry(battle, "Orc", durability=0)) == \
        "plurk.parry_weapon_broken"
    assert code(lambda: P.declare_parry(battle, "Ghoul", allow_monster=False)) == \
        "plurk.parry_monster"
    attacked, _ = P.spend_bp(battle, "attack")
    assert code(lambda: P.declare_parry(attacked, "Orc")) == "plurk.parry_after_attack"
    parried, event = P.declare_parry(battle, "Orc")
    assert (event.bp_before, event.bp_after) == (5, 4)
    assert code(lambda: P.spend_bp(parried, "攻擊")) == "plurk.attack_after_parry"
    later = parried
    for _ in range(3):
        later, _ = P.pass_turn(later)
    assert later.actor.name == "Ann" and not later.actor.attacked
    later, _ = P.spend_bp(later, "attack")  # the parry ended with the new turn
    assert later.actor.attacked


def test_a_blocked_parry_says_why() -> None:
    battle, _ = P.declare_parry(_battle(), "Orc")
    _, hit = P.apply_damage(battle, "Ann", 4, attacker="Orc", kind="bow")
    assert (hit.parried, hit.parry_blocked, hit.taken) == (False, "unparryable", 4)
    _, hit = P.apply_damage(battle, "Ann", 4, attacker="Orc", kind="edged", parry=False)
    assert hit.parry_blocked == "ruled"
    _, hit = P.apply_damage(battle, "Ann", 4, attacker="Ghoul", kind="edged")
    assert hit.parry_blocked is None and not hit.parried  # not the named enemy


def test_reach_is_chebyshev_for_melee_only() -> None:
    """PL-15/16: Ann A1, Ghoul B2 (1 cell), Orc C3 (2 cells)."""
    battle = _battle()
    assert D.check_reach(battle, "Ann", "Ghoul", "edged") == 1
    with pytest.raises(RuleError) as caught:
        D.check_reach(battle, "Ann", "Orc", None)
    assert caught.value.code == "plurk.out_of_reach"
    assert caught.value.params == {"attacker": "Ann", "target": "Orc", "start": "A1",
                                   "to": "C3", "cells": 2, "reach": 1}
    assert D.check_reach(battle, "Ann", "Orc", "martial", reach=2) == 2
    assert D.check_reach(battle, "Ann", "Orc", "bow") == 2
    unplaced = P.place(battle, "Orc", None)
    assert D.check_reach(unplaced, "Ann", "Orc", "edged") is None


def test_impale_follows_the_hit_check_and_the_weapon_stays() -> None:
    """PL-18: a crit hit with an impaling kind impales; a declared impale needs the
    crit; a miss never impales; no hit check = the GM's declaration."""
    crit = P.check(src(20), 3, stat="武器")
    hit = P.check(src(12), 3, stat="武器")
    miss = P.check(src(2), 3, stat="武器")
    assert D.impale_on_hit(crit, "edged", False) is True
    assert D.impale_on_hit(crit, "blunt", False) is False
    assert D.impale_on_hit(hit, "edged", False) is False
    assert D.impale_on_hit(miss, "edged", True) is False
    assert D.impale_on_hit(None, "edged", True) is True
    assert code(lambda: D.impale_on_hit(hit, "edged", True)) == "plurk.impale_needs_crit"
    assert code(lambda: D.impale_on_hit(None, "blunt", True)) == "plurk.impale_not_allowed"
    battle = D.lodge_weapon(_battle(), "Ann", "orc", "edged")
    assert battle.get("Ann").stuck_in == "Orc"
    assert code(lambda: D.check_weapon_free(battle, "Ann", "edged")) == "plurk.weapon_stuck"
    D.check_weapon_free(battle, "Ann", "bow")
    assert code(lambda: P.declare_parry(battle, "Orc")) == "plurk.weapon_stuck"
    assert D.retrieve_weapon(battle, "Ann").get("Ann").stuck_in is None
    assert code(lambda: D.retrieve_weapon(_battle(), "Ann")) == "plurk.weapon_not_stuck"
    assert D.lodge_weapon(_battle(), "Ann", "Orc", "bow").get("Ann").stuck_in is None


def test_group_surprise_uses_the_pairwise_surprise_check() -> None:
    """PL-14: the quietest-is-loudest sneaker (lowest 潛行) rolls against every
    watcher; all unseen = surprise; one draw spoils it. Dice: per watcher 潛行, 觀察."""
    sneakers = [P.OpposedSide("Orc", 3, "潛行"), P.OpposedSide("Rat", 1, "潛行")]
    watchers = [P.OpposedSide("Ann", 4, "觀察"), P.OpposedSide("Bob", 0, "觀察")]
    won = group_surprise(src(15, 5, 12, 3), sneakers, watchers)
    assert won.stealth.label == "Rat" and won.surprised
    assert [(c.opposed.a.value, c.opposed.b.value) for c in won.checks] == [(16, 9), (13, 3)]
    lost = group_surprise(src(15, 5, 6, 7), sneakers, watchers)
    assert [c.surprised for c in lost.checks] == [True, False] and not lost.surprised
    assert code(lambda: group_surprise(src(), [], watchers)) == "plurk.surprise_nobody"
