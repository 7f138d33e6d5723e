"""The writer (bot/store/writer.py) with the working set and the unit of work: many
commands share one commit, each fails alone, no reply is returned before the commit
that holds its work; and what that must never break — durability across a kill -9, a
failed command leaving nothing half-changed in memory, other processes' changes seen,
reads that read nothing from the database (issue 11), a message id claimed once."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, Engine, event, insert, select
from sqlalchemy import text as sql_text
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from adapters.config import Settings
from bot.context import Context
from bot.core import Core
from bot.errors import CommandError
from bot.kits.acting import NICKNAMES
from bot.messages import Incoming, Outgoing
from bot.routes import router as routes
from bot.store import db
from bot.store import statements as sql
from bot.store.connection import runner_for
from bot.store.writer import BatchFailed, ConnectionLink, Unit, Writer
from tests.conftest import make_settings
from tests.support import Table

ROOT = Path(__file__).resolve().parents[2]
UPDATED = "的數值已更新"
CONFLICT = "⚠ 同時有其他指令修改了相同資料，這次的指令沒有生效，請再試一次。"
INTERNAL = "⚠ 處理指令時發生內部錯誤，沒有任何資料被更改。請稍後再試或通知管理者。"

Handler = Callable[[Context], Awaitable[list[Outgoing]]]


def db_file(settings: Settings) -> str:
    return settings.resolved_database_url().split("///", 1)[-1]


def is_sqlite(settings: Settings) -> bool:
    return settings.resolved_database_url().startswith("sqlite")


@contextmanager
def handler_of(body: str, wrap: Callable[[Handler], Handler]) -> Iterator[None]:
    """Replace the handler of the command ``body`` (in a plurk table) for the test."""
    found = routes().resolve(body, "plurk")
    assert found is not None
    cmd = found[0]
    original = cmd.handler
    object.__setattr__(cmd, "handler", wrap(original))  # Command is frozen
    try:
        yield
    finally:
        object.__setattr__(cmd, "handler", original)


STRENGTH = re.compile(r"力量:(?:\d+→)?(\d+)")


def strength(text: str) -> int:
    """力量 in a `.st` reply or `.st show` (whatever the sheet's layout around it)."""
    found = STRENGTH.search(text)
    assert found is not None, text
    return int(found.group(1))


async def stored_strength(core: Core, channel: str, user: str = "alice") -> int:
    return strength(await Table(core, channel).text(user, ".st show"))


async def scalar(core: Core, statement: str, **params: Any) -> Any:
    """One value read on the core's pooled engine (outside the writer)."""
    async with core.engine.connect() as connection:
        return (await connection.execute(sql_text(statement), params)).scalar()


async def sheet_names(core: Core) -> list[str]:
    async with core.engine.connect() as connection:
        return list((await connection.execute(
            select(sql.SHEETS.c.name).order_by(sql.SHEETS.c.id))).scalars())


@contextmanager
def statements(core: Core) -> Iterator[list[tuple[str, bool]]]:
    """Every statement either engine of ``core`` sends (the pooled one and the
    writer's), as (its first words, sent as an ``executemany``)."""
    seen: list[tuple[str, bool]] = []

    def record(_conn: Any, _cursor: Any, statement: str, _params: Any, _context: Any,
               executemany: bool) -> None:
        seen.append((kind(statement), executemany))
    engines = [core.engine.sync_engine, core.writer.sync_engine]
    for engine in engines:
        event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        for engine in engines:
            event.remove(engine, "before_cursor_execute", record)


def kind(statement: str) -> str:
    """``INSERT INTO outbox``, ``UPDATE characters``, ``SAVEPOINT``, ``PRAGMA
    data_version``: what a statement is and the table it writes."""
    words = statement.split()
    if words[0] in ("INSERT", "DELETE"):
        return " ".join(words[:3])
    if words[0] == "UPDATE":
        return " ".join(words[:2])
    if "SAVEPOINT" in words:
        return " ".join(words[: words.index("SAVEPOINT") + 1])
    return " ".join(words)


BATCH_START = [("BEGIN IMMEDIATE", False), ("PRAGMA data_version", False)]
CLAIM = ("INSERT INTO processed_messages", False)
OUTBOX = ("INSERT INTO outbox", False)
EPOCH_LOCK = ("SELECT n FROM store_epoch WHERE id = 1 FOR UPDATE", False)
EPOCH_BUMP = ("UPDATE store_epoch", False)


# ------------------------------------------------------------------ a batch and its commands
@pytest.mark.parametrize("wrote", [False, True], ids=["changes only", "wrote at once"])
@pytest.mark.parametrize("failure", ["exception", "refusal"])
async def test_a_command_failing_inside_a_batch_leaves_its_batch_mates_work(
        settings: Settings, failure: str, wrote: bool) -> None:
    """Three commands in one batch; the middle one changes its sheet (and, ``wrote at
    once``, first creates a sheet in a savepoint of its own) and fails: its work is
    gone, its batch-mates' is committed with the batch, and their ids recorded."""
    core = await Core.open(settings)
    try:
        for channel in ("a", "b", "c"):
            await Table(core, channel).text("alice", ".st 力量 0")

        def wrap(original: Handler) -> Handler:
            async def handler(ctx: Context) -> list[Outgoing]:
                outs = await original(ctx)
                if ctx.incoming.channel == "b":
                    if wrote:
                        await ctx.uow.add_sheet(ctx.user, "半途")
                    if failure == "refusal":
                        raise CommandError("core.error.conflict")
                    raise RuntimeError("a bug after the change")
                return outs
            return handler

        core.writer.window = 0.5  # hold the batch open: all three commands join it
        commits = core.writer.commits
        with handler_of("st 力量+1", wrap):
            replies = await asyncio.gather(*(core.handle(Incoming(
                "console", channel, "alice", ".st 力量+1", display_name="alice",
                message_id=f"id-{channel}")) for channel in ("a", "b", "c")))
        assert core.writer.commits == commits + 1  # one batch held the three
        core.writer.window = 0.0
        texts = [outs[0].text for outs in replies]
        assert UPDATED in texts[0] and strength(texts[0]) == 1
        assert UPDATED in texts[2] and strength(texts[2]) == 1
        assert texts[1] == (CONFLICT if failure == "refusal" else INTERNAL)
        assert await stored_strength(core, "a") == 1
        assert await stored_strength(core, "b") == 0
        assert await stored_strength(core, "c") == 1
        # the batch-mates' ids were recorded: a replay is answered by no one
        for channel in ("a", "c"):
            assert await core.handle(Incoming("console", channel, "alice", ".st 力量+1",
                                              display_name="alice",
                                              message_id=f"id-{channel}")) == []
    finally:
        await core.close()
    with sqlite3.connect(db_file(settings)) as conn:
        kept = conn.execute("SELECT count(*) FROM outbox").fetchone()[0]
        ids = {r[0] for r in conn.execute("SELECT message_id FROM processed_messages")}
        names = [r[0] for r in conn.execute("SELECT name FROM characters ORDER BY id")]
    # a refusal is kept with its id; an internal error is answered but records nothing
    # (the player may send it again)
    refused = failure == "refusal"
    assert ids == ({"id-a", "id-b", "id-c"} if refused else {"id-a", "id-c"})
    assert kept == 3 + 2 + 3 + refused  # `.st 力量 0` ×3, a and c, `.st show` ×3
    assert names == ["alice"] * 3  # no 半途


async def test_the_same_message_id_twice_in_one_batch_answers_once(core: Core) -> None:
    """Two channels of one platform send the same message id while a batch is open:
    the first is answered and its change stored; the second is a replay at once —
    answered by no one, its change dropped."""
    for channel in ("a", "b"):
        await Table(core, channel).text("alice", ".st 力量 0")
    core.writer.window = 0.5
    commits = core.writer.commits
    replies = await asyncio.gather(*(core.handle(Incoming(
        "console", channel, "alice", ".st 力量+1", display_name="alice",
        message_id="same")) for channel in ("a", "b")))
    core.writer.window = 0.0
    assert core.writer.commits == commits + 1
    assert [len(outs) for outs in replies] == [1, 0]
    assert strength(replies[0][0].text) == 1
    assert await stored_strength(core, "a") == 1
    assert await stored_strength(core, "b") == 0
    assert await scalar(core, "SELECT count(*) FROM processed_messages") == 1


async def test_the_same_message_id_twice_in_one_batch_answers_once_when_one_wrote_at_once(
        core: Core) -> None:
    """The same, the second command creating a sheet in a savepoint of its own (its
    message id is claimed in that savepoint): one of the two is answered, and only
    the work of the one answered is stored."""
    for channel in ("a", "b"):
        await Table(core, channel).text("alice", ".st 力量 0")
    core.writer.window = 0.5
    replies = await asyncio.gather(*(core.handle(Incoming(
        "console", channel, "alice", text, display_name="alice", message_id="same"))
        for channel, text in (("a", ".st 力量+1"), ("b", ".pc new 新角"))))
    core.writer.window = 0.0
    answered = [channel for channel, outs in zip("ab", replies, strict=True) if outs]
    assert len(answered) == 1 and all(len(outs) <= 1 for outs in replies)
    assert await stored_strength(core, "a") == (1 if answered == ["a"] else 0)
    assert await sheet_names(core) == ["alice", "alice"] + (["新角"] * (answered == ["b"]))
    assert await scalar(core, "SELECT count(*) FROM processed_messages") == 1


@pytest.mark.parametrize("fail_times", [1, 2])
async def test_a_conflict_is_tried_again_once_with_the_same_dice(
        core: Core, fail_times: int) -> None:
    """A command that meets a row another process created first (an IntegrityError in
    its savepoint) runs once more, with the dice of its first run (one scripted die is
    enough); a second conflict is answered as one, and nothing of either run stays."""
    await Table(core).text("alice", ".st 力量 1")
    rolled: list[int] = []

    def wrap(original: Handler) -> Handler:
        async def handler(ctx: Context) -> list[Outgoing]:
            rolled.append(ctx.dice.roll(100))
            outs = await original(ctx)
            if len(rolled) <= fail_times:  # the table's own row, created "again"
                await ctx.uow.link.write_now(insert(sql.CHANNELS), {
                    "platform": "console", "channel_key": "table", "system": "plurk"})
            return outs
        return handler

    with handler_of("st 力量+1", wrap):
        text = await Table(core).text("alice", ".st 力量+1", dice=[42])
    assert rolled == [42, 42]
    if fail_times == 1:
        assert text.endswith("力量:1→2")
        assert await stored_strength(core, "table") == 2
    else:
        assert text == CONFLICT
        assert await stored_strength(core, "table") == 1
    assert await scalar(core, "SELECT count(*) FROM channels") == 1


async def test_no_reply_is_returned_before_its_commit(
        settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every reply ``handle`` returns is already visible to another connection of the
    database file (committed), even while commits are slow."""
    core = await Core.open(settings)

    def slow_commit(*_args: Any) -> None:
        time.sleep(0.03)  # in the writer's thread: commands keep arriving meanwhile

    event.listen(core.writer.sync_engine, "commit", slow_commit)
    reader = sqlite3.connect(db_file(settings))
    checked = 0
    try:
        async def player(channel: str) -> None:
            nonlocal checked
            table = Table(core, channel)
            for n in range(15):
                text = ".st 力量+1" if n else ".st 力量 0"
                [out] = await table.say("alice", text)
                # no await between the reply and this read: what the reply announces
                # must already be committed
                row = reader.execute("SELECT message FROM outbox WHERE id = ?",
                                     (out.outbox_id,)).fetchone()
                assert row is not None, (channel, n, out.text)
                if n:
                    assert UPDATED in out.text and strength(out.text) == n
                stored = reader.execute(
                    "SELECT stats FROM characters c JOIN channels t ON t.id = c.channel_id"
                    " WHERE t.channel_key = ?", (channel,)).fetchone()
                assert stored is not None and json.loads(stored[0])["力量"] == n, (channel, n)
                checked += 1
        await asyncio.gather(*(player(f"c{i}") for i in range(10)))
    finally:
        reader.close()
        event.remove(core.writer.sync_engine, "commit", slow_commit)
        await core.close()
    assert checked == 150
    assert core.writer.commits < 150  # commands shared commits


# ------------------------------------------------------------------ statements
async def test_reads_read_nothing_from_the_database_after_warm_up(core: Core) -> None:
    """`.st show`, `.help` and a plain `.r` answer from memory: the only statements are
    the batch's own check and the two inserts that make the reply durable (its
    message id and its outbox row) — no SELECT, on no connection."""
    table = Table(core)
    await table.text("gm", ".gm")
    await table.text("alice", ".st 力量 3")
    reads = [".st show", ".help", ".r 1d20", ".r 2d6+1", ".st show"]
    for n, text in enumerate(reads):  # warm-up
        await table.say("alice", text, message_id=f"warm-{n}")
    with statements(core) as seen:
        for n, text in enumerate(reads * 4):
            outs = await table.say("alice", text, message_id=f"read-{n}")
            assert outs and not outs[0].text.startswith("⚠"), outs
    assert seen == [*BATCH_START, CLAIM, OUTBOX] * len(reads) * 4


@pytest.mark.parametrize(("text", "change"), [
    (".st 體力-1", "UPDATE characters"),
    (".ap spend 移動", "UPDATE channel_state"),
])
async def test_a_write_is_the_claim_one_update_and_the_outbox_insert(
        core: Core, text: str, change: str) -> None:
    """A sheet's change, a document's: one UPDATE between the batch's claim of the
    message id and its outbox row."""
    table = Table(core)
    await table.text("gm", ".gm")
    await table.text("gm", ".ap set 1000")
    await table.text("alice", ".st 體力 100")
    for n in range(3):
        await table.say("alice", text, message_id=f"warm-{n}")
    with statements(core) as seen:
        [out] = await table.say("alice", text, message_id="w")
    assert not out.text.startswith("⚠"), out
    assert seen == [*BATCH_START, CLAIM, (change, False), OUTBOX]


async def test_a_write_at_once_is_a_savepoint_released_when_the_command_ends(
        core: Core) -> None:
    """`.pc new` needs its sheet's id at once: the INSERT and the message id's claim go
    in a savepoint of the command's own, released when the command ends (not left
    open until the batch commits); the batch then claims nothing more."""
    table = Table(core)
    await table.text("alice", ".st 力量 1")
    with statements(core) as seen:
        [out] = await table.say("alice", ".pc new 艾莉絲", message_id="new")
    assert not out.text.startswith("⚠"), out
    assert seen == [*BATCH_START, ("SAVEPOINT", False), ("INSERT INTO characters", False),
                    CLAIM, ("RELEASE SAVEPOINT", False),
                    ("UPDATE characters", False), OUTBOX]  # the old sheet put aside


async def test_a_batch_sends_the_changes_of_one_shape_as_one_statement(
        any_settings: Settings) -> None:
    """Three channels' `.st` in one batch: one claim for the three message ids and the
    three sheets' UPDATE as one ``executemany``; on PostgreSQL the batch starts by
    locking ``store_epoch`` and ends by bumping it (it changed something)."""
    core = await Core.open(any_settings)
    try:
        for channel in "abc":
            await Table(core, channel).text("alice", ".st 體力 100")
            await Table(core, channel).say("alice", ".st 體力-1", message_id=f"w-{channel}")
        core.writer.window = 0.5
        with statements(core) as seen:
            replies = await asyncio.gather(*(Table(core, channel).say(
                "alice", ".st 體力-1", message_id=f"id-{channel}") for channel in "abc"))
        core.writer.window = 0.0
        assert [len(outs) for outs in replies] == [1, 1, 1]
        changes = [(CLAIM[0], True), ("UPDATE characters", True)]
        assert [s for s in seen if s[0] != OUTBOX[0]] == (
            [*BATCH_START, *changes] if is_sqlite(any_settings)
            else [EPOCH_LOCK, *changes, EPOCH_BUMP])
    finally:
        await core.close()


# ------------------------------------------------------------------ replays
async def test_a_replay_is_answered_by_no_one_and_writes_nothing(core: Core) -> None:
    table = Table(core)
    [first] = await table.say("alice", ".st 力量 5", message_id="once")
    assert UPDATED in first.text
    with statements(core) as seen:
        assert await table.say("alice", ".st 力量 9", message_id="once") == []
        assert await table.say("alice", ".st show", message_id="once") == []
    assert seen == []
    assert await stored_strength(core, "table") == 5
    # a message that is no command, in a table that logs: recorded once, no error
    await table.text("gm", ".log on 第一夜")
    assert await table.say("bob", "大家好", message_id="chat") == []
    assert await table.say("bob", "大家好", message_id="chat") == []
    assert await scalar(core, "SELECT count(*) FROM game_log_lines WHERE text = '大家好'") == 1


@pytest.mark.parametrize("remembered", [True, False], ids=["in memory", "forgotten"])
async def test_a_resend_runs_no_handler_while_remembered_and_is_still_dropped_when_not(
        core: Core, remembered: bool) -> None:
    table = Table(core)
    [first] = await table.say("alice", ".r 1d20", dice=[17], message_id="m1")
    assert first.text.endswith("= 17")
    outbox = await scalar(core, "SELECT count(*) FROM outbox")
    if not remembered:  # as after a restart: only the store knows the id
        core.dispatcher._answered.clear()
        # the handler runs again (its die is rolled), then its work is dropped
        assert await table.say("alice", ".r 1d20", dice=[3], message_id="m1") == []
    else:  # no die scripted: rolling one would fail the test
        assert await table.say("alice", ".r 1d20", dice=[], message_id="m1") == []
    assert await scalar(core, "SELECT count(*) FROM outbox") == outbox


async def test_a_replay_of_a_command_that_wrote_at_once_leaves_no_row(core: Core) -> None:
    """A resend the process no longer remembers, of a command that creates a sheet (in
    its savepoint): the savepoint is undone with the claim that found the id — no
    sheet, in the database or in memory."""
    table = Table(core)
    assert await table.text("alice", ".pc new 甲") == "已建立角色「甲」並設為使用中。"
    [made] = await table.say("alice", ".pc new 乙", message_id="m")
    assert "乙" in made.text
    core.dispatcher._answered.clear()
    assert await table.say("alice", ".pc new 丙", message_id="m") == []
    assert await sheet_names(core) == ["甲", "乙"]
    listed = await table.text("alice", ".pc list")
    assert "乙" in listed and "丙" not in listed
    assert await table.text("alice", ".pc new 丙") == "已建立角色「丙」並設為使用中。"


async def test_a_message_id_is_claimed_once_on_either_database(any_settings: Settings) -> None:
    """The claim (``INSERT … ON CONFLICT DO NOTHING RETURNING``): the first message
    with an id is answered and its id recorded; a resend the process no longer
    remembers is answered by no one and changes nothing."""
    core = await Core.open(any_settings)
    try:
        table = Table(core)
        [first] = await table.say("alice", ".st 力量 5", message_id="once")
        assert UPDATED in first.text and strength(first.text) == 5
        core.dispatcher._answered.clear()  # as after a restart: only the store knows the id
        assert await table.say("alice", ".st 力量 9", message_id="once") == []
        assert await stored_strength(core, "table") == 5
        async with core.engine.connect() as connection:
            claimed = (await connection.execute(select(
                sql.PROCESSED.c.platform, sql.PROCESSED.c.message_id))).all()
        assert [tuple(row) for row in claimed] == [("console", "once")]
    finally:
        await core.close()


# ------------------------------------------------------------------ what is kept in memory
@pytest.mark.parametrize("how", ["in place", "assigned", "wrote at once"])
async def test_a_failed_command_leaves_no_half_changed_value_in_memory(
        settings: Settings, how: str) -> None:
    """The handler changes the sheet (in place, by assignment, or after creating a
    sheet in its savepoint), then is refused: the next command of the same process
    (reading from memory) sees the sheet as stored, not the failed change."""
    core = await Core.open(settings)
    try:
        await Table(core).text("alice", ".st 力量 1")
        assert await stored_strength(core, "table") == 1

        def wrap(_original: Handler) -> Handler:
            async def handler(ctx: Context) -> list[Outgoing]:
                sheet = await ctx.uow.active_sheet(ctx.user)
                assert sheet is not None
                if how == "assigned":
                    sheet.stats = {**sheet.stats, "力量": 77}
                else:
                    sheet.stats["力量"] = 77
                if how == "wrote at once":
                    await ctx.uow.add_sheet(ctx.user, "半途")
                raise CommandError("core.error.conflict")
            return handler

        with handler_of("st 力量+1", wrap):
            [out] = await Table(core).say("alice", ".st 力量+1", message_id="fails")
        assert out.text == CONFLICT
        assert await stored_strength(core, "table") == 1
        assert (await Table(core).text("alice", ".st 力量+1")).endswith("力量:1→2")
        assert "半途" not in await Table(core).text("alice", ".pc list")
    finally:
        await core.close()
    core = await Core.open(settings)  # and the database says the same
    try:
        assert await stored_strength(core, "table") == 2
        assert await sheet_names(core) == ["alice"]
    finally:
        await core.close()


async def test_a_sheets_stats_changed_in_place_are_stored_and_read_after_a_restart(
        settings: Settings) -> None:
    """``sheet.stats["力量"] = 55`` is a change like any other: the unit of work
    compares the command's copy with what it read, and writes it."""
    core = await Core.open(settings)
    try:
        await Table(core).text("alice", ".st 力量 1")

        def wrap(_original: Handler) -> Handler:
            async def handler(ctx: Context) -> list[Outgoing]:
                sheet = await ctx.uow.active_sheet(ctx.user)
                assert sheet is not None
                sheet.stats["力量"] = 55
                return [ctx.reply("done")]
            return handler

        with handler_of("st 力量+1", wrap):
            assert await Table(core).text("alice", ".st 力量+1") == "done"
        assert await stored_strength(core, "table") == 55
    finally:
        await core.close()
    core = await Core.open(settings)
    try:
        assert await stored_strength(core, "table") == 55
    finally:
        await core.close()


