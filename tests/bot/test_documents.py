"""Typed state documents (bot/documents.py): one declaration with a value type, a schema
and its migrations; keys in the owner's namespace; validation on load with a clear
refusal for a damaged value; and sheet documents that travel with their sheet."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import pytest
from sqlalchemy import select

from bot import routes, systems
from bot.context import Context
from bot.core import Core
from bot.documents import DamagedDocument, Doc
from bot.messages import Outgoing
from bot.router import CommandTable
from rules.kits.game_system import GameSystem
from tests.orm import Character, CharacterState, sessions
from tests.support import Table, store_document, stored_document

TOYS = CommandTable("toys")


@dataclass
class PoolValue:
    points: int = 0
    log: list[str] = field(default_factory=list)


def _pool_from_schema_1(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 stored ``{"n": 3}``; schema 2 stores ``{"points": 3, "log": []}``."""
    return {"points": data.get("n", 0), "log": []}


POOL = Doc("toys.pool", PoolValue, PoolValue, schema=2, migrations={1: _pool_from_schema_1})


@dataclass
class BagValue:
    items: list[str] = field(default_factory=list)


BAG = Doc("toys.bag", BagValue, BagValue, per_character=True)


@TOYS.command("pool")
async def pool(ctx: Context) -> list[Outgoing]:
    value = await ctx.uow.load(POOL)
    if ctx.args == "add":
        value.points += 1
        ctx.uow.save(POOL, value)
        again = await ctx.uow.load(POOL)  # a load after a save reads the saved value
        return [ctx.reply(f"{again.points} {again.log}")]
    if ctx.args == "forget":
        value.points += 100  # changed, never saved: a document is saved explicitly
    return [ctx.reply(f"{value.points} {value.log}")]


@TOYS.command("bag")
async def bag(ctx: Context) -> list[Outgoing]:
    sheet = await ctx.uow.active_sheet(ctx.user)
    assert sheet is not None
    value = await ctx.uow.load(BAG, sheet)
    if ctx.args:
        value.items.append(ctx.args)
        ctx.uow.save(BAG, value, sheet)
    return [ctx.reply(", ".join(value.items))]


@pytest.fixture
async def toys(core: Core):
    routes.register(systems.SystemPlugin(GameSystem("toys", ("Toys",)), TOYS,
                                         documents=(POOL, BAG)))
    yield core
    routes.unregister("toys")


async def test_an_old_document_is_migrated_on_read_and_stored_in_the_new_shape_on_save(
        toys: Core) -> None:
    table = Table(toys)
    await table.text("gm", ".system toys")
    await store_document(toys, "toys.pool", {"n": 3}, 1)
    assert await table.text("u", ".pool") == "3 []"
    # a read changes nothing stored
    assert await stored_document(toys, "toys.pool") == ({"n": 3}, 1)
    assert await table.text("u", ".pool add") == "4 []"
    assert await stored_document(toys, "toys.pool") == ({"points": 4, "log": []}, 2)


async def test_a_document_changed_but_not_saved_is_not_stored(toys: Core) -> None:
    table = Table(toys)
    await table.text("gm", ".system toys")
    assert await table.text("u", ".pool add") == "1 []"
    assert await table.text("u", ".pool forget") == "101 []"
    assert await table.text("u", ".pool") == "1 []"
    assert await stored_document(toys, "toys.pool") == ({"points": 1, "log": []}, 2)


@pytest.mark.parametrize(("data", "schema", "detail"), [
    ({"points": "many", "log": []}, 2, "points"),
    ({"points": 1}, 3, "newer schema"),
])
async def test_a_damaged_or_newer_document_is_refused_by_name_and_left_alone(
        toys: Core, data: dict[str, Any], schema: int, detail: str,
        caplog: pytest.LogCaptureFixture) -> None:
    """The table is told which document; the operator's log says what is wrong with it
    (and which command met it)."""
    table = Table(toys)
    await table.text("gm", ".system toys")
    await table.text("gm", ".lang en")
    await store_document(toys, "toys.pool", data, schema)
    with caplog.at_level(logging.ERROR, logger="bot.dispatcher"):
        assert await table.text("u", ".pool add") == (
            "⚠ The stored toys.pool of this table cannot be read (console:table); nothing "
            "was changed. Please tell the operator.")
    assert await stored_document(toys, "toys.pool") == (data, schema)
    with pytest.raises(DamagedDocument, match=detail) as caught:
        POOL.read(data, schema, "console:table")
    assert [r.getMessage() for r in caplog.records if r.name == "bot.dispatcher"] == [
        f"a pool command met a damaged document: {caught.value}"]


def test_a_damaged_document_names_the_field_never_the_value() -> None:
    with pytest.raises(DamagedDocument) as caught:
        POOL.read({"points": "秘密的數字", "log": []}, 2, "console:t")
    assert "秘密的數字" not in str(caught.value)
    assert caught.value.key == "toys.pool"
    assert caught.value.where == "console:t"


