"""The field as a typed document (``v6.field``): what the old code stored reads as a
``Field``, is stored back in the same shape (the replies' ``data.field`` too), and an
old field with an old ap20 fight plays on."""

from __future__ import annotations

from typing import Any

from bot.systems.v6.documents import FIELD
from bot.systems.v6.state import PUBLIC_UNIT
from rules.systems.v6 import Field, Unit
from tests.bot.systems.ap20.test_documents import OLD_FIGHT, store
from tests.support import Table

OLD_FIELD: dict[str, Any] = {
    "width": 16, "height": 10, "units": [
        {"name": "哥布林", "cell": [4, 4], "facing": 0, "posture": "crawl", "size": "large",
         "sense": "tremor", "fatigue": 0, "stats": {"stride": 4, "agility": 3}},
        {"name": "卡蘿", "cell": None, "facing": 0, "posture": "stand", "size": "medium",
         "sense": "normal", "fatigue": 0, "stats": {}},
        {"name": "艾莉絲", "cell": [0, 0], "facing": 135, "posture": "stand",
         "size": "medium", "sense": "normal", "fatigue": 2, "stats": {}}]}
"""What ``Field.to_dict()`` stored before the field became a typed document (captured
from the old code): a crawling 哥布林, an unplaced 卡蘿, a tired 艾莉絲 at A1."""

THE_FIELD = Field(16, 10, (
    Unit("哥布林", (4, 4), 0, "crawl", "large", "tremor", 0, {"stride": 4, "agility": 3}),
    Unit("卡蘿"),
    Unit("艾莉絲", (0, 0), 135, fatigue=2)))


TURN_MARKS = {"turn": "", "moved": False, "acted": False}
"""What issue 24 added to the field (v6 decision 12: what the actor has done this
turn): absent from an old field, read as these defaults."""


def test_a_field_stored_by_the_old_code_reads_as_the_same_field() -> None:
    assert FIELD.read(OLD_FIELD, 1, "console:table") == THE_FIELD
    # stored as before, with the turn marks issue 24 added
    assert FIELD.dump(THE_FIELD) == {**OLD_FIELD, **TURN_MARKS}


async def test_an_old_field_plays_on(table: Table) -> None:
    await table.text("gm", ".gm")
    await table.text("gm", ".system ap20+v6")
    await table.text("p1", ".pc new 艾莉絲")
    await store(table.core, "ap20.combat", OLD_FIGHT)
    await store(table.core, "v6.field", OLD_FIELD)
    [shown] = await table.say("p1", ".map")
    assert shown.text.splitlines()[0] == "🗺 場地 16×10（1 格 = 1 步）"
    assert shown.text.splitlines()[-2:] == [
        "a 艾莉絲 A1↘ 站立 疲勞2", "b 哥布林 E5↑ 匍匐 大型 震感"]
    # issue 24: 卡蘿, who is not in the fight, holds no place; the turn is 哥布林's
    goblin, _, alice = OLD_FIELD["units"]
    assert shown.data is not None and shown.data["field"] == {
        **OLD_FIELD, "units": [{k: goblin[k] for k in PUBLIC_UNIT}, alice], **TURN_MARKS,
        "turn": "1:哥布林"}  # the GM's 哥布林: what anyone sees, not its fatigue
    assert await table.text("gm", ".fatigue 艾莉絲 0") == "艾莉絲 的疲勞 2→0"