async def test_a_document_changed_but_not_saved_is_not_stored(settings: Settings) -> None:
    """Documents are saved explicitly (``uow.save``): a value loaded and changed without
    it is stored nowhere — not in the database, not in the working set."""
    core = await Core.open(settings)
    try:
        table = Table(core)
        assert await table.text("alice", ".nn 小愛") == "好的，之後沒有角色卡時稱呼你為 小愛。"

        def wrap(_original: Handler) -> Handler:
            async def handler(ctx: Context) -> list[Outgoing]:
                names = await ctx.uow.load(NICKNAMES)
                names.names[ctx.user] = "偷改"
                return [ctx.reply("done")]
            return handler

        with handler_of("nn", wrap):
            assert await table.text("alice", ".nn 別名") == "done"
        assert "小愛" in await table.text("alice", ".nn")
    finally:
        await core.close()
    core = await Core.open(settings)
    try:
        assert "小愛" in await Table(core).text("alice", ".nn")
        async with core.engine.connect() as connection:
            stored = (await connection.execute(select(sql.STATES.c.data).where(
                sql.STATES.c.key == NICKNAMES.key))).scalar()
        assert stored == {"names": {"alice": "小愛"}}
    finally:
        await core.close()


async def test_a_command_that_wrote_at_once_and_was_refused_leaves_no_row(
        core: Core) -> None:
    """`.pc new` inserts its sheet at once (in its savepoint); refused after that, the
    savepoint is undone: no row, and the same name can be made next."""
    table = Table(core)
    await table.text("alice", ".pc new 甲")

    def wrap(original: Handler) -> Handler:
        async def handler(ctx: Context) -> list[Outgoing]:
            await original(ctx)
            raise CommandError("core.error.conflict")
        return handler

    with handler_of("pc new", wrap):
        assert await table.text("alice", ".pc new 乙") == CONFLICT
    assert await sheet_names(core) == ["甲"]
    listed = await table.text("alice", ".pc list")
    assert "▶ 甲" in listed and "乙" not in listed  # 甲 still the active one
    assert await table.text("alice", ".pc new 乙") == "已建立角色「乙」並設為使用中。"
    assert await sheet_names(core) == ["甲", "乙"]