@pytest.mark.parametrize(("data", "detail"), [
    ({"points": "many"},
     "1 invalid field(s): points: Input should be a valid integer, unable to parse string "
     "as an integer"),
    ({"points": 1, "log": ["a", 7, 8]},
     "2 invalid field(s): log.1: Input should be a valid string"),
])
def test_a_damaged_document_says_where_the_first_error_is(
        data: dict[str, Any], detail: str) -> None:
    """The operator's clue: how many fields fail, the first one's path (list places
    joined by dots) and pydantic's message for it."""
    with pytest.raises(DamagedDocument) as caught:
        POOL.read(data, 2, "console:t")
    assert caught.value.detail == detail


def test_a_value_that_is_not_an_object_is_damaged_at_the_root() -> None:
    numbers = Doc("toys.numbers", list[int], list, schema=1)
    with pytest.raises(DamagedDocument) as caught:
        numbers.read({"a": 1}, 1, "console:t")
    assert caught.value.detail == "1 invalid field(s): (root): Input should be a valid list"


def test_a_missing_migration_step_is_refused() -> None:
    gap = Doc("toys.gap", PoolValue, PoolValue, schema=3, migrations={2: lambda d: d})
    with pytest.raises(DamagedDocument) as caught:
        gap.read({"n": 1}, 1, "console:t")
    assert (caught.value.where, caught.value.key, caught.value.detail) == (
        "console:t", "toys.gap", "no migration from schema 1")


def test_a_migration_that_cannot_read_the_stored_value_is_a_damaged_document() -> None:
    needs_n = Doc("toys.needs_n", PoolValue, PoolValue, schema=2,
                  migrations={1: lambda data: {"points": data["n"]}})
    with pytest.raises(DamagedDocument) as caught:
        needs_n.read({"points": 3}, 1, "console:t")
    assert (caught.value.where, caught.value.key, caught.value.detail) == (
        "console:t", "toys.needs_n", "migration from schema 1 failed (KeyError)")


def test_a_document_two_schemas_old_takes_every_step_in_turn() -> None:
    two_steps = Doc("toys.two_steps", PoolValue, PoolValue, schema=3, migrations={
        1: lambda data: {"points": data["n"]},
        2: lambda data: {"points": data["points"] * 10, "log": ["from 2"]}})
    assert two_steps.read({"n": 4}, 1, "console:t") == PoolValue(40, ["from 2"])
    assert two_steps.read({"points": 4}, 2, "console:t") == PoolValue(40, ["from 2"])


def test_a_system_may_only_own_documents_in_its_namespace() -> None:
    stray = Doc("plurk.stray", PoolValue, PoolValue)
    with pytest.raises(ValueError, match="not toys"):
        systems.check(systems.SystemPlugin(GameSystem("toys", ("Toys",)), TOYS,
                                           documents=(stray,)))
    for plugin in systems.plugins().values():
        assert all(doc.key.startswith(f"{plugin.id}.") for doc in plugin.documents)


async def test_sheet_documents_move_with_the_sheet_on_campaign_bind(toys: Core) -> None:
    thread = Table(toys, "thread")
    await thread.text("gm", ".gm")
    await thread.text("gm", ".system toys")
    await thread.text("alice", ".st 力量 3")
    assert await thread.text("alice", ".bag 繩子") == "繩子"
    await thread.text("gm", ".campaign bind 夜")
    assert await thread.text("alice", ".bag 火把") == "繩子, 火把"
    async with sessions(toys) as session:
        [(owner, key, data)] = (await session.execute(
            select(Character.owner, CharacterState.key, CharacterState.data)
            .join(Character, Character.id == CharacterState.character_id))).all()
    assert (owner, key, data) == ("alice", "toys.bag", {"items": ["繩子", "火把"]})


@dataclass
class Moment:
    at: datetime
    tags: tuple[str, ...] = ()


def test_a_document_is_dumped_as_json_values() -> None:
    """What is stored is JSON: a date as its ISO text, a tuple as a list."""
    moment = Doc("toys.moment", Moment, lambda: Moment(datetime(2000, 1, 1)))
    data = moment.dump(Moment(datetime(2026, 12, 2, 6, 30), ("a", "b")))
    assert data == {"at": "2026-12-02T06:30:00", "tags": ["a", "b"]}
    assert moment.read(data, 1, "console:t") == Moment(datetime(2026, 12, 2, 6, 30), ("a", "b"))


def test_a_document_whose_value_is_no_object_cannot_be_dumped() -> None:
    numbers = Doc("toys.numbers", list[int], list, schema=1)
    with pytest.raises(TypeError) as caught:
        numbers.dump([1, 2])
    assert str(caught.value) == "toys.numbers: a document stores a JSON object, not <class 'list'>"
