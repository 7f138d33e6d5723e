"""Issue 22 item 10, follow-up: a name a player gives that replies echo (`.nn`, `.pc
new`/`rename`, a jianshou team, an enemy or combatant) must show at least one visible
character. One made of Hangul fillers (U+3164), the braille blank (U+2800), spaces or
format characters would be echoed as an empty space in every reply naming it; it is
refused with ``core.error.blank_name`` and nothing changes (docs/decisions.md, "Echoed
text"). Through a real Core on SQLite."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from bot.core import Core
from bot.normalize import looks_blank
from tests.orm import ChannelState, Character, sessions
from tests.support import Table

HANGUL_FILLER, BRAILLE_BLANK, ZWSP = "\u3164", "\u2800", "\u200b"
BLANK = ("⚠ 這個名字看不見（只有空白或隱形字元），未做任何更改。"
         "請取一個至少有一個看得見的字的名字。")
BLANK_HANS = ("⚠ 这个名字看不见（只有空白或隐形字符），未做任何更改。"
              "请取一个至少有一个看得见的字的名字。")
BLANK_EN = ("⚠ That name shows nothing (only spaces or invisible characters): nothing was "
            "changed. Choose a name with at least one visible character.")


@pytest.mark.parametrize("name", [
    "", " ", HANGUL_FILLER, BRAILLE_BLANK, "\u115f", "\u1160", "\uffa0", "\u180e", ZWSP * 3,
    "\u200d", "\u034f", "\ufe0f", "\u17b4", f"{HANGUL_FILLER} {BRAILLE_BLANK}\u3000\u00a0",
    "\u202e\u202c", "\U000e0041"])
def test_blank_looking_names(name: str) -> None:
    assert looks_blank(name)


@pytest.mark.parametrize("name", ["a", "艾莉絲", f"{HANGUL_FILLER}a", "❤\ufe0f", "ㄱ", "⠁",
                                  "\u3164\u1100", "_", "·"])
def test_names_with_something_visible(name: str) -> None:
    assert not looks_blank(name)


async def snapshot(core: Core) -> dict[str, Any]:
    """What a refused name must leave as it was: the table's documents and the sheets."""
    async with sessions(core) as session:
        return {
            "table": {row.key: row.data for row in await session.scalars(select(ChannelState))},
            "sheets": sorted((row.owner, row.name, row.active)
                             for row in await session.scalars(select(Character))),
        }


async def test_a_blank_nickname_is_refused(table: Table) -> None:
    before = await snapshot(table.core)
    assert await table.text("alice", f".nn {HANGUL_FILLER}") == BLANK
    assert await table.text("alice", f".暱稱 {BRAILLE_BLANK}{HANGUL_FILLER}") == BLANK
    # zero-width spaces alone: the core removes them, but `.nn` was typed with a name
    assert await table.text("alice", f".nn {ZWSP}{ZWSP}{ZWSP}") == BLANK
    assert await snapshot(table.core) == before
    assert await table.text("alice", ".nn") == \
        "alice 還沒有設定暱稱；用 .nn 名字 設定（沒有角色卡時，回覆就用這個名字稱呼你）。"
    await table.text("alice", ".nn 愛麗絲")
    assert await table.text("alice", f".nn {ZWSP}") == BLANK
    assert await table.text("alice", f".nn {HANGUL_FILLER}") == BLANK
    # a bare `.nn` (with an invisible character glued to it) still shows the nickname
    assert await table.text("alice", ".nn") == "你的暱稱：愛麗絲"
    assert await table.text("alice", f".nn{ZWSP}") == "你的暱稱：愛麗絲"
    # a visible name with fillers around it is kept as typed, the zero-width ones removed
    assert await table.text("alice", f".nn 小{ZWSP}{HANGUL_FILLER}愛") == \
        f"好的，之後沒有角色卡時稱呼你為 小{HANGUL_FILLER}愛。"


async def test_a_blank_character_name_is_refused(table: Table) -> None:
    await table.text("alice", ".pc new 艾莉絲")
    before = await snapshot(table.core)
    assert await table.text("alice", f".pc new {BRAILLE_BLANK}") == BLANK
    assert await table.text("alice", f".pc add {HANGUL_FILLER}{HANGUL_FILLER}") == BLANK
    assert await table.text("alice", f".pc rename {HANGUL_FILLER}") == BLANK
    assert await table.text("alice", f".pc rename 艾莉絲 {BRAILLE_BLANK}") == BLANK
    assert await snapshot(table.core) == before
    assert await table.text("alice", ".r 1d20 reason", dice=[7]) == \
        "🎲 艾莉絲「reason」：1d20 = [7] = 7"


async def test_a_blank_team_in_jianshou_is_refused(table: Table) -> None:
    await table.text("alice", ".system jianshou")
    await table.text("alice", ".js join")
    before = await snapshot(table.core)
    assert await table.text("carol", f".js join {HANGUL_FILLER}") == BLANK
    assert await snapshot(table.core) == before
    assert await table.text("carol", ".js join 紅") == "🗡 carol［紅］ 入席（2 人）。"


async def test_blank_enemy_and_combatant_names_are_refused(table: Table) -> None:
    before = await snapshot(table.core)
    assert await table.text("gm", f".enemy add {HANGUL_FILLER} 靈巧=3 hp=15") == BLANK
    assert await table.text("gm", f".敵人 add {BRAILLE_BLANK}\u115f 靈巧=3 hp=15") == BLANK
    await table.text("gm", ".system ace")
    assert await table.text("gm", f".enemy add {BRAILLE_BLANK} 力量8 敏捷6 體質7") == BLANK
    assert await table.text("gm", f".ext new {HANGUL_FILLER} dc5") == BLANK
    await table.text("gm", ".system ap20")
    assert await table.text("gm", f".init add {HANGUL_FILLER} hp=12 init=3") == BLANK
    snap = await snapshot(table.core)
    assert snap["sheets"] == before["sheets"]
    assert {k: v for k, v in snap["table"].items() if k != "core.system"} == {
        k: v for k, v in before["table"].items() if k != "core.system"}


async def test_the_refusal_in_every_language(table: Table) -> None:
    await table.text("gm", ".lang zh-Hans")
    assert await table.text("alice", f".nn {HANGUL_FILLER}") == BLANK_HANS
    await table.text("gm", ".lang en")
    assert await table.text("alice", f".pc new {BRAILLE_BLANK}") == BLANK_EN
    assert await table.text("alice", f".nn {ZWSP}") == BLANK_EN