async def test_a_command_that_moved_a_table_drops_the_working_set(core: Core) -> None:
    """`.campaign bind` moves the channel's sheets to the campaign's table: once it is
    committed the working set is dropped (once), and the next command plays at the
    campaign, with the sheet that moved."""
    table = Table(core)
    await table.text("gm", ".gm")
    await table.text("alice", ".st 力量 4")
    await Table(core, "other").text("bob", ".st 力量 9")
    cache = core.writer.cache
    assert len(cache.tables) == 2
    cleared = cache.cleared
    assert "龍穴" in await table.text("gm", ".campaign bind 龍穴")
    assert cache.cleared == cleared + 1
    assert len(cache.tables) == 0 and len(cache.bindings) == 0
    assert await stored_strength(core, "table") == 4
    assert await core.table_key("console", "table") == "campaign:龍穴"
    assert [key for _, key in cache.tables] == ["campaign:龍穴"]


async def test_a_kept_private_message_in_the_batch_of_a_table_change_keeps_the_change(
        core: Core) -> None:
    """`.lang en` and a private message the platform refused (kept for `.gm pending`)
    at the same table, in one batch: the table's language is English afterwards, in
    memory as in the database."""
    table = Table(core)
    await table.text("gm", ".gm")
    await table.text("alice", ".st 力量 1")
    core.writer.window = 0.5
    lang = asyncio.create_task(table.say("gm", ".lang en"))
    await asyncio.sleep(0.1)  # its work done, it waits for the batch's commit
    await core.private_delivery_failed("console", Outgoing(
        "private", "table", "a secret", user="alice"))
    assert [out.text for out in await lang] == ["This channel now replies in English."]
    core.writer.window = 0.0
    assert await scalar(core, "SELECT locale FROM channels") == "en"
    assert await table.text("alice", ".st show") == "alice: STR:1"


