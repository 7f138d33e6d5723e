"""The unit of work (bot/unit_of_work.py) on a real store (SQLite; PostgreSQL too where
the order of rows matters): each test runs units
of work on the writer as a command does (its table's lock held, its changes committed
with its batch) and reads back what was stored — through a later unit, or a read
outside any command (:meth:`bot.core.Core.read_table`), which reads the database and
not the working set. Written from the surviving mutants of the `core` area (see
docs/testing.md, "core, fifth run"): what moves to a campaign and what stays, every
field of a game log read back, bindings, kept private messages."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

import pytest
from sqlalchemy import delete, insert, select, update

from adapters.config import Settings
from bot.core import Core
from bot.documents import DamagedDocument, Doc
from bot.gamelog import book
from bot.gamelog.book import Line
from bot.messages import Incoming
from bot.records import Gm, Log, LogLine, Table, campaign_key
from bot.store import statements as sql
from bot.store.models import utc_now
from bot.store.writer import ConnectionLink, Unit
from bot.unit_of_work import SheetClash, UnitOfWork

T = TypeVar("T")


@dataclass
class Note:
    text: str = ""


@dataclass
class Hand:
    cards: list[str] = field(default_factory=list)


NOTE_A = Doc("test.note_a", Note, Note)
NOTE_B = Doc("test.note_b", Note, Note)
NOTE_C = Doc("test.note_c", Note, Note)
HAND = Doc("test.hand", Hand, Hand, per_character=True)
DISCARDS = Doc("test.discards", Hand, Hand, per_character=True)


async def in_unit(core: Core, work: Callable[[UnitOfWork], Awaitable[T]],
                  channel: str = "home") -> T:
    """``work`` as a command of ``channel`` runs it: on the writer, its table's lock
    held, its unit of work's changes committed with the batch (``channel`` may be a
    campaign's table key: the table a bound channel plays at)."""
    dispatcher = core.dispatcher
    table = await dispatcher.table_key("console", channel)

    async def job(link: ConnectionLink) -> tuple[T, Unit]:
        uow = UnitOfWork(link, await dispatcher.state(link, "console", channel, table))
        result = await work(uow)
        return result, dispatcher.unit(uow, Incoming("console", channel, "", ""), [])
    async with dispatcher.lock("console", table):
        return await core.writer.run(job)


async def stored(core: Core, work: Callable[[UnitOfWork], Awaitable[T]],
                 channel: str = "home") -> T | None:
    """``work`` on what the database holds (no working set)."""
    return await core.read_table("console", channel, work)


# ------------------------------------------------------------------ moving to a campaign
async def test_a_campaign_keeps_its_own_documents_and_takes_the_ones_it_lacks(
        core: Core) -> None:
    key = campaign_key("c")

    async def set_up_campaign(uow: UnitOfWork) -> None:
        target = await uow.table("console", key, "coc", create=True)
        assert target is not None
        uow.save(NOTE_A, Note("campaign's a"), table=target)

    async def set_up_home(uow: UnitOfWork) -> None:
        uow.save(NOTE_A, Note("home's a"))
        uow.save(NOTE_B, Note("home's b"))
        uow.save(NOTE_C, Note("home's c"))  # no other table has one

    async def set_up_other(uow: UnitOfWork) -> None:
        uow.save(NOTE_B, Note("other's b"))  # another table's document of a key home has

    await in_unit(core, set_up_home)
    await in_unit(core, set_up_other, "other")
    await in_unit(core, set_up_campaign, "other")

    async def move(uow: UnitOfWork) -> int:
        target = await uow.table("console", key, "coc")
        assert target is not None
        return await uow.move_to(target)
    assert await in_unit(core, move) == 0

    async def notes(uow: UnitOfWork) -> tuple[Note, Note, Note]:
        return await uow.load(NOTE_A), await uow.load(NOTE_B), await uow.load(NOTE_C)
    assert await stored(core, notes, key) == (
        Note("campaign's a"), Note("home's b"), Note("home's c"))
    assert await stored(core, notes) == (Note("home's a"), Note(), Note())
    assert await stored(core, notes, "other") == (Note(), Note("other's b"), Note())
    assert await in_unit(core, notes) == (Note("home's a"), Note(), Note())  # no stale copy


