"""The fight as a typed document (``ap20.combat``): what the old code stored reads as a
``Combat``, is stored back in the same shape (the replies' ``data.fight`` too), and a
stored fight that does not validate is refused without changing anything."""

from __future__ import annotations

from typing import Any

from sqlalchemy import insert, select

from bot.core import Core
from bot.systems.ap20.documents import COMBAT
from rules.systems.ap20 import Combat, Fighter
from tests.orm import Channel, ChannelState, Character
from tests.support import Table

OLD_FIGHT: dict[str, Any] = {
    "fighters": [
        {"name": "艾莉絲", "side": "party", "owner": "p1", "character_id": 1,
         "initiative": 15, "init_rolls": [12], "tiebreak": 3, "ap": 7, "ap_max": 7,
         "tier": 1, "stats": {}, "flags": [], "resist": {}},
        {"name": "哥布林", "side": "foe", "owner": None, "character_id": None,
         "initiative": 9, "init_rolls": [8, 4], "tiebreak": 1, "ap": 6, "ap_max": 6,
         "tier": 2, "stats": {"hp": 12, "armor": 2}, "flags": ["hidden", "blindsight"],
         "resist": {"fire": 3}}],
    "current": 1, "round": 1, "started": True}
"""What ``Combat.to_dict()`` stored before the fight became a typed document: round 1,
the GM's 哥布林 acting (captured from the old code)."""

FIGHT = Combat((
    Fighter("艾莉絲", "party", "p1", 1, initiative=15, init_rolls=(12,), tiebreak=3, ap=7,
            ap_max=7),
    Fighter("哥布林", "foe", None, None, initiative=9, init_rolls=(8, 4), tiebreak=1, tier=2,
            ap=6, ap_max=6, stats={"hp": 12, "armor": 2}, flags=("hidden", "blindsight"),
            resist={"fire": 3})), current=1, round=1, started=True)


NEW_FIELDS = {"hp_max": None, "revealed": False}
"""What issue 24 added to a fighter (its maximum HP, whether the GM revealed its
numbers): absent from an old fight, read as these defaults."""


def test_a_fight_stored_by_the_old_code_reads_as_the_same_fight() -> None:
    assert COMBAT.read(OLD_FIGHT, 1, "console:table") == FIGHT
    # stored as before, with the fields issue 24 added
    assert COMBAT.dump(FIGHT) == {**OLD_FIGHT, "fighters": [
        {**f, **NEW_FIELDS} for f in OLD_FIGHT["fighters"]]}
    # the old code stored {} for "no fight": a fight without fighters
    assert COMBAT.read({}, 1, "console:table") == Combat()


async def store(core: Core, key: str, data: dict[str, Any]) -> None:
    """Write a document of the console table straight into the database."""
    async with core.engine.begin() as connection:
        channel = (await connection.execute(select(Channel.id).where(
            Channel.platform == "console", Channel.channel_key == "table"))).scalar_one()
        await connection.execute(insert(ChannelState).values(
            channel_id=channel, key=key, data=data, schema=1))


async def stored(core: Core) -> tuple[dict[str, Any], dict[str, Any]]:
    """The table's documents and the sheets' stats, as stored."""
    async with core.engine.connect() as connection:
        docs = dict((await connection.execute(select(ChannelState.key, ChannelState.data))).all())
        sheets = dict((await connection.execute(select(Character.name, Character.stats))).all())
    return docs, sheets


async def test_an_old_fight_plays_on(table: Table) -> None:
    await table.text("gm", ".gm")
    await table.text("gm", ".system ap20")
    await table.text("p1", ".pc new 艾莉絲")
    await table.text("p1", ".st 敏捷 14 生命 18 行動力 7")
    await store(table.core, "ap20.combat", OLD_FIGHT)
    [shown] = await table.say("p1", ".init")
    # issue 24: the GM's 哥布林 shows a health band — its numbers and states (隱匿、盲視)
    # stay out of the text and the data, which keep its place in the order
    assert shown.text.splitlines() == [
        "⚔ 第 1 輪，輪到 哥布林",
        "  1. 艾莉絲（我方）先攻 15｜行動力 7/7｜生命 18",
        "▶2. 哥布林（敵方）先攻 9｜毫髮無傷"]
    mine, goblin = OLD_FIGHT["fighters"]
    assert shown.data is not None and shown.data["fight"] == {**OLD_FIGHT, "fighters": [
        {**mine, **NEW_FIELDS},
        {"name": "哥布林", "side": "foe", "owner": None, "character_id": None,
         "initiative": goblin["initiative"], "revealed": False, "band": "unhurt"}]}
    assert await table.text("gm", ".init next") == "▶ 第 2 輪開始，輪到 艾莉絲（行動力 7/7）"
    docs, _ = await stored(table.core)
    assert docs["ap20.combat"]["round"] == 2 and docs["ap20.combat"]["current"] == 0


async def test_a_damaged_fight_is_refused_and_changes_nothing(table: Table) -> None:
    await table.text("gm", ".gm")
    await table.text("gm", ".system ap20")
    await table.text("p1", ".pc new 艾莉絲")
    await table.text("p1", ".st 生命 18")
    damaged = {**OLD_FIGHT, "fighters": [{**OLD_FIGHT["fighters"][1], "ap": "many"}]}
    await store(table.core, "ap20.combat", damaged)
    before = await stored(table.core)
    refusal = ("⚠ 本桌儲存的 ap20.combat 無法讀取（console:table），沒有任何資料被更改。"
               "請通知管理者。")
    for user, line in (("p1", ".init"), ("gm", ".init next"), ("p1", ".init join =12"),
                       ("gm", ".dmg 哥布林 5")):
        outs = await table.say(user, line)
        assert [(o.to, o.text) for o in outs] == [("channel", refusal)], line
    assert await stored(table.core) == before