async def test_the_working_set_is_bounded_and_still_right(core: Core) -> None:
    core.writer.cache.limit = 3
    for round_ in range(3):
        for c in range(8):
            await Table(core, f"c{c}").text("alice", f".st 力量 {10 * c + round_}")
            assert len(core.writer.cache.tables) <= 3
    for c in range(8):
        assert await stored_strength(core, f"c{c}") == 10 * c + 2
    assert [key for _, key in core.writer.cache.tables] == ["c5", "c6", "c7"]


async def test_the_working_set_outlives_its_batch_on_either_database(
        any_settings: Settings) -> None:
    """Nothing else wrote between two batches (SQLite's data_version, PostgreSQL's
    store_epoch unchanged): the working set is kept from one batch to the next."""
    core = await Core.open(any_settings)
    try:
        writer = core.writer
        table = Table(core)
        await table.text("alice", ".st 力量 1")
        cleared, commits, hits = writer.cache.cleared, writer.commits, writer.cache.hits
        for n in range(3):
            assert strength(await table.text("alice", ".st show")) == 1, n
        assert writer.commits == commits + 3
        assert writer.cache.cleared == cleared
        assert writer.cache.hits == hits + 3
    finally:
        await core.close()


# ------------------------------------------------------------------ other processes
async def test_another_process_changes_are_seen(any_settings: Settings) -> None:
    """Each process keeps the sheet in memory; what the other one writes is read again
    before its next command (SQLite: `PRAGMA data_version`; PostgreSQL: the
    `store_epoch` row) — never an old copy, never a lost update."""
    first, second = await Core.open(any_settings), await Core.open(any_settings)
    try:
        await Table(first).text("alice", ".st 力量 1")
        await Table(first).text("gm", ".gm")
        await Table(first).text("gm", ".ap set 20")
        for n in range(2, 8):
            writer, reader = (first, second) if n % 2 else (second, first)
            assert (await Table(writer).text("alice", ".st 力量+1")).endswith(f"→{n}")
            assert await stored_strength(reader, "table") == n
            [ap] = await Table(reader).say("alice", ".ap spend 移動")
            assert f"→ {20 - 2 * (n - 1)}" in ap.text, ap.text
        assert await Table(second).text("gm", ".gm list") == \
            await Table(first).text("gm", ".gm list")
    finally:
        await first.close()
        await second.close()


async def test_a_sheet_another_process_made_at_once_is_seen(
        any_settings: Settings, request: pytest.FixtureRequest) -> None:
    """A sheet made by `.pc new` (an INSERT at once, in the command's savepoint, and no
    other change) in one process is seen by the other, which has the table's sheets
    in memory: alice never gets a second active sheet."""
    first, second = await Core.open(any_settings), await Core.open(any_settings)
    try:
        none = await Table(second).text("alice", ".pc list")  # its sheets now in memory
        assert "還沒有角色" in none
        assert await Table(first).text("alice", ".pc new 甲") == "已建立角色「甲」並設為使用中。"
        assert await Table(second).text("alice", ".pc list") == "你的角色：\n▶ 甲"
    finally:
        await first.close()
        await second.close()


