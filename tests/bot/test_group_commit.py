"""Group commit and the working set (bot/store/group.py, cache.py, inline.py): many
commands share one commit, each is undone alone, and no reply is returned before the
commit that holds its change; the working set and the fast path, and what they must
never break — durability across a kill -9, a failed command leaving nothing
half-changed in memory, other processes' changes seen, reads that read nothing from
the database (issue 11)."""

from __future__ import annotations

import asyncio
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
from sqlalchemy import event, select, update
from sqlalchemy import text as sql_text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.exc import StaleDataError

from adapters.config import Settings
from bot.core import Core
from bot.errors import CommandError
from bot.handlers.campaign import CampaignInvites
from bot.messages import Incoming, Outgoing
from bot.routes import router as _router
from bot.store import db
from bot.store.db import PRAGMAS
from bot.store.group import BatchFailed, GroupWriter
from bot.store.inline import InlineConnection
from bot.store.models import ChannelState, Character, OutboxMessage, ProcessedMessage
from tests.conftest import make_settings
from tests.support import Table

ROUTER = _router()

ROOT = Path(__file__).resolve().parents[2]
UPDATED = "的數值已更新"


def db_file(settings: Settings) -> str:
    return settings.resolved_database_url().split("///", 1)[-1]


@contextmanager
def handler_of(body: str, wrap: Callable[[Callable[..., Awaitable[list[Outgoing]]]],
                                          Callable[..., Awaitable[list[Outgoing]]]],
               ) -> Iterator[None]:
    """Replace the handler of the common command ``body`` for the test's duration."""
    found = ROUTER.resolve(body, "plurk")
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


@pytest.mark.parametrize("path", ["fast", "savepoint"])
@pytest.mark.parametrize("failure", ["exception", "refusal"])
async def test_a_command_failing_inside_a_batch_rolls_back_alone(
    settings: Settings, failure: str, path: str,
) -> None:
    """``fast``: the failing command's change is in memory only (the fast path: undone
    in memory); ``savepoint``: it flushed it into the batch's transaction first (which
    runs it again in a savepoint of its own: rolled back to it)."""
    core = await Core.open(settings)
    try:
        assert core.writer is not None
        for channel in ("a", "b", "c"):
            await Table(core, channel).text("alice", ".st 力量 0")

        def wrap(original):  # type: ignore[no-untyped-def]
            async def handler(ctx):  # type: ignore[no-untyped-def]
                outs = await original(ctx)
                if ctx.incoming.channel == "b":
                    if path == "savepoint":
                        await ctx.session.flush()  # in the batch's transaction
                    if failure == "refusal":
                        raise CommandError("core.error.conflict")
                    raise RuntimeError("a bug after the write")
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
        assert texts[1].startswith("⚠") and UPDATED not in texts[1]
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
    # a refusal is kept with its id, as without group commit; an internal error is
    # answered but records nothing (the player may send it again)
    refused = failure == "refusal"
    assert ids == ({"id-a", "id-b", "id-c"} if refused else {"id-a", "id-c"})
    assert kept == 3 + 2 + 3 + refused  # `.st 力量 0` ×3, a and c, `.st show` ×3


async def test_a_command_run_again_in_a_savepoint_rolls_the_same_dice(
        settings: Settings) -> None:
    """A fast-path command that asks for a flush of its own change is undone and run
    again in a savepoint: the second run reads the dice of the first (one scripted
    die is enough), and the change and reply are the second run's."""
    core = await Core.open(settings)
    rolled: list[int] = []
    try:
        table = Table(core)
        await table.text("alice", ".st 力量 0")

        def wrap(original):  # type: ignore[no-untyped-def]
            async def handler(ctx):  # type: ignore[no-untyped-def]
                rolled.append(ctx.dice.roll(100))
                outs = await original(ctx)
                await ctx.session.flush()  # NeedsSavepoint on the fast path
                return outs
            return handler

        with handler_of("st 力量+1", wrap):
            text = await table.text("alice", ".st 力量+1", dice=[42])
        assert rolled == [42, 42]
        assert text.endswith("力量:0→1")
        assert await stored_strength(core, "table") == 1
    finally:
        await core.close()


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


async def play(settings: Settings, group_commit: bool) -> dict[str, list[tuple]]:
    core = await Core.open(settings, group_commit=group_commit)
    assert (core.writer is not None) == group_commit
    try:
        async def channel(name: str) -> list[tuple]:
            table, seen = Table(core, name), []
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


async def test_a_scripted_session_answers_the_same_with_group_commit_on_and_off(
    tmp_path: Path,
) -> None:
    off = await play(make_settings(tmp_path / "off"), group_commit=False)
    on = await play(make_settings(tmp_path / "on"), group_commit=True)
    assert on == off
    assert sum(map(len, on.values())) >= len(SCRIPT)
    assert any("⚠" in text for *_, text, _, _ in on["t1"])  # the refusals are in it


