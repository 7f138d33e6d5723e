"""`.pc del` of a character that has documents of its own (found by the 10^6-input
stress run of issue 22: an ace character with a nightmare mark could not be deleted —
"internal error" — because its mark references it)."""

from __future__ import annotations

from sqlalchemy import func, select

from tests.orm import Character, CharacterState, sessions
from tests.support import Table


async def _count(table: Table, model: type) -> int:
    async with sessions(table.core) as session:
        return await session.scalar(select(func.count()).select_from(model)) or 0


async def test_a_character_with_a_mark_is_deleted_with_it(table: Table) -> None:
    await table.text("alice", ".system ace")
    await table.text("alice", ".pc new 艾莉絲")
    await table.text("alice", ".st 力量6 敏捷5 體質5 精神力5")
    # her nightmare mark holds an item: a document of her own
    assert (await table.text("alice", ".store 恢復食物 2")).startswith("🔖")
    assert await _count(table, CharacterState) == 1
    assert await table.text("alice", ".pc del 艾莉絲") == "已刪除角色「艾莉絲」。"
    assert await _count(table, CharacterState) == 0
    assert await _count(table, Character) == 0
    assert await table.text("alice", ".pc new 艾莉絲") == "已建立角色「艾莉絲」並設為使用中。"
