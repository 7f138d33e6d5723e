"""The stored documents of `plurk` (issue 23): what the old code stored (schema 1, pasted
below as its ``to_dict`` and its handlers wrote it) reads as the same typed value,
through the declarations and through a real Core; a damaged document is refused,
changing nothing."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import pytest
from sqlalchemy import insert, select

from bot import systems
from bot.core import Core
from bot.systems.plurk_trpg.commands.points import ap_data
from bot.systems.plurk_trpg.documents import (
    ACTION_POINTS,
    BATTLE,
    BATTLE_SETUP,
    CONSENT,
    FATAL_EVENTS,
    LAST_CHECKS,
    Allowed,
    CheckRecord,
    CheckRequest,
    Consent,
    FatalEvent,
    FatalEvents,
    FateCall,
    FateRoll,
    LastChecks,
    Setup,
    StoredBattle,
)
from rules.errors import RuleError
from rules.systems import plurk_trpg as plurk
from rules.systems.plurk_trpg import Battle, Combatant
from tests.orm import Channel, ChannelState
from tests.support import Table, strict_dice

WHERE = "console:table"

# --------------------------------------------------------------------------- schema 1
# As the code before issue 23 (commit 5fafb16) stored them, captured from a session:
# ApPool.to_dict(), Battle.to_dict() with the bot's keys, CheckResult.to_dict() inside
# the handlers' literal records.

OLD_AP: dict[str, Any] = {"points": 4, "costs": {
    "observe": 1, "interview": 1, "move": 2, "item": 1, "開鎖": 2}}
OLD_CONSENT: dict[str, Any] = {
    "allow": {"take10": False, "take20": True, "push": False},
    "requests": {"carol": {"args": "觀察 取10 開門", "mode": "take10", "hidden": False,
                           "character": "卡蘿", "character_id": 3, "name": "carol"}}}
CRIT = {"raw": 20, "modifier": 4, "bonus": 0, "value": 24, "threshold": 11, "success": True,
        "crit": True, "fumble": False, "stat": "觀察", "kind": "skill", "combat": False,
        "mode": "roll"}
FAILED = {"raw": 5, "modifier": 2, "bonus": 0, "value": 7, "threshold": 11, "success": False,
          "crit": False, "fumble": False, "stat": "觀察", "kind": "skill", "combat": False,
          "mode": "roll"}
OLD_CHECKS: dict[str, Any] = {"last": {
    "alice": {"character": "艾莉絲", "character_id": 1, "check": CRIT, "hidden": False,
              "fate": {"threshold": 11, "called_by": "keeper", "result": {
                  "raw": 15, "success": True, "certain": "success", "final_success": True}},
              "reason": "開門", "told": []},
    "bob": {"character": "鮑伯", "character_id": 2, "check": FAILED, "hidden": True,
            "fate": None, "reason": None, "told": ["keeper"], "push_request": True}}}
OLD_PUSHED: dict[str, Any] = {
    "character": "鮑伯", "character_id": 2, "check": {**FAILED, "raw": 4, "value": 6,
                                                     "fumble": True, "mode": "push"},
    "hidden": False, "fate": None, "reason": None, "told": [], "pushed": True,
    "push_request": False, "push_allowed": False}
OLD_USED_HIT: dict[str, Any] = {
    "character": "艾莉絲", "character_id": 1, "check": {
        "raw": 15, "modifier": 2, "bonus": 0, "value": 17, "threshold": 11, "success": True,
        "crit": False, "fumble": False, "stat": "武器", "kind": "skill", "combat": True,
        "mode": "roll"},
    "hidden": False, "fate": None, "reason": None, "told": [], "attack_used": True}
OLD_FATAL: dict[str, Any] = {"events": [
    {"id": 1, "owner": "bob", "character": "鮑伯", "character_id": 2, "resource": "體力",
     "loss": 9, "before": 3, "after": 0, "sheet": 3, "source": "hp", "details": {}}],
    "next": 2, "cost": 6}
HIT = {"target": "鮑伯", "attacker": "食屍鬼", "raw": 5, "damage_type": "physical",
       "kind": "unarmed", "parried": False, "absorbed": 0, "durability_before": None,
       "durability_after": None, "weapon_broken": False, "armor": 0, "penetration": 0,
       "effective_armor": 0, "taken": 5, "hp_before": 3, "hp_after": 0, "fatal": True,
       "parry_blocked": None}
OLD_BATTLE_FATAL: dict[str, Any] = {
    "id": 1, "owner": "bob", "character": "鮑伯", "character_id": 2, "resource": "體力",
    "loss": 5, "before": 3, "after": 0, "sheet": 3, "source": "battle",
    "details": {"serial": 1, "combatant": "鮑伯", "hit": HIT}}


def _fighter(name: str, kind: str, owner: str | None, dex: int, con: int, bp: int, hp: int,
             armor: int, human_like: bool, position: str | None, durability: int | None,
             initiative: int, roll: int) -> dict[str, Any]:
    return {"name": name, "kind": kind, "owner": owner, "dex": dex, "con": con, "bp_max": bp,
            "bp": bp, "hp": hp, "armor": armor, "human_like": human_like,
            "position": position, "parry_against": None, "weapon_durability": durability,
            "unconscious": 0, "initiative": initiative, "initiative_rolls": [roll],
            "attacked": False, "stuck_in": None}


OLD_BATTLE_OF_RULES: dict[str, Any] = {
    "version": 1,
    "combatants": [
        _fighter("艾莉絲", "investigator", "alice", 5, 3, 5, 12, 0, True, "A1", 4, 15, 10),
        _fighter("卡蘿", "investigator", "carol", 3, 2, 4, 8, 0, True, None, None, 8, 5),
        _fighter("食屍鬼", "enemy", None, 3, 0, 4, 15, 2, False, "B1", None, 6, 3),
        _fighter("暴徒", "enemy", None, 1, 1, 3, 9, 0, True, "B2", None, 3, 2)],
    "round": 0, "current": 0,
    "costs": {"move": 1, "attack": 3, "skill": 2, "item": 1, "parry": 1},
    "width": 10, "height": 10, "first_side": None, "ended": False}
OLD_BATTLE: dict[str, Any] = {
    **OLD_BATTLE_OF_RULES, "serial": 1, "sheets": {"艾莉絲": 1, "卡蘿": 3},
    "weapons": {"艾莉絲": "武器耐久"},
    "marks": {"艾莉絲": "a", "卡蘿": "b", "食屍鬼": "c", "暴徒": "d"}}
# Captured by running the code of commit 6853faa (Battle.to_dict() with the bot's keys,
# read from channel_state) after: enemies Ghoul (C3), Thug (C4, human), the ally Dog (A2);
# `.battle start first=party`; Ann and Bob placed; Bob knocks Thug out; Ann parries Thug
# with the sheet's 短刀耐久; Dog moves; Ghoul hits Ann; round 1: Bob impales Ghoul.
OLD_MID_BATTLE: dict[str, Any] = {"version": 1, "combatants": [{"name": "Bob", "kind": "investigator", "owner": "p2", "dex": 2, "con": 1, "bp_max": 4, "bp": 2, "hp": 10, "armor": 0, "human_like": True, "position": "B3", "parry_against": None, "weapon_durability": None, "unconscious": 0, "initiative": 15, "initiative_rolls": [13, 9], "attacked": True, "stuck_in": "Ghoul"}, {"name": "Ann", "kind": "investigator", "owner": "p1", "dex": 5, "con": 3, "bp_max": 5, "bp": 5, "hp": 9, "armor": 0, "human_like": True, "position": "B2", "parry_against": "Thug", "weapon_durability": 6, "unconscious": 0, "initiative": 15, "initiative_rolls": [10, 2], "attacked": False, "stuck_in": None}, {"name": "Dog", "kind": "ally", "owner": None, "dex": 4, "con": 0, "bp_max": 5, "bp": 5, "hp": 6, "armor": 0, "human_like": True, "position": "A2", "parry_against": None, "weapon_durability": None, "unconscious": 0, "initiative": 11, "initiative_rolls": [7], "attacked": False, "stuck_in": None}, {"name": "Ghoul", "kind": "enemy", "owner": None, "dex": 3, "con": 0, "bp_max": 4, "bp": 4, "hp": 7, "armor": 2, "human_like": False, "position": "C3", "parry_against": None, "weapon_durability": None, "unconscious": 0, "initiative": 15, "initiative_rolls": [12], "attacked": True, "stuck_in": None}, {"name": "Thug", "kind": "enemy", "owner": None, "dex": 1, "con": 1, "bp_max": 3, "bp": 3, "hp": 8, "armor": 0, "human_like": True, "position": "C4", "parry_against": None, "weapon_durability": None, "unconscious": 8, "initiative": 5, "initiative_rolls": [4], "attacked": False, "stuck_in": None}], "round": 1, "current": 0, "costs": {"move": 1, "attack": 2, "skill": 2, "item": 1, "parry": 1}, "width": 8, "height": 8, "first_side": "party", "ended": False, "serial": 1, "sheets": {"Ann": 1, "Bob": 2}, "weapons": {"Ann": "短刀耐久"}, "marks": {"Bob": "b", "Ann": "a", "Dog": "d", "Ghoul": "g", "Thug": "t"}}  # noqa: E501
OLD_MID_BATTLE_SHOWN = "\n".join([  # `.battle` of that code at that point
    "▶ 第 1 輪，輪到 Bob（BP 2/4）",
    "▶1. Bob 先攻 15｜BP 2/4｜體力 10｜位置 B3｜武器卡在 Ghoul",
    "　2. Ann 先攻 15｜BP 5/5｜體力 9｜位置 B2｜招架→Thug（耐久 6）",
    "　3. Dog 先攻 11｜BP 5/5｜體力 6｜位置 A2｜友",
    "　4. Ghoul 先攻 15｜BP 4/4｜體力 7｜位置 C3｜敵",
    "　5. Thug 先攻 5｜BP 3/3｜體力 8｜位置 C4｜昏迷（還要跳過 8 次）｜敵"])
OLD_SETUP: dict[str, Any] = {
    "party": ["alice", "carol"],
    "enemies": [{"name": "食屍鬼", "kind": "enemy", "dex": 3, "hp": 15, "armor": 2,
                 "perception": 2},
                {"name": "暴徒", "kind": "enemy", "dex": 1, "con": 1, "hp": 9,
                 "human_like": True, "position": "B2"}],
    "costs": {"move": 1, "attack": 3, "skill": 2, "item": 1, "parry": 1},
    "width": 10, "height": 10, "serial": 1}


# --------------------------------------------------------------------------- the declarations


def test_the_ap_pool_reads_and_is_stored_as_before() -> None:
    pool = ACTION_POINTS.read(OLD_AP, 1, WHERE)
    assert pool == plurk.ApPool(4, OLD_AP["costs"])
    assert ACTION_POINTS.dump(pool) == OLD_AP
    assert ACTION_POINTS.read({"points": 2}, 1, WHERE).costs == plurk.AP_DEFAULT_COSTS


def test_the_consent_reads_as_before() -> None:
    consent = CONSENT.read(OLD_CONSENT, 1, WHERE)
    assert consent == Consent(Allowed(take20=True), {"carol": CheckRequest(
        args="觀察 取10 開門", mode="take10", character="卡蘿", character_id=3,
        name="carol")})
    assert CONSENT.dump(consent) == OLD_CONSENT


def test_the_last_checks_read_as_the_same_records() -> None:
    checks = LAST_CHECKS.read(OLD_CHECKS, 1, WHERE)
    assert checks == LastChecks({
        "alice": CheckRecord(
            character="艾莉絲", character_id=1, check=plurk.CheckResult(**CRIT),
            fate=FateCall(11, "keeper", FateRoll(15, True, "success", True)), reason="開門"),
        "bob": CheckRecord(character="鮑伯", character_id=2,
                           check=plurk.CheckResult(**FAILED), hidden=True, told=["keeper"],
                           push_request=True)})
    pushed = LAST_CHECKS.read({"last": {"bob": OLD_PUSHED}}, 1, WHERE).last["bob"]
    assert (pushed.pushed, pushed.check.mode, pushed.check.fumble) == (True, "push", True)
    used = LAST_CHECKS.read({"last": {"alice": OLD_USED_HIT}}, 1, WHERE).last["alice"]
    assert (used.attack_used, used.check.combat) == (True, True)
    # what is stored back holds every old key with its old value
    again = LAST_CHECKS.dump(checks)["last"]
    for owner, old in OLD_CHECKS["last"].items():
        assert again[owner] | old == again[owner]


def test_a_stored_check_keeps_its_refusals() -> None:
    """A combat check kept as a last check is still no skill to push (PL-10)."""
    record = {**OLD_USED_HIT, "attack_used": False}
    stored = LAST_CHECKS.read({"last": {"alice": record}}, 1, WHERE).last["alice"]
    with pytest.raises(RuleError) as caught:
        plurk.push(stored.check, strict_dice())
    assert caught.value.code == "plurk.push_combat"


def test_the_fatal_events_read_as_before() -> None:
    events = FATAL_EVENTS.read(OLD_FATAL, 1, WHERE)
    assert events == FatalEvents([FatalEvent(
        id=1, owner="bob", character="鮑伯", character_id=2, resource="體力", loss=9,
        before=3, after=0, sheet=3, source="hp")], next=2, cost=6)
    assert FATAL_EVENTS.dump(events) == OLD_FATAL
    battle = FATAL_EVENTS.read({"events": [OLD_BATTLE_FATAL], "next": 2, "cost": 5}, 1, WHERE)
    assert battle.events[0].details == OLD_BATTLE_FATAL["details"]
    assert FATAL_EVENTS.read({"events": [OLD_BATTLE_FATAL]}, 1, WHERE).cost == 5


def _unversioned(data: dict[str, Any]) -> dict[str, Any]:
    """What is stored now: the old object without the rules' ``version: 1``, each
    combatant with the two fields issue 24 added (an old battle knows no maximum HP)."""
    return {k: v for k, v in _with_life(data).items() if k != "version"}


def _with_life(data: dict[str, Any]) -> dict[str, Any]:
    """An old battle as it reads now: ``hp_max`` unknown, nobody dead (issue 24)."""
    return {**data, "combatants": [{**c, "hp_max": None, "dead": False}
                                   for c in data["combatants"]]}


def test_the_battle_reads_as_the_same_typed_value_and_is_stored_as_before() -> None:
    stored = BATTLE.read(OLD_BATTLE, 1, WHERE)
    assert stored == StoredBattle(Battle(
        (Combatant("艾莉絲", owner="alice", dex=5, con=3, bp_max=5, bp=5, hp=12, position="A1",
                   weapon_durability=4, initiative=15, initiative_rolls=(10,)),
         Combatant("卡蘿", owner="carol", dex=3, con=2, bp_max=4, bp=4, hp=8, initiative=8,
                   initiative_rolls=(5,)),
         Combatant("食屍鬼", "enemy", dex=3, bp_max=4, bp=4, hp=15, armor=2, human_like=False,
                   position="B1", initiative=6, initiative_rolls=(3,)),
         Combatant("暴徒", "enemy", dex=1, con=1, bp_max=3, bp=3, hp=9, position="B2",
                   initiative=3, initiative_rolls=(2,))),
        costs={"move": 1, "attack": 3, "skill": 2, "item": 1, "parry": 1}, width=10,
        height=10), 1, {"艾莉絲": 1, "卡蘿": 3}, {"艾莉絲": "武器耐久"},
        {"艾莉絲": "a", "卡蘿": "b", "食屍鬼": "c", "暴徒": "d"})
    assert BATTLE.dump(stored) == _unversioned(OLD_BATTLE)
    assert BATTLE.read(_unversioned(OLD_BATTLE), 1, WHERE) == stored
    assert BATTLE.dump(StoredBattle()) == {}
    assert BATTLE.read({}, 1, WHERE) == StoredBattle()
    assert BATTLE.read({**OLD_BATTLE, "ended": True}, 1, WHERE).battle is None
    assert BATTLE.read({**OLD_BATTLE, "combatants": []}, 1, WHERE).battle is None


def test_a_battle_stored_mid_round_reads_with_every_status() -> None:
    stored = BATTLE.read(OLD_MID_BATTLE, 1, WHERE)
    assert stored == StoredBattle(Battle(
        (Combatant("Bob", owner="p2", dex=2, con=1, bp_max=4, bp=2, hp=10, position="B3",
                   initiative=15, initiative_rolls=(13, 9), attacked=True, stuck_in="Ghoul"),
         Combatant("Ann", owner="p1", dex=5, con=3, bp_max=5, bp=5, hp=9, position="B2",
                   parry_against="Thug", weapon_durability=6, initiative=15,
                   initiative_rolls=(10, 2)),
         Combatant("Dog", "ally", dex=4, bp_max=5, bp=5, hp=6, position="A2", initiative=11,
                   initiative_rolls=(7,)),
         Combatant("Ghoul", "enemy", dex=3, bp_max=4, bp=4, hp=7, armor=2, human_like=False,
                   position="C3", initiative=15, initiative_rolls=(12,), attacked=True),
         Combatant("Thug", "enemy", dex=1, con=1, bp_max=3, bp=3, hp=8, position="C4",
                   unconscious=8, initiative=5, initiative_rolls=(4,))),
        round=1, first_side="party"), 1, {"Ann": 1, "Bob": 2}, {"Ann": "短刀耐久"},
        {"Bob": "b", "Ann": "a", "Dog": "d", "Ghoul": "g", "Thug": "t"})
    assert BATTLE.dump(stored) == _unversioned(OLD_MID_BATTLE)


def test_the_battle_setup_reads_as_before() -> None:
    setup = BATTLE_SETUP.read(OLD_SETUP, 1, WHERE)
    assert setup == Setup(["alice", "carol"], OLD_SETUP["enemies"], OLD_SETUP["costs"], 10, 10,
                          1)
    assert BATTLE_SETUP.dump(setup) == OLD_SETUP
    assert BATTLE_SETUP.read({"party": ["bob"]}, 1, WHERE) == Setup(["bob"])


# --------------------------------------------------------------------------- through a Core


async def _store(core: Core, key: str, data: dict[str, Any]) -> None:
    """Write a document of the console table straight into the database."""
    async with core.engine.begin() as connection:
        channel = (await connection.execute(select(Channel.id).where(
            Channel.platform == "console", Channel.channel_key == "table"))).scalar_one()
        await connection.execute(insert(ChannelState).values(
            channel_id=channel, key=key, data=data, schema=1))


async def _stored(core: Core, key: str) -> dict[str, Any]:
    async with core.engine.connect() as connection:
        return dict((await connection.execute(select(ChannelState.data).where(
            ChannelState.key == key))).scalar_one())


async def _old_table(core: Core) -> Table:
    """The table the samples were captured at: a GM and three sheets (ids 1, 2, 3)."""
    table = Table(core)
    await table.text("keeper", ".gm")
    for user, name, stats in (
            ("alice", "艾莉絲", "靈巧 5 體質 3 觀察 4 潛行 3 體力 12 理智 50 因果點數 12 武器 2 "
                               "武器耐久 4"),
            ("bob", "鮑伯", "靈巧 2 體質 1 觀察 2 潛行 1 普通攻擊 1 體力 3 理智 40 因果點數 3"),
            ("carol", "卡蘿", "靈巧 3 體質 2 觀察 1 潛行 2 體力 8 理智 30")):
        await table.text(user, f".pc new {name}")
        await table.text(user, f".st {stats}")
    return table


async def test_an_old_table_plays_on(core: Core) -> None:
    table = await _old_table(core)
    for key, data in (("plurk.ap", OLD_AP), ("plurk.consent", OLD_CONSENT),
                      ("plurk.checks", OLD_CHECKS), ("plurk.fatal", OLD_FATAL),
                      ("plurk.battle", OLD_BATTLE), ("plurk.battle.setup", OLD_SETUP)):
        await _store(core, key, data)
    ap = await table.say("alice", ".ap")
    assert ap[0].data == {"kind": "plurk_ap", **OLD_AP}
    pool = plurk.ApPool(3, {"observe": 2, "開鎖": 4})
    assert ap_data(pool) == {"kind": "plurk_ap", **asdict(pool)}
    fatal = await table.say("keeper", ".fatal")
    assert fatal[0].text.splitlines()[1] == "#1 鮑伯：體力 3，損失 9"
    assert fatal[0].data == {"kind": "plurk_fatal_list", "events": OLD_FATAL["events"]}
    consent = await table.say("alice", ".ra allow")
    assert consent[0].data == {"kind": "plurk_consent_settings", "take10": False,
                               "take20": True, "push": False,
                               "pending": [["carol", "卡蘿", "take10"]]}
    assert await table.text("alice", ".fate") == "⚠ 艾莉絲 這次檢定的命運檢定已經擲過了。"
    shown = await table.say("keeper", ".battle")
    assert shown[0].text.startswith("▶ 第 0 輪，輪到 艾莉絲（BP 5/5）")
    assert shown[1].data["battle"] == _with_life(OLD_BATTLE_OF_RULES)  # the GM's copy
    # a change is stored in the same shape
    await table.text("alice", ".ap spend 開鎖")
    assert await _stored(core, "plurk.ap") == {**OLD_AP, "points": 2}
    await table.text("alice", ".act 攻擊")
    combatants = [{**OLD_BATTLE["combatants"][0], "bp": 2, "attacked": True},
                  *OLD_BATTLE["combatants"][1:]]
    assert await _stored(core, "plurk.battle") == _unversioned(
        {**OLD_BATTLE, "combatants": combatants})


async def test_a_battle_stored_mid_round_shows_as_before(core: Core) -> None:
    table = Table(core)
    await table.text("gm", ".gm")
    await _store(core, "plurk.battle", OLD_MID_BATTLE)
    shown = await table.say("gm", ".battle")
    # issue 24: the GM reads the numbers privately; the channel reads the enemies'
    # bands — of a battle stored before it, without a maximum, only down or not
    assert (shown[1].to, shown[1].user, shown[1].text) == ("private", "gm", OLD_MID_BATTLE_SHOWN)
    assert shown[0].text.splitlines()[4:] == [
        "　4. Ghoul 先攻 15｜體力 ?｜位置 C3｜敵",
        "　5. Thug 先攻 5｜體力 倒下｜位置 C4｜昏迷（還要跳過 8 次）｜敵"]
    assert shown[1].data["battle"] == {k: v for k, v in _with_life(OLD_MID_BATTLE).items()
                                       if k not in ("serial", "sheets", "weapons", "marks")}


@pytest.mark.parametrize(("key", "damaged", "commands"), [
    ("plurk.ap", {**OLD_AP, "points": "lots"}, (".ap", ".ap spend 觀察", ".party")),
    ("plurk.battle", {**OLD_BATTLE, "combatants": "everyone"}, (".battle", ".act 攻擊")),
    ("plurk.battle", {**OLD_BATTLE, "combatants": [
        {**OLD_BATTLE["combatants"][0], "bp": "full"}, *OLD_BATTLE["combatants"][1:]]},
     (".battle", ".act 攻擊", ".pass")),
    ("plurk.checks", {"last": {"alice": {**OLD_CHECKS["last"]["alice"], "check": None}}},
     (".push", ".fate")),
])
async def test_a_damaged_document_is_refused_in_the_tables_language(
        core: Core, key: str, damaged: dict[str, Any], commands: tuple[str, ...]) -> None:
    table = await _old_table(core)
    await _store(core, key, damaged)
    catalog = systems.catalog()
    for locale in ("zh-Hant", "en"):
        await table.text("keeper", f".lang {locale}")
        refusal = catalog.text(locale, "core.error.prefix", text=catalog.text(
            locale, "core.error.damaged_document", document=key, where=WHERE))
        for command in commands:
            assert await table.text("alice", command) == refusal
    assert await _stored(core, key) == damaged