async def test_a_process_without_group_commit_is_seen_by_one_with_it(
        any_settings: Settings) -> None:
    """A process that commits each command alone (TRPGBOT_GROUP_COMMIT off: a cap of
    one) tells the others it wrote: on PostgreSQL it bumps ``store_epoch`` in the same
    transaction, and the other process's working set is dropped before its next
    batch. SQLite needs no bump (``PRAGMA data_version`` sees every commit), and none
    is written."""
    alone = await Core.open(any_settings, group_commit=False)
    grouped = await Core.open(any_settings)
    try:
        await Table(alone).text("alice", ".st 力量 1")
        assert await stored_strength(grouped, "table") == 1  # now in its working set
        for n in (2, 3):
            assert (await Table(alone).text("alice", ".st 力量+1")).endswith(f"→{n}")
            assert await stored_strength(grouped, "table") == n
        epoch = await scalar(alone, "SELECT n FROM store_epoch")
        assert epoch == (0 if is_sqlite(any_settings) else 3)
    finally:
        await alone.close()
        await grouped.close()


async def test_a_failed_command_alone_in_its_batch_holds_no_lock(
        any_settings: Settings) -> None:
    """A command refused (or failing) with no batch-mate and no message id to record
    leaves nothing to commit: the batch it opened must not keep holding the write lock
    (SQLite) or the ``store_epoch`` row (PostgreSQL), or another process's writes wait
    until this one's next command."""
    core = await Core.open(any_settings)
    try:
        await Table(core).text("alice", ".st 力量 1")
        assert await Table(core).text("alice", ".pc switch 無名") == \
            "⚠ 找不到名為「無名」的角色。"
        await asyncio.sleep(0.05)
        if is_sqlite(any_settings):
            other = sqlite3.connect(db_file(any_settings), timeout=0.2,
                                    isolation_level=None)
            try:
                other.execute("BEGIN IMMEDIATE")  # "database is locked" while it is held
                other.execute("ROLLBACK")
            finally:
                other.close()
        else:
            async with core.engine.connect() as connection:
                await connection.execute(sql_text("SET lock_timeout = '200ms'"))
                await connection.execute(sql_text(
                    "SELECT n FROM store_epoch WHERE id = 1 FOR UPDATE"))
                await connection.rollback()
    finally:
        await core.close()


async def test_a_refused_command_alone_in_its_batch_ends_it_quietly(
        core: Core, caplog: pytest.LogCaptureFixture) -> None:
    """Its empty batch is rolled back as any transaction is: nothing to log."""
    await Table(core).text("alice", ".st 力量 1")
    with caplog.at_level(logging.DEBUG, logger="bot.store.writer"):
        assert await Table(core).text("alice", ".pc switch 無名") == \
            "⚠ 找不到名為「無名」的角色。"
    assert [r.getMessage() for r in caplog.records if r.name == "bot.store.writer"] == []
    assert await Table(core).text("alice", ".st 力量 2") == "alice 的數值已更新：力量:1→2"