async def test_sheets_move_with_their_documents_and_the_campaigns_active_ones_win(
        core: Core) -> None:
    key = campaign_key("c")

    async def set_up_home(uow: UnitOfWork) -> None:
        alice = await uow.add_sheet("alice", "甲")
        uow.save(HAND, Hand(["A"]), alice)
        await uow.add_sheet("bob", "乙")
        await uow.add_sheet("carol", "丙", active=False)

    async def set_up_campaign(uow: UnitOfWork) -> None:  # alice already plays there
        await uow.add_sheet("alice", "戊")

    await in_unit(core, set_up_home)
    await in_unit(core, set_up_campaign, key)

    async def move(uow: UnitOfWork) -> int:
        target = await uow.table("console", key, "coc")
        assert target is not None
        return await uow.move_to(target)
    assert await in_unit(core, move) == 3

    async def sheets(uow: UnitOfWork) -> list[tuple[str, str, bool, list[str]]]:
        return [(s.owner, s.name, s.active, (await uow.load(HAND, s)).cards)
                for s in await uow.sheets()]
    assert await stored(core, sheets, key) == [
        ("alice", "甲", False, ["A"]), ("bob", "乙", True, []), ("carol", "丙", False, []),
        ("alice", "戊", True, [])]
    assert await stored(core, sheets) == []


async def test_a_clash_of_sheet_names_moves_nothing(core: Core) -> None:
    key = campaign_key("c")

    async def set_up_home(uow: UnitOfWork) -> None:
        await uow.add_sheet("alice", "甲")
        await uow.add_sheet("alice", "乙")
        await uow.add_sheet("bob", "甲")  # bob's 甲 is no clash: alice has the other

    async def set_up_campaign(uow: UnitOfWork) -> None:
        await uow.add_sheet("alice", "乙")
        await uow.add_sheet("alice", "甲")
        await uow.add_sheet("carol", "甲")

    await in_unit(core, set_up_home)
    await in_unit(core, set_up_campaign, key)

    async def move(uow: UnitOfWork) -> list[str]:
        target = await uow.table("console", key, "coc")
        assert target is not None
        with pytest.raises(SheetClash) as clash:
            await uow.move_to(target)
        return clash.value.names
    assert await in_unit(core, move) == ["乙", "甲"]
    assert str(SheetClash(["乙", "甲"])) == "乙, 甲"

    async def names(uow: UnitOfWork) -> list[str]:
        return [s.name for s in await uow.sheets()]
    assert await stored(core, names) == ["甲", "乙", "甲"]

    async def by_id(uow: UnitOfWork) -> list[str | None]:
        found = [await uow.sheet(s.id) for s in await uow.sheets()]
        return [s.name if s else None for s in [*found, await uow.sheet(10_000)]]
    assert await stored(core, by_id) == ["甲", "乙", "甲", None]


async def test_each_sheet_reads_its_own_documents_from_the_database(core: Core) -> None:
    async def set_up(uow: UnitOfWork) -> None:
        a, b = await uow.add_sheet("alice", "甲"), await uow.add_sheet("bob", "乙")
        uow.save(DISCARDS, Hand(["a's discard"]), a)  # stored before a's hand
        uow.save(HAND, Hand(["a's card"]), a)
        uow.save(HAND, Hand(["b's card"]), b)
    await in_unit(core, set_up)

    async def hands(uow: UnitOfWork) -> list[tuple[list[str], list[str]]]:
        return [((await uow.load(HAND, s)).cards, (await uow.load(DISCARDS, s)).cards)
                for s in await uow.sheets()]
    assert await stored(core, hands) == [(["a's card"], ["a's discard"]), (["b's card"], [])]


