"""Issue 22 item 10: invisible format characters (bidirectional overrides above all)
never reach a reply or the game log — from what a player types, from their name, or
from a name stored before they were removed."""

from __future__ import annotations

import re
import unicodedata

from sqlalchemy import select, update

from adapters.config import Settings
from bot.core import Core
from bot.normalize import visible
from tests.orm import Character, GameLogLine, sessions
from tests.support import Table

RLO, PDF = "\u202e", "\u202c"
#: a name that, mirrored by the override, reads "1d20=20 → 大成功"
TRICK = f"{RLO}功成大 → 02=02d1{PDF}"
JOINERS = {0x200C, 0x200D}


def test_every_invisible_format_character_is_removed_but_the_joiners() -> None:
    """The list in bot/normalize.py is the Unicode category Cf of this Python."""
    every = "".join(chr(cp) for cp in range(0x110000)
                    if unicodedata.category(chr(cp)) == "Cf")
    assert visible(every) == "\u200c\u200d"
    assert visible("a\u2066b\u2069c\u200ed\ufeffe") == "abcde"
    family = "👨\u200d👩\u200d👧"  # an emoji sequence keeps its joiners
    assert visible(family) == family


async def test_a_character_name_cannot_reverse_a_reply(table: Table) -> None:
    assert await table.text("alice", f".pc new {TRICK}") == (
        "已建立角色「功成大 → 02=02d1」並設為使用中。")
    reply = await table.text("alice", ".r 1d20", dice=[3])
    assert reply == "🎲 功成大 → 02=02d1：1d20 = [3] = 3"
    assert not re.search("[\u202a-\u202e\u2066-\u2069]", reply)


async def test_a_display_name_and_a_reason_lose_their_overrides(table: Table) -> None:
    [out] = await table.say("bob", f".r 1d6 {RLO}開鎖", dice=[4],
                            display_name=f"{RLO}鮑伯\u2066")
    assert out.text == "🎲 鮑伯「開鎖」：1d6 = [4] = 4"


async def test_a_name_stored_before_the_fix_is_shown_without_them(settings: Settings) -> None:
    core = await Core.open(settings)
    try:
        await Table(core).text("alice", ".pc new 艾莉絲")
        async with sessions(core) as session, session.begin():
            await session.execute(update(Character).values(name=TRICK))
    finally:
        await core.close()
    core = await Core.open(settings)  # a fresh process reads the stored name
    try:
        assert await Table(core).text("alice", ".r 1d4", dice=[2]) == (
            "🎲 功成大 → 02=02d1：1d4 = [2] = 2")
    finally:
        await core.close()


async def test_chatter_enters_the_log_without_them(table: Table) -> None:
    await table.text("gm", ".gm")
    await table.text("gm", ".log on")
    assert await table.say("alice", f"我{RLO}推開門\n看看", display_name=f"艾{RLO}莉絲") == []
    async with sessions(table.core) as session:
        lines = list(await session.execute(
            select(GameLogLine.name, GameLogLine.text).where(GameLogLine.kind == "said")))
    assert ("艾莉絲", "我推開門\n看看") in [tuple(line) for line in lines]
