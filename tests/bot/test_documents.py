"""Typed state documents: a schema with upgrade steps, keys in the owner's namespace,
and character documents that travel with their sheet."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from bot import router, systems
from bot.context import Context
from bot.core import Core
from bot.documents import Document
from bot.messages import Outgoing
from bot.store.models import ChannelState, Character, CharacterState
from rules.kits.game_system import GameSystem
from tests.support import Table

TOYS = router.CommandTable("toys")


class Pool(Document):
    """Schema 1 stored ``{"n": 3}``; schema 2 stores ``{"points": 3, "log": []}``."""

    key = "toys.pool"
    schema = 2

    @classmethod
    def upgrade(cls, data: dict[str, Any], schema: int) -> dict[str, Any]:
        assert schema == 1
        return {"points": data.get("n", 0), "log": []}


class Bag(Document):
    key = "toys.bag"
    per_character = True


@TOYS.command("pool")
async def pool(ctx: Context) -> list[Outgoing]:
    row = await ctx.document(Pool)
    return [ctx.reply(f"{row.data} schema {row.schema}")]


@TOYS.command("bag")
async def bag(ctx: Context) -> list[Outgoing]:
    character = await ctx.active_character()
    assert character is not None
    row = await ctx.document(Bag, character)
    if ctx.args:
        row.data = {"items": [*row.data.get("items", []), ctx.args]}
    return [ctx.reply(", ".join(row.data.get("items", [])))]


@pytest.fixture
async def toys(core: Core):
    systems.register(systems.SystemPlugin(GameSystem("toys", ("Toys",)), TOYS,
                                          documents=(Pool, Bag)))
    yield core
    systems.unregister("toys")


async def test_an_old_document_is_upgraded_once_and_stored_back(toys: Core) -> None:
    table = Table(toys)
    await table.text("gm", ".system toys")
    async with toys.sessions() as session, session.begin():
        channel = await toys.channel_row(session, "console", "table")
        session.add(ChannelState(channel_id=channel.id, key="toys.pool", data={"n": 3},
                                 schema=1))
    assert await table.text("u", ".pool") == "{'points': 3, 'log': []} schema 2"
    async with toys.sessions() as session:
        row = await session.scalar(select(ChannelState).where(ChannelState.key == "toys.pool"))
        assert (row.data, row.schema) == ({"points": 3, "log": []}, 2)


async def test_a_newer_document_than_the_code_is_refused_not_overwritten(toys: Core) -> None:
    with pytest.raises(ValueError, match="newer schema"):
        Pool.current({"points": 1}, 3)


def test_a_system_may_only_own_documents_in_its_namespace() -> None:
    class Stray(Document):
        key = "plurk.stray"

    with pytest.raises(ValueError, match="not toys"):
        systems.check(systems.SystemPlugin(GameSystem("toys", ("Toys",)), TOYS,
                                           documents=(Stray,)))
    for plugin in systems.plugins().values():
        assert all(doc.key.startswith(f"{plugin.id}.") for doc in plugin.documents)


async def test_character_documents_move_with_the_sheet_on_campaign_bind(toys: Core) -> None:
    thread = Table(toys, "thread")
    await thread.text("gm", ".gm")
    await thread.text("gm", ".system toys")
    await thread.text("alice", ".st 力量 3")
    assert await thread.text("alice", ".bag 繩子") == "繩子"
    await thread.text("gm", ".campaign bind 夜")
    assert await thread.text("alice", ".bag 火把") == "繩子, 火把"
    async with toys.sessions() as session:
        [(owner, key)] = (await session.execute(
            select(Character.owner, CharacterState.key)
            .join(Character, Character.id == CharacterState.character_id))).all()
    assert (owner, key) == ("alice", "toys.bag")