# ------------------------------------------------------------------ other tables
async def test_another_table_is_read_with_its_gms_and_created_with_the_system_asked(
        core: Core) -> None:
    key = campaign_key("c")

    async def create(uow: UnitOfWork) -> tuple[Table | None, Table | None]:
        missing = await uow.table("console", key, "coc")
        made = await uow.table("console", key, "dnd5e", create=True)
        assert made is not None
        made.gms = [Gm("k", "Keeper"), Gm("j", "")]
        made.locale, made.default_die = "en", "d20"
        return missing, made
    missing, made = await in_unit(core, create)
    assert missing is None and made is not None
    assert (made.platform, made.channel_key, made.system) == ("console", key, "dnd5e")

    async def read(uow: UnitOfWork) -> Table | None:
        return await uow.table("console", key, "coc")
    assert await in_unit(core, read) == Table(
        made.id, "console", key, "dnd5e", "en", "d20",
        [Gm("k", "Keeper"), Gm("j", "")])

    async def copy_to(uow: UnitOfWork) -> Table:
        uow.add_gm("g", "Gina")
        target = Table(0, "console", "x", "coc")
        uow.copy_gms(target)
        return target
    assert (await in_unit(core, copy_to)).gms == [Gm("g", "Gina")]


# ------------------------------------------------------------------ bindings
async def test_binding_rebinding_and_unbinding_a_channel(core: Core) -> None:
    def bind(campaign: str | None) -> Callable[[UnitOfWork], Awaitable[bool]]:
        async def work(uow: UnitOfWork) -> bool:
            await uow.bind("console", "thread", campaign)
            return uow.moved
        return work

    async def binding(uow: UnitOfWork) -> str | None:
        return await uow.binding("console", "thread")

    assert await in_unit(core, bind("c1")) is True
    assert await in_unit(core, binding) == "c1"
    assert await in_unit(core, bind("c1")) is True  # the same: nothing to write
    assert await in_unit(core, binding) == "c1"
    await in_unit(core, bind("c2"))
    assert await in_unit(core, binding) == "c2"
    assert await core.table_key("console", "thread") == campaign_key("c2")
    await in_unit(core, bind(None))
    assert await in_unit(core, binding) is None
    await in_unit(core, bind(None))  # unbinding an unbound channel: nothing
    assert await core.table_key("console", "thread") == "thread"


# ------------------------------------------------------------------ game logs
async def test_every_field_of_a_game_log_is_read_back_as_stored(core: Core) -> None:
    exported = datetime(2026, 12, 2, 6, 0, 0)

    async def start(uow: UnitOfWork) -> Log:
        log = await uow.new_log("夜", "k")
        assert log in await uow.logs()
        return log
    log = await in_unit(core, start)
    assert (log.name, log.active, log.lines, log.chars, log.full, log.started_by) == (
        "夜", False, 0, 0, False, "k")
    assert isinstance(log.created_at, datetime)

    async def logs(uow: UnitOfWork) -> list[Log]:
        return await uow.logs()
    stored_log = Log(log.id, log.channel_id, "夜", False, 0, 0, False, "k", None,
                     log.created_at)
    assert await stored(core, logs) == [stored_log]

    async def finish(uow: UnitOfWork) -> None:
        [found] = await uow.logs()
        found.full, found.exported_at = True, exported
    await in_unit(core, finish)
    assert await stored(core, logs) == [Log(log.id, log.channel_id, "夜", False, 0, 0,
                                            True, "k", exported, log.created_at)]