async def test_after_a_failed_commit_the_next_batches_still_see_other_processes(
        settings: Settings, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """A failed commit answers the internal error and drops the batch (and the working
    set); the batch after it is a new one (it checks for other connections' commits
    again), so what another process writes later is read, never an old copy."""
    first, second = await Core.open(settings), await Core.open(settings)
    try:
        await Table(first).text("alice", ".st 力量 1")
        def disk_error(*_args: Any) -> None:
            raise OperationalError("COMMIT", {}, sqlite3.OperationalError("disk I/O error"))

        cleared = first.writer.cache.cleared
        event.listen(first.writer.sync_engine, "commit", disk_error)
        try:
            with caplog.at_level(logging.ERROR, logger="bot.store.writer"):
                assert await Table(first).text("alice", ".st 力量+1") == INTERNAL
        finally:
            event.remove(first.writer.sync_engine, "commit", disk_error)
        assert [r.getMessage() for r in caplog.records] == [
            "the commit of 1 commands failed"]
        assert first.writer.cache.cleared == cleared + 1
        assert await stored_strength(first, "table") == 1  # read again and kept
        assert (await Table(second).text("alice", ".st 力量+1")).endswith("力量:1→2")
        assert await stored_strength(first, "table") == 2
    finally:
        await first.close()
        await second.close()


async def test_after_a_failed_commit_a_command_with_a_message_id_is_run(
        any_settings: Settings) -> None:
    """The failed batch's connection is closed and its message ids are forgotten with
    it: its command, sent again, is run, and so is the next one (on PostgreSQL the
    old connection's lock on ``store_epoch`` would hold them forever); the working set
    is dropped once, not again by the next batch."""
    def disk_error(*_args: Any) -> None:
        raise OperationalError("COMMIT", {}, sqlite3.OperationalError("disk I/O error"))

    def said(text: str, message_id: str) -> Incoming:
        return Incoming("console", "table", "alice", text, "alice", message_id=message_id)
    core = await Core.open(any_settings)
    try:
        await core.handle(said(".st 觀察 5", "m0"))  # the sheet exists: no write at once
        cleared = core.writer.cache.cleared
        event.listen(core.writer.sync_engine, "commit", disk_error)
        try:
            assert [o.text for o in await core.handle(said(".st 觀察 6", "m1"))] == [
                INTERNAL]
        finally:
            event.remove(core.writer.sync_engine, "commit", disk_error)
        outs = await asyncio.wait_for(core.handle(said(".st 觀察 6", "m1")), 20)
        assert [o.text for o in outs] == ["alice 的數值已更新：觀察:5→6"]
        outs = await asyncio.wait_for(core.handle(said(".st 觀察 7", "m2")), 20)
        assert [o.text for o in outs] == ["alice 的數值已更新：觀察:6→7"]
        assert core.writer.cache.cleared == cleared + 1
    finally:
        await core.close()


# ------------------------------------------------------------------ durability
BURST = textwrap.dedent("""
    import asyncio, sys
    from bot.config import Settings
    from bot.core import Core
    from bot.messages import Incoming

    async def main() -> None:
        core = await Core.open(Settings(_env_file=None, data_dir=sys.argv[1]))
        async def say(c, n, user, text):
            outs = await core.handle(Incoming("console", f"c{c}", user, text,
                                              display_name=user, message_id=f"c{c}-{n}"))
            return outs[0].text
        for c in range(20):
            for n, (user, text) in enumerate((("alice", ".st 力量 0"), ("gm", ".gm"),
                                               ("gm", ".ap set 100000"))):
                await say(c, f"setup{n}", user, text)
        print("ready", flush=True)
        async def channel(c: int) -> None:
            for n in range(int(sys.argv[2])):
                text = ".st 力量+1" if n % 2 == 0 else ".ap spend 移動"
                print(f"c{c}\\t{n}\\t{await say(c, n, 'alice', text)}", flush=True)
        await asyncio.gather(*(channel(c) for c in range(20)))
        print("done", flush=True)
    asyncio.run(main())
""")
AP_AFTER = re.compile(r"：(\d+) → (\d+)")


def test_kill_9_during_a_burst_loses_no_acknowledged_change(tmp_path: Path) -> None:
    """20 channels × 50 commands (`.st 力量+1` on a sheet, `.ap spend` on the table's AP
    document), a real process killed with SIGKILL after 400 answers: every change it
    answered is stored after a restart (at most the one in flight per channel more),
    and every answered message id is known (a replay is answered by no one)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", BURST, str(tmp_path), "50"],
                            stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    strength_acked: dict[str, int] = {}
    ap_acked: dict[str, int] = {}
    answered: list[tuple[str, str]] = []
    assert proc.stdout is not None
    try:
        assert proc.stdout.readline().strip() == "ready"
        for line in proc.stdout:
            channel, n, text = line.rstrip("\n").split("\t", 2)
            if int(n) % 2 == 0:
                assert UPDATED in text, text
                strength_acked[channel] = strength(text)
            else:
                found = AP_AFTER.search(text)
                assert found is not None, text
                ap_acked[channel] = int(found.group(2))
            answered.append((channel, n))
            if len(answered) == 400:  # well inside the 1,000 commands
                proc.send_signal(signal.SIGKILL)
                break
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert len(answered) == 400

    async def check() -> None:
        core = await Core.open(make_settings(tmp_path))  # the file the process wrote
        try:
            for channel, value in strength_acked.items():
                assert value <= await stored_strength(core, channel) <= value + 1, channel
            for channel, left in ap_acked.items():
                [shown] = await Table(core, channel).say("gm", ".ap")
                assert shown.data is not None
                assert left - 2 <= shown.data["points"] <= left, (channel, shown.data)
            for channel, n in answered[::37]:
                assert await core.handle(Incoming(
                    "console", channel, "alice", ".st 力量+1", display_name="alice",
                    message_id=f"{channel}-{n}")) == [], (channel, n)
        finally:
            await core.close()

    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(check())
    finally:
        loop.close()


SCRIPT: list[tuple[str, str, str, list[int]]] = [
    # channel, user, text, dice
    ("t1", "gm", ".gm", []),
    ("t1", "gm", ".ap set 5", []),
    ("t1", "alice", ".pc new 艾莉絲", []),
    ("t1", "alice", ".st 力量 50 體力 10 觀察 40", []),
    ("t1", "alice", ".st 體力-3", []),
    ("t1", "alice", ".ap spend 移動", []),
    ("t1", "bob", ".ap spend 移動", []),
    ("t1", "carol", ".ap spend 移動", []),  # refused: 1 left
    ("t1", "alice", ".r 2d6+1 開鎖", [3, 4]),
    ("t1", "alice", ".rh 1d20", [17]),
    ("t1", "alice", ".st show", []),
    ("t1", "bob", ".gm add @carol", []),  # refused: bob is no GM
    ("t1", "gm", ".gm list", []),
    ("t1", "gm", ".ap", []),
    ("t2", "dave", ".lang en", []),
    ("t2", "dave", ".st 力量 1", []),
    ("t2", "dave", ".st 力量+999999999", []),  # refused: too large
    ("t2", "dave", ".r 1d20", [20]),
    ("t2", "dave", ".st show", []),
    ("t2", "dave", ".pc switch 無名", []),  # refused: no such character
    ("t3", "erin", ".gm", []),
    ("t3", "erin", ".system", []),
    ("t3", "erin", ".st 體力 3", []),
    ("t3", "erin", ".st 體力-1", []),
    ("t3", "erin", ".help st", []),
]


async def play(settings: Settings, group_commit: bool) -> dict[str, list[tuple[Any, ...]]]:
    core = await Core.open(settings, group_commit=group_commit)
    assert core.writer.cap == (200 if group_commit else 1)
    try:
        async def channel(name: str) -> list[tuple[Any, ...]]:
            table, seen = Table(core, name), list[tuple[Any, ...]]()
            for n, (where, user, text, dice) in enumerate(SCRIPT):
                if where == name:
                    outs = await table.say(user, text, dice, message_id=f"{name}-{n}")
                    seen.extend((o.to, o.channel, o.user, o.text, o.data, o.secret)
                                for o in outs)
            return seen
        names = sorted({where for where, *_ in SCRIPT})
        return dict(zip(names, await asyncio.gather(*map(channel, names)), strict=True))
    finally:
        await core.close()
        # off: every batch held one command; on: the three channels shared batches
        assert (core.writer.commits == core.writer.committed) == (not group_commit)


async def test_a_scripted_session_answers_the_same_with_group_commit_on_and_off(
        tmp_path: Path) -> None:
    off = await play(make_settings(tmp_path / "off"), group_commit=False)
    on = await play(make_settings(tmp_path / "on"), group_commit=True)
    assert on == off
    assert sum(map(len, on.values())) >= len(SCRIPT)
    assert any("⚠" in text for *_, text, _, _ in on["t1"])  # the refusals are in it


async def test_off_and_on_keep_the_same_promises(tmp_path: Path) -> None:
    """The switch (TRPGBOT_GROUP_COMMIT) and its default: off is a cap of one command
    per batch; either way a change is stored before its reply and read back."""
    assert make_settings(tmp_path / "default").group_commit is True
    off = await Core.open(make_settings(tmp_path / "off", group_commit=False))
    on = await Core.open(make_settings(tmp_path / "on"))
    try:
        assert (off.writer.cap, on.writer.cap) == (1, 200)
        for core in (off, on):
            await Table(core).text("alice", ".st 力量 2")
            assert await stored_strength(core, "table") == 2
            assert await scalar(core, "SELECT count(*) FROM outbox") == 2
    finally:
        await off.close()
        await on.close()


# ------------------------------------------------------------------ a batch that fails
async def _outbox_count(core: Core, platform: str) -> int:
    count: int = await scalar(core, "SELECT count(*) FROM outbox WHERE platform = :p",
                              p=platform)
    return count


async def _mate_waiting(writer: Writer) -> asyncio.Task[None]:
    """A batch-mate whose work (a reply of platform "mate") is in the batch and waits
    for its commit; the batch is held open half a second."""
    writer.window = 0.5
    ready = asyncio.Event()

    async def work(_link: ConnectionLink) -> tuple[None, Unit]:
        ready.set()
        return None, Unit(platform="mate", replies=[Outgoing("channel", "m", "stored")])
    mate = asyncio.create_task(writer.run(work))
    await ready.wait()  # past its work: it waits for the commit (the next run queues)
    return mate


async def test_a_change_that_fails_at_the_commit_fails_every_command_of_its_batch(
        core: Core, caplog: pytest.LogCaptureFixture) -> None:
    """A change cannot be undone alone once the batch commits: the command and every
    batch-mate get :class:`BatchFailed` with the statement's error, the operator is
    told, nothing of the batch is stored, the working set is dropped (once), and the
    next batch works."""
    writer = core.writer
    await Table(core).text("alice", ".r 1d20", dice=[5])
    mate = await _mate_waiting(writer)
    cleared = writer.cache.cleared

    async def broken(_link: ConnectionLink) -> tuple[None, Unit]:
        return None, Unit(changes=[(sql_text("INSERT INTO nowhere VALUES (1)"), {})])

    with caplog.at_level(logging.ERROR, logger="bot.store.writer"), \
            pytest.raises(BatchFailed) as failed:
        await writer.run(broken)
    assert "no such table: nowhere" in str(failed.value)
    with pytest.raises(BatchFailed) as mate_failed:
        await asyncio.wait_for(mate, 5)
    assert str(mate_failed.value) == str(failed.value)
    assert [r.getMessage() for r in caplog.records] == ["the commit of 2 commands failed"]
    writer.window = 0.0
    assert writer.cache.cleared == cleared + 1
    assert await _outbox_count(core, "mate") == 0
    assert (await Table(core).text("alice", ".r 1d20", dice=[6])).endswith("= 6")


async def test_a_command_that_loses_the_connection_fails_its_batch_mates(
        core: Core, caplog: pytest.LogCaptureFixture) -> None:
    """The connection lost while a command runs takes the batch's transaction with
    it: the command gets its own error, its batch-mates :class:`BatchFailed` when the
    batch cannot commit (their work went with it), and the next batch works on a new
    connection."""
    writer = core.writer
    await Table(core).text("alice", ".r 1d20", dice=[5])
    mate = await _mate_waiting(writer)

    async def loses(link: ConnectionLink) -> tuple[None, Unit]:
        await link.runner(lambda connection: connection.invalidate())
        raise ConnectionError("the database went away")

    with caplog.at_level(logging.ERROR, logger="bot.store.writer"):
        with pytest.raises(ConnectionError):
            await writer.run(loses)
        with pytest.raises(BatchFailed) as mate_failed:
            await asyncio.wait_for(mate, 5)
    assert "invalid transaction" in str(mate_failed.value)
    assert [r.getMessage() for r in caplog.records] == ["the commit of 1 commands failed"]
    writer.window = 0.0
    assert await _outbox_count(core, "mate") == 0
    assert (await Table(core).text("alice", ".r 1d20", dice=[6])).endswith("= 6")


async def test_a_command_that_ends_the_batchs_transaction_fails_its_batch_mates(
        core: Core) -> None:
    """A command whose work ends the batch's transaction (a rollback of the whole
    connection) leaves nothing to commit: its batch-mates get :class:`BatchFailed` at
    once rather than a commit of a transaction that is gone, nothing of theirs is
    stored, and the next command runs in a new batch."""
    writer = core.writer
    await Table(core).text("alice", ".r 1d20", dice=[5])
    mate = await _mate_waiting(writer)

    async def ends_it(link: ConnectionLink) -> tuple[None, Unit]:
        await link.runner(lambda connection: connection.rollback())
        raise RuntimeError("the work ended the transaction")

    with pytest.raises(RuntimeError):
        await writer.run(ends_it)
    with pytest.raises(BatchFailed) as mate_failed:
        await asyncio.wait_for(mate, 5)
    assert str(mate_failed.value) == "the batch's transaction was lost"
    writer.window = 0.0
    assert await _outbox_count(core, "mate") == 0
    assert (await Table(core).text("alice", ".r 1d20", dice=[6])).endswith("= 6")


async def test_a_failed_close_of_a_failed_batch_is_logged(
        core: Core, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After a failed commit the connection is closed (which rolls back); when even
    that fails the operator is told, and the command still gets the internal error."""
    await Table(core).text("alice", ".st 力量 1")
    kept: list[Connection] = []
    close = Connection.close

    def gone(*_args: Any) -> None:
        raise ConnectionError("the database went away")

    def close_fails(self: Connection) -> None:
        kept.append(self)
        raise ConnectionError("the database went away")

    event.listen(core.writer.sync_engine, "commit", gone)
    try:
        with monkeypatch.context() as patch, \
                caplog.at_level(logging.ERROR, logger="bot.store.writer"):
            patch.setattr(Connection, "close", close_fails)
            assert await Table(core).text("alice", ".st 力量+1") == INTERNAL
    finally:
        event.remove(core.writer.sync_engine, "commit", gone)
    for connection in kept:
        close(connection)  # the patched close left it checked out
    assert [r.getMessage() for r in caplog.records] == [
        "the commit of 1 commands failed", "closing the writer's failed connection"]
    assert [str(r.exc_info[1]) for r in caplog.records if r.exc_info] == [
        "the database went away"] * 2
    assert await stored_strength(core, "table") == 1


