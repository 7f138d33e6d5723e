"""Test helpers shared by every layer's tests."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select

from bot.core import Core
from bot.messages import Incoming, Outgoing
from rules.dice.source import ScriptedSource
from tests.orm import Channel, ChannelState, OutboxMessage, sessions


class Table:
    """Speak into one channel as different users, with scripted dice."""

    def __init__(self, core: Core, channel: str = "table", platform: str = "console") -> None:
        self.core = core
        self.channel = channel
        self.platform = platform

    async def say(self, user: str, text: str, dice: list[int] | None = None,
                  **incoming) -> list[Outgoing]:
        source = strict_dice(dice) if dice is not None else None
        incoming.setdefault("display_name", user)
        message = Incoming(self.platform, self.channel, user, text, **incoming)
        return await self.core.handle(message, dice=source)

    async def text(self, user: str, text: str, dice: list[int] | None = None) -> str:
        """The channel text of a command that answers with exactly one channel message."""
        outs = await self.say(user, text, dice)
        channel = [o for o in outs if o.to == "channel"]
        assert len(channel) == 1, outs
        return channel[0].text


def attached_files(outs: list[Outgoing]) -> dict[str, tuple[Outgoing, str]]:
    """The files the replies carry, by file name: (the reply, the file's text)."""
    return {o.attachment.filename: (o, o.attachment.data.decode("utf-8"))
            for o in outs if o.attachment is not None}


class Clock:
    """A clock the test sets (``now``), standing for the store's or the log book's."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def visible(outs: list[Outgoing]) -> list[tuple[str, str | None, str, bool]]:
    """What each reply says and to whom: (where, which user, text, secret)."""
    return [(o.to, o.user, o.text, o.secret) for o in outs]


def engines(core: Core) -> list[Any]:
    """The core's engines (its own pooled one, and the writer's), as the synchronous
    engines whose events see every statement."""
    return [core.engine.sync_engine, core.writer.sync_engine]


async def stored_replies(core: Core, platform: str = "console") -> list[Outgoing]:
    """Every reply of ``platform`` in the outbox, oldest first, whoever claimed it
    (``core.undelivered`` gives only what no live core sends)."""
    async with sessions(core) as session:
        rows = await session.scalars(select(OutboxMessage).where(
            OutboxMessage.platform == platform).order_by(OutboxMessage.id))
        return [replace(Outgoing.from_record(row.message), outbox_id=row.id) for row in rows]


class NoMoreDice:
    """A dice source that fails the test on any die it is asked for, naming the die: the
    fallback of :func:`strict_dice`, or on its own where no die may be rolled at all."""

    def roll(self, faces: int) -> int:
        raise AssertionError(f"unscripted d{faces} rolled")


def strict_dice(values: Iterable[int] = ()) -> ScriptedSource:
    """The scripted dice ``values`` in order, then a failed test: a test that rolls more
    dice than it scripted is wrong, not lucky (no fallback to real dice)."""
    return ScriptedSource(values, fallback=NoMoreDice())


async def store_document(core: Core, key: str, data: dict[str, Any], schema: int = 1,
                         channel: str = "table") -> None:
    """Write a document of a console table straight into the database (as an older
    version of the bot, or a damaged disk, left it)."""
    async with core.engine.begin() as connection:
        table = (await connection.execute(select(Channel.id).where(
            Channel.platform == "console", Channel.channel_key == channel))).scalar_one()
        await connection.execute(insert(ChannelState).values(
            channel_id=table, key=key, data=data, schema=schema, version=0))


async def stored_document(core: Core, key: str) -> tuple[dict[str, Any], int]:
    """A stored document's JSON and schema, read straight from the database."""
    async with core.engine.connect() as connection:
        row = (await connection.execute(select(ChannelState.data, ChannelState.schema).where(
            ChannelState.key == key))).one()
        return dict(row.data), row.schema
