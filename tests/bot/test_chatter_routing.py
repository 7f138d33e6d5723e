"""Issue 22 item 6: chatter is recorded where its thread is bound at that moment —
after `.campaign unbind` no more in the campaign's log, right after `.campaign bind`
already in it — whether the binding changed in this process or another."""

from __future__ import annotations

from sqlalchemy import select

from adapters.config import Settings
from bot.core import Core
from tests.orm import GameLog, GameLogLine, sessions
from tests.support import Table


async def said(core: Core, log_name: str) -> list[str]:
    """What players said, as the log named ``log_name`` recorded it."""
    async with sessions(core) as session:
        return list(await session.scalars(
            select(GameLogLine.text).join(GameLog, GameLog.id == GameLogLine.log_id)
            .where(GameLog.name == log_name, GameLogLine.kind == "said")
            .order_by(GameLogLine.id)))


async def test_chatter_follows_bind_and_unbind_in_this_process(core: Core) -> None:
    lair, thread = Table(core, "lair"), Table(core, "thread")
    await lair.text("keeper", ".gm")
    await lair.text("keeper", ".campaign bind 龍穴")
    await lair.text("keeper", ".log on 夜")
    assert await thread.say("alice", "綁定之前") == []  # its own table, which logs nothing
    await thread.text("keeper", ".campaign bind 龍穴")
    assert await thread.say("alice", "綁定之後") == []
    await thread.text("keeper", ".campaign unbind")
    assert await thread.say("alice", "解綁之後") == []
    await lair.say("bob", "戰役裡")
    texts = await said(core, "夜")
    assert [t for t in texts if not t.startswith(".")] == ["綁定之後", "戰役裡"]


async def test_chatter_follows_a_binding_changed_by_another_process(
    any_settings: Settings,
) -> None:
    first, second = await Core.open(any_settings), await Core.open(any_settings)
    try:
        await Table(first, "lair").text("keeper", ".gm")
        await Table(first, "lair").text("keeper", ".campaign bind 龍穴")
        await Table(first, "lair").text("keeper", ".log on 夜")
        await Table(first, "thread").text("keeper", ".campaign bind 龍穴")
        assert await Table(second, "thread").say("alice", "一") == []  # second learns
        await Table(first, "thread").text("keeper", ".campaign unbind")
        assert await Table(second, "thread").say("alice", "二") == []
        texts = await said(first, "夜")
        assert [t for t in texts if not t.startswith(".")] == ["一"]
    finally:
        await first.close()
        await second.close()