# ------------------------------------------------------------------ the writer
async def test_a_batch_stores_every_reply_with_its_outbox_id(
        any_settings: Settings, request: pytest.FixtureRequest) -> None:
    """Three commands of one batch, two replies each: every reply comes back with the
    id of its own outbox row, in order, from one INSERT (its RETURNING gives the ids on
    PostgreSQL; on SQLite the writer gives them, holding the write lock)."""
    core = await Core.open(any_settings)
    try:
        writer = core.writer

        async def command(n: int) -> list[Outgoing]:
            async def work(_link: ConnectionLink) -> tuple[list[Outgoing], Unit]:
                outs = [Outgoing("channel", f"c{n}", f"reply {n}.{k}", data={"k": k})
                        for k in range(2)]
                return outs, Unit(platform="console", replies=outs)
            return await writer.run(work)

        await Table(core).text("alice", ".r 1d20", dice=[5])  # the connection opened
        commits = writer.commits
        writer.window = 0.5
        with statements(core) as seen:
            held = await asyncio.gather(*(command(n) for n in range(3)))
        writer.window = 0.0
        assert writer.commits == commits + 1
        replies = [out for outs in held for out in outs]
        ids = [out.outbox_id for out in replies]
        assert isinstance(ids[0], int) and ids == list(range(ids[0], ids[0] + 6))
        assert [(out.channel, out.text) for out in replies] == [
            (f"c{n}", f"reply {n}.{k}") for n in range(3) for k in range(2)]
        assert [s for s in seen if s[0] == OUTBOX[0]] == [(OUTBOX[0], True)]
        async with core.engine.connect() as connection:
            rows = await connection.execute(select(
                sql.OUTBOX.c.id, sql.OUTBOX.c.platform, sql.OUTBOX.c.message,
            ).where(sql.OUTBOX.c.id.in_(ids)))
            stored = {id_: (platform, Outgoing.from_record(message))
                      for id_, platform, message in rows}
        assert stored == {
            out.outbox_id: ("console", replace(out, outbox_id=None)) for out in replies}
    finally:
        await core.close()


async def test_a_batch_that_reaches_its_cap_commits_at_once(core: Core) -> None:
    """A batch holding ``cap`` commands is committed by the command that filled it,
    without waiting for the window."""
    writer = core.writer
    writer.cap, writer.window = 1, 3.0

    async def work(_link: ConnectionLink) -> tuple[str, Unit]:
        return "done", Unit()

    commits = writer.commits
    assert await asyncio.wait_for(writer.run(work), 1.5) == "done"
    assert writer.commits == commits + 1


async def test_a_command_cancelled_in_its_batch_leaves_its_batch_mates_answered(
        core: Core) -> None:
    """A command whose caller gave up (its task cancelled while the batch waits) must
    not hold back the commands queued after it in the same batch."""
    writer = core.writer
    writer.window = 0.3

    async def work(_link: ConnectionLink) -> tuple[str, Unit]:
        return "done", Unit()

    first = asyncio.create_task(writer.run(work))
    await asyncio.sleep(0.05)
    rest = [asyncio.create_task(writer.run(work)) for _ in range(2)]
    await asyncio.sleep(0.05)
    first.cancel()
    assert await asyncio.wait_for(asyncio.gather(*rest), 3) == ["done", "done"]


