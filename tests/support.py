"""Test helpers shared by every layer's tests."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import select

from bot.core import Core
from bot.messages import Incoming, Outgoing
from bot.store.models import OutboxMessage
from rules.dice.source import ScriptedSource


class Table:
    """Speak into one channel as different users, with scripted dice."""

    def __init__(self, core: Core, channel: str = "table", platform: str = "console") -> None:
        self.core = core
        self.channel = channel
        self.platform = platform

    async def say(self, user: str, text: str, dice: list[int] | None = None,
                  **incoming) -> list[Outgoing]:
        source = ScriptedSource(dice, fallback=_NoMoreDice()) if dice is not None else None
        incoming.setdefault("display_name", user)
        message = Incoming(self.platform, self.channel, user, text, **incoming)
        return await self.core.handle(message, dice=source)

    async def text(self, user: str, text: str, dice: list[int] | None = None) -> str:
        """The channel text of a command that answers with exactly one channel message."""
        outs = await self.say(user, text, dice)
        channel = [o for o in outs if o.to == "channel"]
        assert len(channel) == 1, outs
        return channel[0].text


async def stored_replies(core: Core, platform: str = "console") -> list[Outgoing]:
    """Every reply of ``platform`` in the outbox, oldest first, whoever claimed it
    (``core.undelivered`` gives only what no live core sends)."""
    async with core.sessions() as session:
        rows = await session.scalars(select(OutboxMessage).where(
            OutboxMessage.platform == platform).order_by(OutboxMessage.id))
        return [replace(Outgoing.from_record(row.message), outbox_id=row.id) for row in rows]


class _NoMoreDice:
    """Fails a test that rolls more dice than it scripted."""

    def roll(self, faces: int) -> int:
        raise AssertionError(f"unscripted d{faces} rolled")