async def test_recorded_lines_are_read_back_in_order_and_counted(core: Core) -> None:
    lines = [Line("said", "u", "U", "一"), Line("reply", "", "", "二二"),
             Line("private", "u", "U", "三三三")]
    window: list[datetime] = []

    async def record(uow: UnitOfWork) -> bool:
        other = await uow.new_log("前夜", "k")
        uow.record(other, [Line("said", "u", "U", "別的")])
        log = await uow.new_log("夜", "k")
        log.active = True
        window.append(utc_now())
        recorded = uow.record(log, lines)
        window.append(utc_now())
        await asyncio.sleep(0.01)  # the commit comes later: the time is the record's
        return recorded and uow.record(log, [Line("said", "v", "V", "四")])
    assert await in_unit(core, record) is True

    async def read(uow: UnitOfWork) -> tuple[Log, list[LogLine], dict[int, int]]:
        log = (await uow.logs())[1]
        return log, await uow.log_lines(log), await uow.public_line_counts([log])
    found = await stored(core, read)
    assert found is not None
    log, read_lines, counts = found
    assert (log.name, log.active, log.lines, log.chars) == ("夜", True, 4, 7)
    assert [(x.kind, x.user, x.name, x.text) for x in read_lines] == [
        ("said", "u", "U", "一"), ("reply", "", "", "二二"), ("private", "u", "U", "三三三"),
        ("said", "v", "V", "四")]
    assert all(window[0] <= x.at <= window[1] for x in read_lines[:3])
    assert counts == {log.id: 3}


async def test_a_new_log_is_one_insert_and_no_update_until_it_changes(core: Core) -> None:
    async def start(uow: UnitOfWork) -> list[Any]:
        await uow.new_log("夜", "k")
        return [statement for statement, _ in uow.changes()]
    assert sql.update_log() not in await in_unit(core, start)