async def test_a_working_set_that_cannot_settle_is_dropped_and_the_batch_still_ends(
        core: Core, caplog: pytest.LogCaptureFixture) -> None:
    """The commit stored the batch: a failure of the working set after it must neither
    hang its commands (they would wait forever) nor leave the set half updated."""
    table = Table(core)
    await table.text("alice", ".st 觀察 5")
    assert core.writer.cache.table("console", "table") is not None  # the table is kept

    def broken() -> None:
        raise RuntimeError("settle failed")

    async def work(_link: ConnectionLink) -> tuple[str, Unit]:
        return "done", Unit(changes=[], settle=broken, wrote=True)

    assert await asyncio.wait_for(core.writer.run(work), 5) == "done"
    assert "the working set could not take a committed batch; dropped" in caplog.text
    assert core.writer.cache.table("console", "table") is None  # read from the store again
    assert await table.text("alice", ".st 觀察+1") == "alice 的數值已更新：觀察:5→6"


async def test_after_the_writer_closed_the_outbox_is_cleaned_on_the_pooled_engine(
        core: Core) -> None:
    """At shutdown the acknowledged replies are deleted once more after the writer
    closed: on the pooled engine, not in a batch of the closed writer."""
    writer = core.writer
    [out] = await Table(core).say("alice", ".r 1d20", dice=[5])
    await writer.close()
    commits = writer.commits
    await core.delivered(out)
    await core.flush_acks()  # as Core.close does, without the grouping delay
    assert writer.commits == commits
    assert await _outbox_count(core, "console") == 0


async def test_closing_the_writer_waits_for_its_commit_task(core: Core) -> None:
    """The batch's commit task (here still in its window) has ended when ``close``
    returns: nothing of the writer runs after it, and the command's work is
    committed."""
    writer = core.writer
    writer.window = 0.3

    async def work(_link: ConnectionLink) -> tuple[int, Unit]:
        return 1, Unit(platform="console", replies=[Outgoing("channel", "c", "kept")])

    commits = writer.commits
    command = asyncio.ensure_future(writer.run(work))
    await asyncio.sleep(0.05)  # it waits for its batch's commit
    await writer.close()
    assert writer._committer is not None and writer._committer.done()
    assert writer.commits == commits + 1
    assert await command == 1
    assert await _outbox_count(core, "console") == 1


# ------------------------------------------------------------------ the writer's engine
async def test_the_writers_thread_runs_one_work_at_a_time(tmp_path: Path) -> None:
    """On SQLite the writer's connection is used by one thread of its own (named for a
    thread dump): a second work given meanwhile starts only once the first ended."""
    runner = runner_for(db.make_writer_engine(f"sqlite+aiosqlite:///{tmp_path}/w.db"))
    second_began = threading.Event()

    def first(_c: Connection) -> bool:
        return second_began.wait(0.3)

    def second(_c: Connection) -> str:
        second_began.set()
        return threading.current_thread().name
    try:
        overlapped, thread = await asyncio.gather(runner(first), runner(second))
    finally:
        await runner.dispose()
    assert overlapped is False
    assert thread.startswith("trpgbot-writer")


async def test_the_writers_connection_is_closed_on_its_own_thread(tmp_path: Path) -> None:
    """Opened, used, closed and disposed on the writer's one thread: a SQLite
    connection never changes hands (closing it elsewhere would race the thread)."""
    engine = db.make_writer_engine(f"sqlite+aiosqlite:///{tmp_path}/w.db")
    assert isinstance(engine, Engine)
    closed_on: list[str] = []
    event.listen(engine.pool, "close",
                 lambda *_: closed_on.append(threading.current_thread().name))
    runner = runner_for(engine)
    await runner(lambda c: c.exec_driver_sql("SELECT 1").scalar())
    await runner.close_connection()  # back to the pool, still open
    await runner(lambda c: c.exec_driver_sql("SELECT 1").scalar())
    await runner.close_connection(invalidate=True)  # closed for good
    await runner(lambda c: c.exec_driver_sql("SELECT 1").scalar())
    await runner.dispose()  # the pool's connection closed by the dispose
    assert len(closed_on) == 2
    assert all(name.startswith("trpgbot-writer") for name in closed_on), closed_on


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:", "sqlite+aiosqlite://"])
def test_an_in_memory_writer_engine_opens(url: str) -> None:
    """SQLAlchemy's in-memory URLs, with or without ``:memory:`` (``sqlite://`` was
    taken for a file named ``sqlite:`` and given a file's pool options, which an
    in-memory engine refuses)."""
    engine = db.make_writer_engine(url)
    assert not isinstance(engine, AsyncEngine)
    with engine.connect() as connection:
        assert connection.scalar(sql_text("SELECT 1")) == 1
    engine.dispose()


async def test_a_stores_folders_are_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         ) -> None:
    """A database file in folders that do not exist yet, its URL relative (the working
    directory's) or absolute: every folder is made, by either engine."""
    monkeypatch.chdir(tmp_path)
    engine = db.make_engine("sqlite+aiosqlite:///data/a/store.db")
    writer = db.make_writer_engine(f"sqlite+aiosqlite:///{tmp_path}/b/c/store.db")
    try:
        assert (tmp_path / "data" / "a").is_dir() and (tmp_path / "b" / "c").is_dir()
        async with engine.connect() as connection:
            assert await connection.scalar(sql_text("SELECT 1")) == 1
    finally:
        await engine.dispose()
        assert not isinstance(writer, AsyncEngine)
        writer.dispose()


async def test_no_engine_of_the_core_logs_bound_values(any_settings: Settings) -> None:
    """Hidden results and private texts are bound values: every engine a core opens —
    the pooled one and the writer's, on SQLite and on PostgreSQL — keeps them out of
    SQLAlchemy's log and error texts (``hide_parameters``)."""
    core = await Core.open(any_settings)
    try:
        assert core.engine.sync_engine.hide_parameters is True
        assert core.writer.sync_engine.hide_parameters is True
    finally:
        await core.close()


def test_the_sql_loggers_are_held_whatever_their_level() -> None:
    """The drivers' loggers at WARNING, SQLAlchemy's statement log at INFO at most, and
    SQLAlchemy's own root logger, when nobody set it, at its default WARNING."""
    names = ("aiosqlite", "sqlalchemy", "sqlalchemy.engine")
    kept = {name: logging.getLogger(name).level for name in names}
    try:
        logging.getLogger("aiosqlite").setLevel(logging.DEBUG)
        logging.getLogger("sqlalchemy").setLevel(logging.NOTSET)
        logging.getLogger("sqlalchemy.engine").setLevel(logging.DEBUG)
        db.quiet_sql_loggers()
        assert [logging.getLogger(name).level for name in names] == [
            logging.WARNING, logging.WARNING, logging.INFO]
        logging.getLogger("sqlalchemy").setLevel(logging.ERROR)  # an operator's choice
        db.quiet_sql_loggers()
        assert logging.getLogger("sqlalchemy").level == logging.ERROR
    finally:
        for name, level in kept.items():
            logging.getLogger(name).setLevel(level)
