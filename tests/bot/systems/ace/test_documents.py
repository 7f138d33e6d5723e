"""The stored documents of `ace` (issue 23): what the old code stored (schema 1, pasted
below as ``to_dict`` and the handlers wrote it) reads as the same typed value, through
the declarations and through a real Core; a damaged document is refused, changing
nothing."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from bot import systems
from bot.core import Core
from bot.systems.ace.documents import (
    ENEMIES,
    EXTENDED,
    FIGHT,
    MARK,
    OPTIONS,
    Enemies,
    Enemy,
    ExtendedActions,
    Options,
    Started,
)
from rules.systems.ace.extended import Extended
from rules.systems.ace.fight import Fight, Member, Posture
from rules.systems.ace.grapple import Hold
from rules.systems.ace.mark import Mark, Stack
from rules.systems.ace.stealth import Hidden
from tests.orm import Character, CharacterState, sessions
from tests.support import Table, store_document, stored_document

WHERE = "console:table"

# --------------------------------------------------------------------------- schema 1
# As the code before issue 23 (commit 21ac043) stored them: Fight.to_dict(),
# Mark.to_dict(), {**Extended.to_dict(), "by": user}, and the handlers' literal dicts.

OLD_FIGHT: dict[str, Any] = {
    "members": [
        {"name": "艾莉絲", "side": "party", "owner": "alice", "dex": 6, "raw": 14, "bonus": 0,
         "initiative": 20, "ambush": True},
        {"name": "狼人", "side": "enemy", "owner": None, "dex": 5, "raw": 3, "bonus": 1,
         "initiative": 9, "ambush": False}],
    "current": 1, "round": 2,
    "postures": {
        "艾莉絲": {"stance": "charge", "charge": 3, "cover": "partial", "condition": "asleep",
                 "reflex_used": True},
        "狼人": {"stance": "none", "charge": 0, "cover": "none", "condition": None,
                "reflex_used": False}},
    "holds": [{"grappler": "狼人", "target": "艾莉絲", "state": "pinned", "margin": 2,
               "round": 1}],
    "hidden": [{"hider": "艾莉絲", "unseen_by": ["狼人"], "seen_by": ["蝙蝠"], "ambush": True}],
}
OLD_NO_FIGHT: dict[str, Any] = {"members": [], "current": 0, "round": 0, "postures": {},
                                "holds": [], "hidden": []}
OLD_MARK: dict[str, Any] = {"level": 2, "kills": 3, "stacks": [
    {"item": "恢復食物", "count": 15, "per_slot": 10, "span": 1},
    {"item": "太刀", "count": 1, "per_slot": 1, "span": 2}]}
OLD_EXTENDED: dict[str, Any] = {"actions": {
    "修車": {"name": "修車", "dc": 5, "deadline": 3, "mishap": True, "successes": 2, "ones": 1,
           "periods": 1, "status": "running", "by": "alice"},
    # stored before starters were kept: no "by"
    "開鎖": {"name": "開鎖", "dc": 2, "deadline": None, "mishap": False, "successes": 2,
           "ones": 0, "periods": 2, "status": "done"}}}
OLD_ENEMIES: dict[str, Any] = {"enemies": {
    "狼人": {"stats": {"力量": 5, "敏捷": 10, "體質": 7, "精神力": 5, "基本步法": 2, "防具": 2,
                     "火抗": 5}, "hp": 43},
    "蝙蝠": {"stats": {"力量": 2, "敏捷": 8, "體質": 2, "精神力": 1}, "hp": 0}}}
OLD_OPTIONS: dict[str, Any] = {"attr": False, "super": True}

# --------------------------------------------------------------------------- the values

FIGHT_VALUE = Fight(
    (Member("艾莉絲", "party", "alice", 6, 14, 0, 20, True),
     Member("狼人", "enemy", None, 5, 3, 1, 9)),
    current=1, round=2,
    postures={"艾莉絲": Posture("charge", 3, "partial", "asleep", True), "狼人": Posture()},
    holds=(Hold("狼人", "艾莉絲", "pinned", 2, 1),),
    hidden=(Hidden("艾莉絲", ("狼人",), ("蝙蝠",), True),))


def test_a_fight_stored_by_the_old_code_reads_as_the_same_fight() -> None:
    value = FIGHT.read(OLD_FIGHT, 1, WHERE)
    assert value == FIGHT_VALUE
    # stored as before, plus each posture's `acted` (issue 24; an older copy ignores it)
    assert FIGHT.dump(value) == {**OLD_FIGHT, "postures": {
        name: {**posture, "acted": False} for name, posture in OLD_FIGHT["postures"].items()}}
    assert FIGHT.read(OLD_NO_FIGHT, 1, WHERE) == Fight()
    assert FIGHT.read({}, 1, WHERE) == Fight()


def test_a_mark_stored_by_the_old_code_reads_as_the_same_mark() -> None:
    value = MARK.read(OLD_MARK, 1, WHERE)
    assert value == Mark(2, (Stack("恢復食物", 15, 10), Stack("太刀", 1, 1, 2)), 3)
    assert MARK.dump(value) == OLD_MARK
    assert MARK.read({}, 1, WHERE) == Mark()


def test_extended_actions_stored_by_the_old_code_keep_who_started_them() -> None:
    value = EXTENDED.read(OLD_EXTENDED, 1, WHERE)
    assert value == ExtendedActions({
        "修車": Started("修車", 5, 3, True, 2, 1, 1, "running", by="alice"),
        "開鎖": Started("開鎖", 2, None, False, 2, 0, 2, "done")})
    assert value.actions["開鎖"].by is None  # everyone's where there is no GM
    assert value.actions["修車"].rules() == Extended("修車", 5, 3, True, 2, 1, 1)
    assert EXTENDED.dump(value)["actions"]["修車"] == OLD_EXTENDED["actions"]["修車"]
    assert EXTENDED.read({}, 1, WHERE) == ExtendedActions()


def test_enemies_and_options_stored_by_the_old_code_read_the_same() -> None:
    enemies = ENEMIES.read(OLD_ENEMIES, 1, WHERE)
    assert enemies == Enemies({
        "狼人": Enemy(OLD_ENEMIES["enemies"]["狼人"]["stats"], 43),
        "蝙蝠": Enemy({"力量": 2, "敏捷": 8, "體質": 2, "精神力": 1}, 0)})
    # the old shape, plus `.enemy reveal`'s flag (issue 24), unrevealed as they were
    assert not any(e.revealed for e in enemies.enemies.values())
    assert ENEMIES.dump(enemies) == {"enemies": {
        name: {**old, "revealed": False} for name, old in OLD_ENEMIES["enemies"].items()}}
    assert OPTIONS.read(OLD_OPTIONS, 1, WHERE) == Options(attr=False, super=True)
    assert OPTIONS.read({}, 1, WHERE) == Options(attr=True, super=False)  # the defaults
    assert OPTIONS.dump(Options()) == {"attr": True, "super": False}


# --------------------------------------------------------------------------- through a Core


async def test_an_old_table_plays_on(core: Core) -> None:
    table = Table(core)
    await table.text("gm", ".gm")
    await table.text("gm", ".system ace")
    await table.text("alice", ".pc new 艾莉絲")
    for key, data in (("ace.fight", OLD_FIGHT), ("ace.enemies", OLD_ENEMIES),
                      ("ace.extended", OLD_EXTENDED), ("ace.options", OLD_OPTIONS)):
        await store_document(core, key, data)
    async with sessions(core) as session, session.begin():
        alice = await session.scalar(select(Character).where(Character.name == "艾莉絲"))
        assert alice is not None
        session.add(CharacterState(character_id=alice.id, key="ace.mark", data=OLD_MARK,
                                   schema=1))
    assert (await table.text("gm", ".init")).startswith("⚔ 第2輪：艾莉絲")
    outs = await table.say("gm", ".enemy")  # issue 24: the numbers to the GM privately
    assert [(o.to, o.text) for o in outs] == [
        ("channel", "👹 敵人：狼人（受傷）、蝙蝠（死亡）"),
        ("private", "👹 敵人：狼人（生命43/70）、蝙蝠（生命0/20）")]
    ext = await table.say("gm", ".ext")
    assert ext[0].data is not None
    assert ext[0].data["actions"]["修車"] == OLD_EXTENDED["actions"]["修車"]
    assert (await table.say("gm", ".ace"))[0].data == {
        "kind": "ace.options", "attr": False, "super": True}
    mark = await table.say("alice", ".mark")
    assert mark[0].data == {"kind": "ace.mark", "character": "艾莉絲", "mark": OLD_MARK}
    # a change is stored in the same shape
    await table.text("alice", ".ext drop 修車")
    assert (await stored_document(core, "ace.extended"))[0] == {
        "actions": {"開鎖": OLD_EXTENDED["actions"]["開鎖"] | {"by": None}}}


async def test_a_damaged_fight_is_refused_in_the_tables_language(core: Core) -> None:
    table = Table(core)
    await table.text("gm", ".gm")
    await table.text("gm", ".system ace")
    damaged = {**OLD_FIGHT, "round": "second"}
    await store_document(core, "ace.fight", damaged)
    catalog = systems.catalog()
    for locale in ("zh-Hant", "en"):
        await table.text("gm", f".lang {locale}")
        refusal = catalog.text(locale, "core.error.prefix", text=catalog.text(
            locale, "core.error.damaged_document", document="ace.fight", where=WHERE))
        for command in (".init", ".init end", ".next", ".ri 狼人"):
            assert await table.text("gm", command) == refusal
    assert (await stored_document(core, "ace.fight"))[0] == damaged