async def test_a_log_records_up_to_its_caps_exactly(
        core: Core, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(book, "MAX_LINES", 3)
    monkeypatch.setattr(book, "MAX_CHARS", 5)

    def said(text: str) -> Line:
        return Line("said", "u", "U", text)

    async def record(uow: UnitOfWork) -> list[bool]:
        by_chars, by_lines = await uow.new_log("字", "k"), await uow.new_log("行", "k")
        by_chars.active = by_lines.active = True
        return [uow.record(by_chars, [said("12")]),
                uow.record(by_chars, [said("123")]),  # 5 characters: the cap
                uow.record(by_chars, [said("4")]),
                uow.record(by_lines, [said(""), said("")]),
                uow.record(by_lines, [said("")]),  # 3 lines: the cap
                uow.record(by_lines, [said("")])]
    assert await in_unit(core, record) == [True, True, False, True, True, False]

    async def logs(uow: UnitOfWork) -> list[tuple[bool, bool, int, int]]:
        return [(log.active, log.full, log.lines, log.chars) for log in await uow.logs()]
    assert await stored(core, logs) == [(False, True, 2, 5), (False, True, 3, 0)]


# ------------------------------------------------------------------ kept private messages
async def test_kept_private_messages_are_taken_oldest_first_once(core: Core) -> None:
    async def keep(uow: UnitOfWork) -> None:
        uow.keep_pending("k", "一")
        uow.keep_pending("j", "別人的")
        uow.keep_pending("k", "二")
    await in_unit(core, keep)
    await in_unit(core, keep, "other")

    async def take(uow: UnitOfWork) -> list[str]:
        return await uow.take_pending("k")
    assert await in_unit(core, take) == ["一", "二"]
    assert await in_unit(core, take) == []
    assert await in_unit(core, take, "other") == ["一", "二"]


async def test_lines_come_back_in_the_order_recorded_after_a_row_was_rewritten(
        any_settings: Settings) -> None:
    """PostgreSQL returns rows in the order they lie in the table unless asked: a row
    written again (deleted and inserted, as a restore does) lies at its end — the order
    is the lines' ids."""
    core = await Core.open(any_settings)
    try:
        async def record(uow: UnitOfWork) -> None:
            log = await uow.new_log("夜", "k")
            uow.record(log, [Line("said", "u", "U", text) for text in ("一", "二", "三")])
        await in_unit(core, record)
        async with core.engine.begin() as connection:  # the first line written again
            first = sql.LINES.c.text == "一"
            row = (await connection.execute(select(sql.LINES).where(first))).one()
            await connection.execute(delete(sql.LINES).where(first))
            await connection.execute(insert(sql.LINES).values(**row._asdict()))

        async def lines(uow: UnitOfWork) -> list[str]:
            [log] = await uow.logs()
            return [line.text for line in await uow.log_lines(log)]
        assert await stored(core, lines) == ["一", "二", "三"]
    finally:
        await core.close()


async def test_kept_messages_come_back_oldest_first_after_a_row_was_written_again(
        any_settings: Settings) -> None:
    """As the log's lines: the order is the rows' ids, not where they lie."""
    core = await Core.open(any_settings)
    try:
        async def keep(uow: UnitOfWork) -> None:
            for text in ("一", "二", "三"):
                uow.keep_pending("k", text)
        await in_unit(core, keep)
        async with core.engine.begin() as connection:
            first = sql.PENDING.c.text == "一"
            row = (await connection.execute(select(sql.PENDING).where(first))).one()
            await connection.execute(delete(sql.PENDING).where(first))
            await connection.execute(insert(sql.PENDING).values(**row._asdict()))

        async def take(uow: UnitOfWork) -> list[str]:
            return await uow.take_pending("k")
        assert await in_unit(core, take) == ["一", "二", "三"]
    finally:
        await core.close()


async def test_gms_are_read_in_the_order_they_became_gms_then_by_id(
        any_settings: Settings) -> None:
    """The oldest GM first; GMs of one moment (an older schema gave every GM of a
    table the same ``since``) by user id, not in the order their rows were written."""
    def add(user: str) -> Callable[[UnitOfWork], Awaitable[None]]:
        async def work(uow: UnitOfWork) -> None:
            uow.add_gm(user, user.upper())
        return work

    async def gms(uow: UnitOfWork) -> list[str]:
        return [gm.user for gm in uow.channel.gms]
    core = await Core.open(any_settings)
    try:
        for user in ("zed", "amy"):
            await in_unit(core, add(user))
        async with core.engine.begin() as connection:
            table = (await connection.execute(select(sql.CHANNELS.c.id))).scalar_one()
            await connection.execute(insert(sql.GMS), [
                {"channel_id": table, "user": user, "display_name": "",
                 "since": datetime(2026, 1, 1)} for user in ("yan", "bea")])
        assert await stored(core, gms) == ["bea", "yan", "zed", "amy"]
    finally:
        await core.close()


async def test_a_damaged_document_names_its_table_and_sheet(core: Core) -> None:
    key = campaign_key("c")

    async def set_up(uow: UnitOfWork) -> None:
        sheet = await uow.add_sheet("alice", "甲")
        uow.save(HAND, Hand(["A"]), sheet)
        target = await uow.table("console", key, "coc", create=True)
        assert target is not None
        uow.save(NOTE_A, Note("x"), table=target)
    await in_unit(core, set_up)
    async with core.engine.begin() as connection:  # as a damaged disk leaves them
        await connection.execute(update(sql.SHEET_STATES).values(data={"cards": "A"}))
        await connection.execute(update(sql.STATES).values(data={"text": ["x"]}))

    async def wheres(uow: UnitOfWork) -> list[str]:
        [sheet] = await uow.sheets()
        target = await uow.table("console", key, "coc")
        found = []
        for load in (uow.load(HAND, sheet), uow.load(NOTE_A, table=target)):
            with pytest.raises(DamagedDocument) as caught:
                await load
            found.append(caught.value.where)
        return found
    assert await stored(core, wheres) == ["console:home (sheet '甲')", f"console:{key}"]


async def test_a_sheets_document_is_read_with_its_sheet_only(core: Core) -> None:
    async def misuse(uow: UnitOfWork) -> list[str]:
        sheet = await uow.add_sheet("alice", "甲")
        found = []
        for wrong in (lambda: uow.save(HAND, Hand()), lambda: uow.save(NOTE_A, Note(), sheet)):
            with pytest.raises(TypeError) as caught:
                wrong()
            found.append(str(caught.value))
        return found
    assert await in_unit(core, misuse) == [
        "test.hand: a sheet's document needs the sheet, and only it",
        "test.note_a: a sheet's document needs the sheet, and only it"]


async def _write_again(core: Core, table: Any, first: Any) -> None:
    """The row ``first`` of ``table`` deleted and inserted as it was: on PostgreSQL it
    then lies at the table's end."""
    async with core.engine.begin() as connection:
        row = (await connection.execute(select(table).where(first))).one()
        await connection.execute(delete(table).where(first))
        await connection.execute(insert(table).values(**row._asdict()))


async def test_another_tables_sheets_come_back_oldest_first_after_a_row_was_written_again(
        any_settings: Settings) -> None:
    async def add(uow: UnitOfWork) -> None:
        for owner, name in (("alice", "甲"), ("bob", "乙")):
            await uow.add_sheet(owner, name)

    async def away(uow: UnitOfWork) -> list[str]:
        other = await uow.table("console", "away", "coc")
        assert other is not None
        return [sheet.name for sheet in await uow.sheets(table=other)]
    core = await Core.open(any_settings)
    try:
        await in_unit(core, add, channel="away")
        await _write_again(core, sql.SHEETS, sql.SHEETS.c.name == "甲")
        assert await in_unit(core, away) == ["甲", "乙"]
    finally:
        await core.close()


async def test_logs_come_back_oldest_first_after_a_row_was_written_again(
        any_settings: Settings) -> None:
    async def start(uow: UnitOfWork) -> None:
        for name in ("一", "二"):
            await uow.new_log(name, "k")

    async def logs(uow: UnitOfWork) -> list[str]:
        return [log.name for log in await uow.logs()]
    core = await Core.open(any_settings)
    try:
        await in_unit(core, start)
        await _write_again(core, sql.LOGS, sql.LOGS.c.name == "一")
        assert await stored(core, logs) == ["一", "二"]
    finally:
        await core.close()


async def test_a_deleted_sheet_drops_only_its_own_changes(core: Core) -> None:
    """One command deletes a sheet and changes another sheet and the table: the other
    changes are stored (the deleted sheet comes first in every list)."""
    async def set_up(uow: UnitOfWork) -> None:
        for owner, name in (("alice", "甲"), ("bob", "乙")):
            await uow.add_sheet(owner, name)
    await in_unit(core, set_up)

    async def mixed(uow: UnitOfWork) -> None:
        first, second = await uow.sheets()
        uow.save(HAND, Hand(["甲's card"]), first)
        uow.save(HAND, Hand(["乙's card"]), second)
        uow.save(NOTE_A, Note("the table's"))
        second.stats["hp"] = 7
        await uow.delete_sheet(first)
    await in_unit(core, mixed)

    async def read(uow: UnitOfWork) -> tuple[list[tuple[str, dict[str, Any]]], list[str], str]:
        [sheet] = await uow.sheets()
        return ([(s.name, s.stats) for s in await uow.sheets()],
                (await uow.load(HAND, sheet)).cards, (await uow.load(NOTE_A)).text)
    assert await stored(core, read) == ([("乙", {"hp": 7})], ["乙's card"], "the table's")


async def test_a_sheet_added_and_deleted_by_one_command_leaves_nothing(core: Core) -> None:
    async def both(uow: UnitOfWork) -> None:
        await uow.delete_sheet(await uow.add_sheet("alice", "甲"))

    async def names(uow: UnitOfWork) -> list[str]:
        return [s.name for s in await uow.sheets()]
    await asyncio.wait_for(in_unit(core, both), 10)
    assert await in_unit(core, names) == []
    assert await stored(core, names) == []


async def test_a_write_that_returns_no_rows_gives_none(core: Core) -> None:
    async def rename(uow: UnitOfWork) -> Any:
        return await uow.link.write_now(
            update(sql.CHANNELS).where(sql.CHANNELS.c.id == uow.channel.id).values(
                locale="en"))
    assert await in_unit(core, rename) is None