async def test_no_reply_is_returned_before_its_commit(
    settings: Settings, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every reply ``handle`` returns is already visible to another connection of the
    database file (committed), even while commits are slow."""
    core = await Core.open(settings)
    original = AsyncSession.commit
    commits: list[int] = []

    async def slow_commit(self: AsyncSession) -> None:
        await asyncio.sleep(0.03)  # commands keep arriving while a batch commits
        await original(self)
        commits.append(1)

    monkeypatch.setattr(AsyncSession, "commit", slow_commit)
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
                checked += 1
        await asyncio.gather(*(player(f"c{i}") for i in range(10)))
    finally:
        reader.close()
        monkeypatch.setattr(AsyncSession, "commit", original)
        await core.close()
    assert checked == 150
    assert core.writer is not None and core.writer.commits < 150  # commands shared commits


CONFLICT = "⚠ 同時有其他指令修改了相同資料，這次的指令沒有生效，請再試一次。"


@contextmanager
def statements(core: Core) -> Iterator[list[str]]:
    """Every statement any engine of ``core`` sends (the pooled one and the writer's)."""
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        seen.append(" ".join(statement.split()))
    def direct(statement: str) -> None:  # sent to the driver, past SQLAlchemy's events
        record(None, None, statement)
    engines = [core.engine] + ([core.writer.engine] if core.writer is not None else [])
    inline = core.writer.inline if core.writer is not None else None
    for engine in engines:
        event.listen(engine.sync_engine, "before_cursor_execute", record)
    if inline is not None:
        inline.observers.append(direct)
    try:
        yield seen
    finally:
        for engine in engines:
            event.remove(engine.sync_engine, "before_cursor_execute", record)
        if inline is not None:
            inline.observers.remove(direct)


async def test_reads_read_nothing_from_the_database_after_warm_up(core: Core) -> None:
    """`.st show`, `.help` and a plain `.r` answer from memory: the only statements are
    the batch's own and the two inserts that make the reply durable (its message id
    and its outbox row) — no SELECT, on no connection."""
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
    assert seen, "the listener saw nothing"
    assert [s for s in seen if not s.startswith("INSERT")] == [
        s for s in seen if s in ("BEGIN IMMEDIATE", "PRAGMA data_version")]
    inserts = [s.split()[2] for s in seen if s.startswith("INSERT")]
    assert inserts.count("processed_messages") == len(reads) * 4
    assert set(inserts) == {"processed_messages", "outbox"}


async def test_a_write_is_one_update_and_the_two_inserts(core: Core) -> None:
    table = Table(core)
    await table.text("gm", ".gm")
    await table.text("gm", ".ap set 1000")
    await table.text("alice", ".st 體力 100")
    for n in range(3):
        await table.say("alice", ".st 體力-1", message_id=f"warm-{n}")
        await table.say("alice", ".ap spend 移動", message_id=f"warm-ap-{n}")
    for text in (".st 體力-1", ".ap spend 移動"):
        with statements(core) as seen:
            [out] = await table.say("alice", text, message_id=f"w-{text}")
        assert not out.text.startswith("⚠"), out
        kinds = [" ".join(s.split()[:3]) for s in seen
                 if s not in ("BEGIN IMMEDIATE", "PRAGMA data_version")]
        assert sorted(kinds) == sorted([
            "UPDATE characters SET" if text.startswith(".st") else "UPDATE channel_state SET",
            "INSERT INTO outbox", "INSERT INTO processed_messages"]), seen


async def test_a_replay_is_answered_by_no_one_and_writes_nothing(core: Core) -> None:
    table = Table(core)
    [first] = await table.say("alice", ".st 力量 5", message_id="once")
    assert UPDATED in first.text
    assert await table.say("alice", ".st 力量 9", message_id="once") == []
    assert await table.say("alice", ".st show", message_id="once") == []
    assert await stored_strength(core, "table") == 5
    # a message that is no command, in a table that logs: recorded once, no error
    await table.text("gm", ".log on 第一夜")
    assert await table.say("bob", "大家好", message_id="chat") == []
    assert await table.say("bob", "大家好", message_id="chat") == []


@pytest.mark.parametrize("remembered", [True, False], ids=["in memory", "forgotten"])
async def test_a_resend_runs_no_handler_while_remembered_and_is_still_dropped_when_not(
        core: Core, remembered: bool) -> None:
    table = Table(core)
    [first] = await table.say("alice", ".r 1d20", dice=[17], message_id="m1")
    assert first.text.endswith("= 17")
    if not remembered:  # as after a restart: only the store knows the id
        core.dispatcher._answered.clear()
        # the handler runs again (its die is rolled), then the command is rolled back
        assert await table.say("alice", ".r 1d20", dice=[3], message_id="m1") == []
    else:  # no die scripted: rolling one would fail the test
        assert await table.say("alice", ".r 1d20", dice=[], message_id="m1") == []


@pytest.mark.parametrize("how", ["in memory", "flushed"])
async def test_a_failed_command_leaves_no_half_changed_row_in_memory(
        settings: Settings, how: str) -> None:
    """The handler changes the cached sheet, then fails: the next command of the same
    process (reading from memory) sees the sheet as stored, not the failed change."""
    core = await Core.open(settings)
    try:
        await Table(core).text("alice", ".st 力量 1")
        assert await stored_strength(core, "table") == 1

        def wrap(original):  # type: ignore[no-untyped-def]
            async def handler(ctx):  # type: ignore[no-untyped-def]
                sheet = await ctx.active_character()
                sheet.stats = {**sheet.stats, "力量": 77}
                if how == "flushed":
                    await ctx.session.flush()
                raise CommandError("core.error.conflict")
            return handler

        with handler_of("st 力量+1", wrap):
            [out] = await Table(core).say("alice", ".st 力量+1", message_id="fails")
        assert out.text == CONFLICT
        assert await stored_strength(core, "table") == 1
        assert (await Table(core).text("alice", ".st 力量+1")).endswith("力量:1→2")
    finally:
        await core.close()
    core = await Core.open(settings)  # and the database says the same
    try:
        assert await stored_strength(core, "table") == 2
    finally:
        await core.close()


async def test_json_changed_in_place_is_dropped_not_kept_in_memory(
        core: Core, caplog: pytest.LogCaptureFixture) -> None:
    await Table(core).text("alice", ".st 力量 1")

    def wrap(original):  # type: ignore[no-untyped-def]
        async def handler(ctx):  # type: ignore[no-untyped-def]
            sheet = await ctx.active_character()
            sheet.stats["力量"] = 55  # a bug: the ORM cannot see it, it is never stored
            return [ctx.reply("done")]
        return handler

    with caplog.at_level(logging.WARNING, logger="bot.store.cache"), \
            handler_of("st 力量+1", wrap):
        assert await Table(core).text("alice", ".st 力量+1") == "done"
    assert await stored_strength(core, "table") == 1  # as stored, not 55
    assert any("changed in place" in r.getMessage() for r in caplog.records)


FIRST_TIME = {
    ".rah 1d20": [("gm", ".gm"), ("gm", ".log on s1")],
    ".battle join": [("alice", ".st 靈巧 3 hp 10")],
    ".enemy add 狼人 力量8 敏捷6 體質7 精神力3": [
        ("gm", ".gm"), ("gm", ".system ace"), ("gm", ".log on s1")],
    ".campaign invite": [("gm", ".gm"), ("gm", ".campaign bind 龍穴")],
}
"""Four commands that warned of a change in place on their first run in a process, and
what their table needs first."""


async def first_run(settings: Settings, line: str) -> list[Outgoing]:
    """``line`` as the first command of a new process, after what its table needs."""
    core = await Core.open(settings)
    try:
        for user, before in FIRST_TIME[line]:
            await Table(core).say(user, before)
    finally:
        await core.close()
    core = await Core.open(settings)  # the warning is once per process
    try:
        user = "alice" if line in (".rah 1d20", ".battle join") else "gm"
        return await Table(core).say(user, line, dice=[12])
    finally:
        await core.close()


@pytest.mark.parametrize(("line", "key", "stored"), [
    (".rah 1d20", "plurk.checks", lambda data: data["last"]["alice"]["check"]["raw"]),
    (".battle join", "plurk.battle.setup", lambda data: data["party"]),
    (".enemy add 狼人 力量8 敏捷6 體質7 精神力3", "ace.enemies",
     lambda data: list(data["enemies"])),
    (".campaign invite", "core.campaign_invites", lambda data: len(data["codes"])),
])
async def test_a_document_made_by_an_undone_attempt_is_no_false_alarm(
        settings: Settings, caplog: pytest.LogCaptureFixture, line: str, key: str,
        stored: Callable[[dict[str, Any]], Any]) -> None:
    """A command that creates a document on the fast path and then needs a savepoint
    (a log running, a new sheet document, an invite) runs again: the first attempt's
    row, taken out of the session by the undo, was still checked at the end as if
    changed in place — a warning in every process. None warns now, and the document
    is stored."""
    with caplog.at_level(logging.WARNING, logger="bot.store.cache"):
        outs = await first_run(settings, line)
    assert not outs[0].text.startswith("⚠"), outs
    assert [r.getMessage() for r in caplog.records] == []
    assert stored(await stored_document(settings, key)) == {
        ".rah 1d20": 12, ".battle join": ["alice"], ".campaign invite": 1}.get(line, ["狼人"])


async def test_a_change_in_place_still_warns(
        settings: Settings, caplog: pytest.LogCaptureFixture) -> None:
    """The detector still names a real bug: a document changed in place."""
    await first_run(settings, ".campaign invite")

    def wrap(original):  # type: ignore[no-untyped-def]
        async def handler(ctx):  # type: ignore[no-untyped-def]
            row = await ctx.document(CampaignInvites)
            row.data["codes"]["BADC0DE0"] = "2999-01-01T00:00:00"  # a bug: never stored
            return [ctx.reply("done")]
        return handler

    core = await Core.open(settings)
    try:
        with caplog.at_level(logging.WARNING, logger="bot.store.cache"), \
                handler_of("campaign invite", wrap):
            assert await Table(core).text("gm", ".campaign invite") == "done"
    finally:
        await core.close()
    assert [r.getMessage() for r in caplog.records] == [
        "ChannelState.data was changed in place and not stored; assign a new value "
        "instead (the copy in memory is dropped)"]


async def stored_document(settings: Settings, key: str) -> dict[str, Any]:
    """The stored ``data`` of the one table document ``key``, read by a new engine."""
    engine = db.make_engine(settings.resolved_database_url())
    try:
        async with db.sessionmaker(engine)() as session:
            return dict(await session.scalar(select(ChannelState.data).where(
                ChannelState.key == key)))
    finally:
        await engine.dispose()


async def test_a_bulk_update_drops_the_working_set(core: Core) -> None:
    await Table(core).text("alice", ".st 力量 1")

    def wrap(original):  # type: ignore[no-untyped-def]
        async def handler(ctx):  # type: ignore[no-untyped-def]
            await ctx.session.execute(update(Character).values(stats={"力量": 40}))
            return [ctx.reply("bulk")]
        return handler

    with handler_of("st 力量+1", wrap):
        assert await Table(core).text("alice", ".st 力量+1") == "bulk"
    assert await stored_strength(core, "table") == 40


async def test_a_conflict_is_tried_again_once(core: Core) -> None:
    await Table(core).text("alice", ".st 力量 1")
    calls = 0

    def wrap(fail_times: int):  # type: ignore[no-untyped-def]
        def outer(original):  # type: ignore[no-untyped-def]
            async def handler(ctx):  # type: ignore[no-untyped-def]
                nonlocal calls
                outs = await original(ctx)
                # a flush of its own: on the fast path this stops the command before it
                # writes (NeedsSavepoint), and it runs again in a savepoint: count those
                await ctx.session.flush()
                calls += 1
                if calls <= fail_times:
                    raise StaleDataError("another process changed the row")
                return outs
            return handler
        return outer

    with handler_of("st 力量+1", wrap(1)):
        text = await Table(core).text("alice", ".st 力量+1")
    assert calls == 2 and text.endswith("力量:1→2")
    calls = 0
    with handler_of("st 力量+1", wrap(2)):
        assert await Table(core).text("alice", ".st 力量+1") == CONFLICT
    assert calls == 2
    assert await stored_strength(core, "table") == 2


async def test_the_working_set_is_bounded_and_still_right(core: Core) -> None:
    assert core.writer is not None
    core.writer.cache.limit = 3
    for round_ in range(3):
        for c in range(8):
            await Table(core, f"c{c}").text("alice", f".st 力量 {10 * c + round_}")
            assert len(core.writer.cache.tables) <= 3
    for c in range(8):
        assert await stored_strength(core, f"c{c}") == 10 * c + 2


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


BURST = textwrap.dedent("""
    import asyncio, sys
    from adapters.config import Settings
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


def test_kill_9_during_a_burst_loses_no_acknowledged_change(
        tmp_path: Path) -> None:
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
        core = await Core.open(Settings(_env_file=None, data_dir=tmp_path))
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


async def test_off_and_on_keep_the_same_promises(tmp_path: Path) -> None:
    """The switch (TRPGBOT_GROUP_COMMIT) and its default."""
    assert Settings(_env_file=None).group_commit is True
    off = await Core.open(make_settings(tmp_path / "off", group_commit=False))
    on = await Core.open(make_settings(tmp_path / "on"))
    try:
        assert off.writer is None and on.writer is not None
        for core in (off, on):
            await Table(core).text("alice", ".st 力量 2")
            assert await stored_strength(core, "table") == 2
    finally:
        await off.close()
        await on.close()


# ------------------------------------------------------------------ a batch that fails
INTERNAL = "⚠ 處理指令時發生內部錯誤，沒有任何資料被更改。請稍後再試或通知管理者。"


async def _outbox_count(writer: GroupWriter, platform: str) -> int:
    async def count(session: AsyncSession) -> int:
        return (await session.execute(sql_text(
            "SELECT count(*) FROM outbox WHERE platform = :p"), {"p": platform})).scalar_one()
    return await writer.run(count)


async def _mate_waiting(writer: GroupWriter) -> asyncio.Task[str]:
    """A batch-mate whose change (an outbox row of platform "mate") is in the batch and
    waits for its commit; the batch is held open half a second."""
    writer.window = 0.5
    ready = asyncio.Event()

    async def work(session: AsyncSession) -> str:
        async with writer.savepoint(session):
            session.add(OutboxMessage(platform="mate", message={"n": 1}))
        ready.set()
        return "stored"
    mate = asyncio.create_task(writer.run(work))
    await ready.wait()  # past its work: it waits for the commit
    return mate


async def test_a_statement_outside_a_savepoint_that_fails_drops_the_whole_batch(
        core: Core, caplog: pytest.LogCaptureFixture) -> None:
    """It cannot be undone alone: the command and every batch-mate get
    :class:`BatchFailed` with the statement's error, the operator is told, nothing of
    the batch is stored, the working set is dropped (once), and the next batch works."""
    writer = core.writer
    assert writer is not None
    mate = await _mate_waiting(writer)
    cleared = writer.cache.cleared

    async def broken(session: AsyncSession) -> None:
        await writer.unguarded(session.execute(sql_text("INSERT INTO nowhere VALUES (1)")))

    with caplog.at_level(logging.ERROR, logger="bot.store.group"), \
            pytest.raises(BatchFailed) as failed:
        await writer.run(broken)
    cause = failed.value.__cause__
    assert cause is not None and "no such table: nowhere" in str(cause)
    assert str(failed.value) == str(cause)
    with pytest.raises(BatchFailed) as mate_failed:
        await asyncio.wait_for(mate, 5)
    assert str(mate_failed.value) == str(cause)
    assert [r.getMessage() for r in caplog.records] == [
        "a statement outside a savepoint failed: the batch is dropped"]
    writer.window = 0.0
    assert await _outbox_count(writer, "mate") == 0
    assert writer.cache.cleared == cleared + 1


async def test_a_command_that_loses_the_batch_transaction_fails_its_batch_mates(
        core: Core) -> None:
    """A flush that fails outside a savepoint rolls the whole transaction back: the
    command gets its own error, its batch-mates are told the batch is lost (their
    changes went with it), and the next batch works."""
    writer = core.writer
    assert writer is not None
    mate = await _mate_waiting(writer)

    async def loses(session: AsyncSession) -> None:
        session.add_all([OutboxMessage(id=10_000, platform="x", message={}),
                         OutboxMessage(id=10_000, platform="y", message={})])
        await session.flush()

    with pytest.raises(IntegrityError):
        await writer.run(loses)
    with pytest.raises(BatchFailed) as mate_failed:
        await asyncio.wait_for(mate, 5)
    assert str(mate_failed.value) == "the batch's transaction was lost"
    writer.window = 0.0
    assert await _outbox_count(writer, "mate") == 0


async def test_a_failed_rollback_is_logged_and_the_session_closed(
        core: Core, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After a failure the batch is rolled back; when even that fails (the connection
    is gone) the operator is told, the session is closed — and that failing too is
    logged — and the command still gets :class:`BatchFailed`."""
    writer = core.writer
    assert writer is not None

    async def gone(_self: AsyncSession) -> None:
        raise ConnectionError("the database went away")

    async def broken(session: AsyncSession) -> None:
        await writer.unguarded(session.execute(sql_text("INSERT INTO nowhere VALUES (1)")))

    with monkeypatch.context() as patch, \
            caplog.at_level(logging.ERROR, logger="bot.store.group"):
        patch.setattr(AsyncSession, "rollback", gone)
        patch.setattr(AsyncSession, "close", gone)
        with pytest.raises(BatchFailed):
            await writer.run(broken)
    assert [r.getMessage() for r in caplog.records] == [
        "a statement outside a savepoint failed: the batch is dropped",
        "rolling back a failed batch", "closing a failed batch's session"]
    assert [str(r.exc_info[1]) for r in caplog.records if r.exc_info][1:] == [
        "the database went away"] * 2


async def test_after_a_failed_commit_the_next_batches_still_see_other_processes(
        settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failed commit drops the batch; the batch after it is a new one (it checks for
    other connections' commits again), so what another process writes later is read,
    never an old copy kept in memory."""
    first, second = await Core.open(settings), await Core.open(settings)
    try:
        await Table(first).text("alice", ".st 力量 1")

        async def disk_error(_self: AsyncSession) -> None:
            raise sqlite3.OperationalError("disk I/O error")

        with monkeypatch.context() as patch:
            patch.setattr(AsyncSession, "commit", disk_error)
            assert await Table(first).text("alice", ".st 力量+1") == INTERNAL
        assert await stored_strength(first, "table") == 1  # read again and kept
        assert (await Table(second).text("alice", ".st 力量+1")).endswith("力量:1→2")
        assert await stored_strength(first, "table") == 2
    finally:
        await first.close()
        await second.close()


# ------------------------------------------------------------------ a batch's replies
async def test_a_batch_stores_every_reply_with_its_outbox_id(any_settings: Settings) -> None:
    """Three commands of one batch, two replies each: every reply comes back with the
    id of its own outbox row, in order. On SQLite each row goes to the driver
    directly (past SQLAlchemy's cursor events); on PostgreSQL they are one
    ``INSERT … RETURNING`` through SQLAlchemy."""
    core = await Core.open(any_settings)
    try:
        writer = core.writer
        assert writer is not None
        sent: dict[str, int] = {"sqlalchemy": 0, "driver": 0}

        def through_sqlalchemy(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
            sent["sqlalchemy"] += statement.startswith("INSERT INTO outbox")

        def to_the_driver(statement: str) -> None:
            sent["driver"] += statement.startswith("INSERT INTO outbox")

        async def command(n: int) -> list[Outgoing]:
            async def work(_session: AsyncSession) -> list[Outgoing]:
                return writer.store_replies("console", [
                    Outgoing("channel", f"c{n}", f"reply {n}.{k}", data={"k": k})
                    for k in range(2)])
            return await writer.run(work)

        await Table(core).text("alice", ".r 1d20", dice=[5])  # the connection opened
        commits = writer.commits
        writer.window = 0.5
        event.listen(writer.engine.sync_engine, "before_cursor_execute", through_sqlalchemy)
        if writer.inline is not None:
            writer.inline.observers.append(to_the_driver)
        try:
            held = await asyncio.gather(*(command(n) for n in range(3)))
        finally:
            event.remove(writer.engine.sync_engine, "before_cursor_execute",
                         through_sqlalchemy)
            if writer.inline is not None:
                writer.inline.observers.remove(to_the_driver)
        writer.window = 0.0
        assert writer.commits == commits + 1
        sqlite = any_settings.resolved_database_url().startswith("sqlite")
        assert sent == ({"sqlalchemy": 0, "driver": 6} if sqlite
                        else {"sqlalchemy": 1, "driver": 0})
        replies = [out for outs in held for out in outs]
        ids = [out.outbox_id for out in replies]
        assert isinstance(ids[0], int) and ids == list(range(ids[0], ids[0] + 6))
        assert [(out.channel, out.text) for out in replies] == [
            (f"c{n}", f"reply {n}.{k}") for n in range(3) for k in range(2)]

        async def stored(session: AsyncSession) -> dict[int, tuple[str, Outgoing]]:
            rows = await session.execute(select(
                OutboxMessage.id, OutboxMessage.platform, OutboxMessage.message,
            ).where(OutboxMessage.id.in_(ids)))
            return {id_: (platform, Outgoing.from_record(message))
                    for id_, platform, message in rows}
        assert await writer.run(stored) == {
            out.outbox_id: ("console", replace(out, outbox_id=None)) for out in replies}
    finally:
        await core.close()


async def test_a_message_id_is_claimed_once_on_either_database(any_settings: Settings) -> None:
    """The claim (``INSERT … ON CONFLICT DO NOTHING``, straight to the driver on SQLite,
    through SQLAlchemy on PostgreSQL): the first message with an id is answered and its
    id recorded; a resend the process no longer remembers is answered by no one and
    changes nothing."""
    core = await Core.open(any_settings)
    try:
        table = Table(core)
        [first] = await table.say("alice", ".st 力量 5", message_id="once")
        assert UPDATED in first.text and strength(first.text) == 5
        core.dispatcher._answered.clear()  # as after a restart: only the store knows the id
        assert await table.say("alice", ".st 力量 9", message_id="once") == []
        assert await stored_strength(core, "table") == 5
        async with core.sessions() as session:
            claimed = (await session.execute(select(
                ProcessedMessage.platform, ProcessedMessage.message_id))).all()
        assert [tuple(row) for row in claimed] == [("console", "once")]
    finally:
        await core.close()


# ------------------------------------------------------------------ without group commit
async def test_a_process_without_group_commit_is_seen_by_one_with_it(
        any_settings: Settings) -> None:
    """A process that commits each command alone (TRPGBOT_GROUP_COMMIT off, or a tool)
    tells the others it wrote: on PostgreSQL it bumps ``store_epoch`` in the same
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
        if any_settings.resolved_database_url().startswith("sqlite"):
            async with alone.sessions() as session:
                epoch = (await session.execute(sql_text("SELECT n FROM store_epoch"))).scalar()
            assert epoch == 0
    finally:
        await alone.close()
        await grouped.close()


# ------------------------------------------------------------------ the inline connection
async def test_the_inline_connection_passes_parameters_sizes_and_options_on(
        tmp_path: Path) -> None:
    """What SQLAlchemy's adapter hands to the aiosqlite look-alike reaches ``sqlite3``
    unchanged: a statement's parameters, ``fetchmany``'s size (the cursor's
    ``arraysize`` when none is given) and a function's options (only a deterministic
    function may be used in an index)."""
    conn = await InlineConnection.connect(str(tmp_path / "inline.db"), PRAGMAS)
    try:
        await conn.create_function("twice", 1, lambda n: 2 * n, deterministic=True)
        await conn.execute("CREATE TABLE t (n INTEGER)")
        await conn.execute("CREATE INDEX t_twice ON t (twice(n))")
        await conn.cursor().executemany("INSERT INTO t VALUES (?)", [(n,) for n in range(8)])
        cursor = await conn.execute("SELECT twice(n) FROM t WHERE n >= ? ORDER BY n", (1,))
        assert await cursor.fetchmany(2) == [(2,), (4,)]
        assert cursor.arraysize == 1  # sqlite3's own default
        assert await cursor.fetchmany() == [(6,)]
        cursor.arraysize = 3
        assert await cursor.fetchmany() == [(8,), (10,), (12,)]
        assert await cursor.fetchmany(5) == [(14,)]
    finally:
        await conn.close()


async def test_stopping_the_inline_connection_closes_it_at_once(tmp_path: Path) -> None:
    """SQLAlchemy's terminate (the event loop may be gone): closed at once, without
    waiting for the worker thread (busy here as with a BEGIN waiting for another
    process's lock); stopping or closing it again does nothing."""
    conn = await InlineConnection.connect(str(tmp_path / "inline.db"), PRAGMAS)
    busy = asyncio.ensure_future(conn.offload(time.sleep, 0.8))
    await asyncio.sleep(0.05)  # the worker thread is in it
    started = time.monotonic()
    conn.stop()
    assert time.monotonic() - started < 0.4
    with pytest.raises(sqlite3.ProgrammingError, match="closed database"):
        conn.run("SELECT 1")
    await busy
    conn.stop()
    await conn.close()


async def test_a_slow_statement_takes_its_parameters_to_the_worker_thread(
        tmp_path: Path) -> None:
    """A statement that may wait for the disk runs in the worker thread with its
    parameters (``VACUUM INTO ?``: a copy of the database where the caller said)."""
    conn = await InlineConnection.connect(str(tmp_path / "inline.db"), PRAGMAS)
    copy = tmp_path / "copy.db"
    try:
        await conn.execute("CREATE TABLE t (n INTEGER)")
        await conn.execute("INSERT INTO t VALUES (?)", (7,))
        await conn.execute("VACUUM INTO ?", (str(copy),))
    finally:
        await conn.close()
    with sqlite3.connect(copy) as copied:
        assert copied.execute("SELECT n FROM t").fetchall() == [(7,)]


async def test_the_inline_connection_opens_in_its_one_worker_thread(tmp_path: Path) -> None:
    """The connection is opened in the worker thread with the options given (here a
    connection class and a busy timeout), and that thread is the only one: what waits
    (BEGIN, COMMIT, closing) runs there one at a time, never two at once on one
    ``sqlite3`` connection."""
    opened_in: list[str] = []

    class Recorded(sqlite3.Connection):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            opened_in.append(threading.current_thread().name)

    conn = await InlineConnection.connect(str(tmp_path / "inline.db"), PRAGMAS,
                                          factory=Recorded, timeout=12)
    try:
        assert opened_in == ["sqlite-writer_0"]
        assert conn.one("PRAGMA busy_timeout") == 12_000

        def where(pause: float) -> str:
            time.sleep(pause)
            return threading.current_thread().name

        # the second waits for the first instead of starting a thread of its own
        assert await asyncio.gather(conn.offload(where, 0.1), conn.offload(where, 0)) == [
            "sqlite-writer_0", "sqlite-writer_0"]
    finally:
        await conn.close()


async def _cancelled_at_once(task: asyncio.Future[Any]) -> None:
    """Cancelling ``task`` ends it within 0.4 s although its worker thread is busy."""
    started = time.monotonic()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert time.monotonic() - started < 0.4


async def test_an_open_cancelled_does_not_wait_for_the_worker_thread(tmp_path: Path) -> None:
    """Cancelled while the worker thread opens the database (its pragmas may wait for
    another process's lock): the cancellation is at once, the loop is not held until
    the thread is done."""
    def slow_pragmas() -> Iterator[str]:
        time.sleep(0.8)
        yield from PRAGMAS

    opening = asyncio.ensure_future(
        InlineConnection.connect(str(tmp_path / "inline.db"), slow_pragmas()))
    await asyncio.sleep(0.05)  # the worker thread is in it
    await _cancelled_at_once(opening)
    await asyncio.sleep(0.9)  # the thread ends before the test does


async def test_closing_the_inline_connection_twice_closes_it_once(tmp_path: Path) -> None:
    conn = await InlineConnection.connect(str(tmp_path / "inline.db"), PRAGMAS)
    await conn.close()
    await conn.close()  # nothing: the worker thread is gone already
    with pytest.raises(sqlite3.ProgrammingError, match="closed database"):
        conn.run("SELECT 1")


async def test_a_close_cancelled_does_not_wait_for_the_worker_thread(tmp_path: Path) -> None:
    """A close cancelled while the worker thread is busy (as with a BEGIN waiting for
    another process's lock) ends at once: the loop is not held until the thread is
    done."""
    conn = await InlineConnection.connect(str(tmp_path / "inline.db"), PRAGMAS)
    busy = asyncio.ensure_future(conn.offload(time.sleep, 0.8))
    await asyncio.sleep(0.05)  # the worker thread is in it
    closing = asyncio.ensure_future(conn.close())
    await asyncio.sleep(0.05)  # the close waits for the thread
    await _cancelled_at_once(closing)
    await busy
    conn._conn.close()  # the close that was cancelled never ran


async def test_a_begin_that_fails_for_another_reason_than_a_lock_fails_at_once(
        tmp_path: Path) -> None:
    """Only a BEGIN that found the write lock taken is tried again, waiting in the
    worker thread; any other error is raised at once, without leaving the loop's
    thread (a callback scheduled before has not run)."""
    conn = await InlineConnection.connect(str(tmp_path / "inline.db"), PRAGMAS)
    try:
        ran: list[int] = []
        asyncio.get_running_loop().call_soon(ran.append, 1)
        with pytest.raises(sqlite3.OperationalError, match="syntax error"):
            await conn.execute("BEGIN SOMETIME")
        assert ran == []
        assert conn.one("PRAGMA busy_timeout") == 30_000  # restored
    finally:
        await conn.close()


# ------------------------------------------------------------------ the writer
async def test_a_savepoint_is_released_on_the_inline_connection(core: Core) -> None:
    """A command's savepoint goes to the driver directly, and is released when the
    command ends (not left open until the batch commits)."""
    writer = core.writer
    assert writer is not None
    await Table(core).text("alice", ".r 1d20", dice=[5])  # the connection opened
    assert writer.inline is not None
    sent: list[str] = []

    async def work(session: AsyncSession) -> None:
        async with writer.savepoint(session):
            session.add(OutboxMessage(platform="sp", message={}))

    writer.inline.observers.append(sent.append)
    try:
        await writer.run(work)
    finally:
        writer.inline.observers.remove(sent.append)
    assert len(sent) == 2
    name = sent[0].removeprefix("SAVEPOINT ")
    assert sent == [f"SAVEPOINT {name}", f"RELEASE SAVEPOINT {name}"]
    assert await _outbox_count(writer, "sp") == 1


async def test_a_batch_that_reaches_its_cap_commits_at_once(core: Core) -> None:
    """A batch holding ``cap`` commands is committed by the command that filled it,
    without waiting for the window."""
    writer = core.writer
    assert writer is not None
    writer.cap, writer.window = 1, 3.0

    async def work(_session: AsyncSession) -> str:
        return "done"

    commits = writer.commits
    assert await asyncio.wait_for(writer.run(work), 1.5) == "done"
    assert writer.commits == commits + 1


async def test_the_working_set_outlives_its_batch_on_either_database(
        any_settings: Settings) -> None:
    """Nothing else wrote between two batches (SQLite's data_version, PostgreSQL's
    store_epoch unchanged): the working set is kept from one batch to the next."""
    core = await Core.open(any_settings)
    try:
        writer = core.writer
        assert writer is not None
        table = Table(core)
        await table.text("alice", ".st 力量 1")
        cleared, commits = writer.cache.cleared, writer.commits
        for n in range(3):
            assert strength(await table.text("alice", ".st show")) == 1, n
        assert writer.commits == commits + 3
        assert writer.cache.cleared == cleared
    finally:
        await core.close()


async def test_after_the_writer_closed_the_outbox_is_cleaned_on_the_pooled_engine(
        core: Core) -> None:
    """At shutdown the acknowledged replies are deleted once more after the writer
    closed: on the pooled engine, not in a batch of the closed writer."""
    writer = core.writer
    assert writer is not None
    [out] = await Table(core).say("alice", ".r 1d20", dice=[5])
    await writer.close()
    commits = writer.commits
    await core.delivered(out)
    await core.flush_acks()  # as Core.close does, without the grouping delay
    assert writer.commits == commits
    async with core.sessions() as session:
        left = (await session.execute(sql_text("SELECT count(*) FROM outbox"))).scalar()
    assert left == 0


async def test_closing_the_writer_waits_for_its_commit_task(core: Core) -> None:
    """The batch's commit task (here still in its window) has ended when ``close``
    returns: nothing of the writer runs after it."""
    writer = core.writer
    assert writer is not None
    writer.window = 0.3

    async def work(_session: AsyncSession) -> int:
        return 1

    command = asyncio.ensure_future(writer.run(work))
    await asyncio.sleep(0.05)  # it waits for its batch's commit
    await writer.close()
    assert await command == 1
    assert writer._committer is not None and writer._committer.done()


# ---------- the inline connection: which thread runs what
# bot/store/inline.py: statements run at once in the loop's thread; BEGIN that must wait
# for another process's write lock, COMMIT (the fsync) and opening run in the writer's
# one worker thread, so the loop stays free meanwhile.
async def _inline(path: Path) -> Any:
    from bot.store.inline import InlineConnection

    conn = await InlineConnection.connect(str(path), db.PRAGMAS, timeout=30)
    threads: list[tuple[str, str]] = []
    conn._conn.set_trace_callback(
        lambda sql: threads.append((threading.current_thread().name.split("_")[0], sql)))
    return conn, threads


async def test_inline_statements_run_in_the_loop_and_commits_in_the_worker(
        tmp_path: Path) -> None:
    conn, threads = await _inline(tmp_path / "a.db")
    try:
        assert conn.isolation_level is None  # autocommit: every BEGIN is the writer's
        cursor = await conn.execute("CREATE TABLE t (x INTEGER)")
        await cursor.execute("begin immediate")  # any case: the lock-aware BEGIN
        assert conn.in_transaction
        await cursor.execute("INSERT INTO t VALUES (?)", (1,))
        await cursor.executemany("INSERT INTO t VALUES (?)", [(2,), (3,)])
        await cursor.execute("  commit")
        assert not conn.in_transaction
        await cursor.execute("INSERT INTO t VALUES (4)")  # no BEGIN: committed at once
        assert not conn.in_transaction
        assert conn.run("DELETE FROM t WHERE x > ?", (2,)) == 2
        rows = await (await conn.execute("SELECT x FROM t ORDER BY x")).fetchall()
        assert rows == [(1,), (2,)]
        assert conn.statements == 8
    finally:
        await conn.close()
    main = threading.current_thread().name.split("_")[0]
    where = {sql.split()[0].upper(): thread for thread, sql in threads
             if not sql.upper().startswith("PRAGMA")}
    assert where == {"CREATE": main, "BEGIN": main, "INSERT": main, "COMMIT": "sqlite-writer",
                     "DELETE": main, "SELECT": main}


async def test_inline_begin_waits_for_another_processs_lock_without_blocking_the_loop(
        tmp_path: Path) -> None:
    path = tmp_path / "b.db"
    conn, threads = await _inline(path)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("CREATE TABLE t (x INTEGER)")
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.01)

    ticker = asyncio.create_task(tick())
    try:
        begin = asyncio.create_task(conn.cursor().execute("BEGIN IMMEDIATE"))
        await asyncio.sleep(0.3)
        assert not begin.done() and ticks >= 10  # waiting, and the loop runs on
        other.execute("COMMIT")
        await asyncio.wait_for(begin, 5)
        assert conn.in_transaction
        await conn.cursor().execute("ROLLBACK")
        # the wait ran in the worker thread; the lock was asked for once at once first
        begins = [t for t, sql in threads if sql.startswith("BEGIN")]
        assert begins[-1] == "sqlite-writer"
        busy = [sql for _t, sql in threads if "busy_timeout" in sql]
        assert busy == ["PRAGMA busy_timeout = 0", "PRAGMA busy_timeout = 30000",
                        "PRAGMA busy_timeout = 30000"]
    finally:
        ticker.cancel()
        other.close()
        await conn.close()


async def test_inline_begin_inside_a_transaction_is_refused_not_retried(
        tmp_path: Path) -> None:
    conn, _threads = await _inline(tmp_path / "c.db")
    try:
        cursor = conn.cursor()
        await cursor.execute("BEGIN IMMEDIATE")
        with pytest.raises(sqlite3.OperationalError, match="within a transaction"):
            await cursor.execute("BEGIN IMMEDIATE")
        assert conn.in_transaction
    finally:
        await conn.close()
