"""The working set (bot/store/working_set.py) and the unit of work over it
(bot/unit_of_work.py), without a database: what a command reads from memory, the
writes its work comes to (a change made in place included), that nothing reaches the
working set before :meth:`UnitOfWork.settle` (a failed command leaves it as stored),
and the bounds of what is kept. Each test is a few milliseconds."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import Any

import pytest

from bot.documents import Doc
from bot.gamelog import book
from bot.gamelog.book import Line
from bot.handlers.campaign import INVITES
from bot.kits.acting import NICKNAMES, Nicknames
from bot.records import Gm, Log, Sheet, Table
from bot.store import statements as sql
from bot.store.working_set import (
    BINDINGS_PER_TABLE,
    Stored,
    TableState,
    WorkingSet,
    copy_json,
    copy_sheet,
    copy_table,
)
from bot.unit_of_work import UnitOfWork


@dataclass
class Hand:
    cards: list[str] = field(default_factory=list)


HAND = Doc("test.hand", Hand, Hand, per_character=True)
"""A sheet's document."""


class NoDatabase:
    """A link that fails the test on any statement: what it serves comes from memory."""

    async def read(self, statement: Any) -> Any:
        raise AssertionError(f"read from the database: {statement}")

    async def write_now(self, statement: Any, params: dict[str, Any] | None = None) -> Any:
        raise AssertionError(f"written at once: {statement}")


class Inserted:
    def __init__(self, row_id: int) -> None:
        self.row_id = row_id

    def scalar_one(self) -> int:
        return self.row_id


class Rows:
    def __init__(self, rows: list[Any]) -> None:
        self.rows = rows

    def first(self) -> Any:
        return self.rows[0] if self.rows else None

    def scalar(self) -> Any:
        return self.rows[0][0] if self.rows else None

    def __iter__(self) -> Any:
        return iter(self.rows)


class Recording(NoDatabase):
    """Writes at once get new ids (from 100); reads answer ``answers`` in order."""

    def __init__(self, *answers: list[Any]) -> None:
        self.answers = list(answers)
        self.reads: list[Any] = []
        self.written: list[tuple[Any, dict[str, Any] | None]] = []

    async def read(self, statement: Any) -> Any:
        if not self.answers:
            return await super().read(statement)
        self.reads.append(statement)
        return Rows(self.answers.pop(0))

    async def write_now(self, statement: Any, params: dict[str, Any] | None = None) -> Any:
        self.written.append((statement, params))
        return Inserted(100 + len(self.written) - 1)


def table_state() -> TableState:
    """Table 1 ("p", "t") with a GM, alice's active sheet 10 and her inactive sheet 11,
    the nicknames document stored, the invites never stored, one game log."""
    return TableState(
        Table(1, "p", "t", "coc", gms=[Gm("gm", "GM")]),
        sheets={10: Sheet(10, 1, "alice", "甲", True, {"hp": 3, "bag": ["rope"]}),
                11: Sheet(11, 1, "alice", "乙", False, {})},
        docs={(NICKNAMES.key, None): Stored({"names": {"alice": "小愛"}}, 1),
              (INVITES.key, None): None,
              (HAND.key, 10): Stored({"cards": ["A"]}, 1)},
        logs=[Log(5, 1, "s1", active=True, lines=2, chars=10)])


def held(state: TableState) -> tuple[Any, ...]:
    """What a table's entry holds, copied (to compare with later)."""
    return copy.deepcopy((state.table, state.sheets, state.docs, state.logs))


# ------------------------------------------------------------------ reading
async def test_what_the_working_set_knows_is_read_without_the_database() -> None:
    uow = UnitOfWork(NoDatabase(), table_state())
    assert [s.name for s in await uow.sheets()] == ["甲", "乙"]
    assert [s.name for s in await uow.sheets("alice")] == ["甲", "乙"]
    assert (await uow.active_sheet("alice")) == Sheet(10, 1, "alice", "甲", True,
                                                       {"hp": 3, "bag": ["rope"]})
    assert await uow.active_sheet("bob") is None
    assert await uow.load(NICKNAMES) == Nicknames({"alice": "小愛"})
    assert (await uow.load(INVITES)).codes == {}  # never stored: the default
    sheet = await uow.sheet(10)
    assert sheet is not None and await uow.load(HAND, sheet) == Hand(["A"])
    assert [log.name for log in await uow.logs()] == ["s1"]
    assert uow.changes() == []


async def test_a_document_read_from_the_database_is_kept_even_when_never_stored() -> None:
    """The first read of a document asks the database; its answer — "never stored"
    included — is kept, so the next command reads nothing."""
    state = table_state()
    del state.docs[(INVITES.key, None)]
    link = Recording([])
    assert (await UnitOfWork(link, state).load(INVITES)).codes == {}
    assert len(link.reads) == 1
    assert state.docs[(INVITES.key, None)] is None
    assert (await UnitOfWork(NoDatabase(), state).load(INVITES)).codes == {}


async def test_another_tables_documents_are_not_kept_as_this_tables() -> None:
    """A campaign's document read by this table's command stays out of its entry."""
    state = table_state()
    other = Table(2, "p", "campaign:x", "coc")
    link = Recording([])
    assert (await UnitOfWork(link, state).load(INVITES, table=other)).codes == {}
    assert len(link.reads) == 1
    assert state.docs == table_state().docs


async def test_a_command_gets_copies_that_share_nothing_with_the_working_set() -> None:
    state = table_state()
    uow = UnitOfWork(NoDatabase(), state)
    sheet = await uow.active_sheet("alice")
    assert sheet is not None
    sheet.stats["bag"].append("lamp")
    names = await uow.load(NICKNAMES)
    names.names["alice"] = "changed"
    uow.channel.gms[0].display_name = "renamed"
    uow.channel.gms.append(Gm("bob"))
    assert state.sheets is not None and state.sheets[10].stats == {"hp": 3, "bag": ["rope"]}
    assert state.docs[(NICKNAMES.key, None)] == Stored({"names": {"alice": "小愛"}}, 1)
    assert state.table.gms == [Gm("gm", "GM")]


# ------------------------------------------------------------------ the writes of a command
async def test_a_sheet_changed_in_place_is_one_update_and_kept_only_once_settled() -> None:
    """``sheet.stats["hp"] = 1`` is written like an assignment; the working set takes
    the new value at :meth:`settle` (after the commit), as a copy of its own."""
    state = table_state()
    uow = UnitOfWork(NoDatabase(), state)
    sheet = await uow.active_sheet("alice")
    assert sheet is not None
    sheet.stats["hp"] = 1
    assert uow.changes() == [(sql.update_sheet(), {
        "_id": 10, "channel_id": 1, "owner": "alice", "name": "甲", "active": True,
        "stats": {"hp": 1, "bag": ["rope"]}})]
    assert state.sheets is not None and state.sheets[10].stats["hp"] == 3
    uow.settle()
    assert state.sheets[10].stats == {"hp": 1, "bag": ["rope"]}
    sheet.stats["hp"] = 99  # the command's copy is not the kept one
    assert state.sheets[10].stats["hp"] == 1


async def test_a_document_changed_but_not_saved_is_no_write() -> None:
    """Documents are saved explicitly: a loaded value changed without ``save`` comes to
    no write, and the working set keeps what is stored."""
    state = table_state()
    uow = UnitOfWork(NoDatabase(), state)
    names = await uow.load(NICKNAMES)
    names.names["alice"] = "偷改"
    assert uow.changes() == []
    uow.settle()
    assert state.docs[(NICKNAMES.key, None)] == Stored({"names": {"alice": "小愛"}}, 1)


async def test_a_saved_document_is_an_update_when_stored_and_an_insert_when_not() -> None:
    state = table_state()
    uow = UnitOfWork(NoDatabase(), state)
    uow.save(NICKNAMES, Nicknames({"alice": "阿愛"}))
    uow.save(INVITES, INVITES.default())
    assert uow.changes() == [
        (sql.update_doc(False), {"_owner": 1, "_key": NICKNAMES.key,
                                 "data": {"names": {"alice": "阿愛"}}, "schema": 1}),
        (sql.insert_doc(False), {"channel_id": 1, "key": INVITES.key,
                                 "data": {"codes": {}}, "schema": 1, "version": 0})]
    assert await uow.load(NICKNAMES) == Nicknames({"alice": "阿愛"})  # read back at once
    assert state.docs[(NICKNAMES.key, None)] == Stored({"names": {"alice": "小愛"}}, 1)
    uow.settle()
    assert state.docs[(NICKNAMES.key, None)] == Stored({"names": {"alice": "阿愛"}}, 1)
    assert state.docs[(INVITES.key, None)] == Stored({"codes": {}}, 1)


async def test_a_failed_command_leaves_the_working_set_as_stored() -> None:
    """Everything a command can change, changed — and no :meth:`settle` (it failed):
    the table's entry is exactly as before."""
    state = table_state()
    before = held(state)
    uow = UnitOfWork(Recording(), state)
    uow.channel.locale = "en"
    uow.add_gm("bob", "Bob")
    sheet = await uow.active_sheet("alice")
    assert sheet is not None
    sheet.stats["hp"] = 0
    sheet.active = False
    await uow.add_sheet("alice", "丙")
    await uow.delete_sheet((await uow.sheets())[1])
    uow.save(NICKNAMES, Nicknames({}))
    uow.save(HAND, Hand(["B"]), sheet)
    log = await uow.active_log()
    assert log is not None and uow.record(log, [Line("said", "alice", "alice", "hi")])
    assert uow.changes() != []
    assert held(state) == before


async def test_the_tables_changes() -> None:
    """The language (with the system and default die: one shape), a GM added, a GM
    removed, a GM's new display name."""
    state = table_state()
    state.table.gms.append(Gm("old", "Old"))
    uow = UnitOfWork(NoDatabase(), state)
    uow.channel.locale = "en"
    assert uow.remove_gm("old") == "Old"
    assert uow.remove_gm("nobody") is None
    uow.add_gm("bob", "Bob")
    uow.channel.gms[0].display_name = "Game Master"
    changes = uow.changes()
    for change in changes:
        if change[0] is sql.INSERT_GM:
            change[1].pop("since")
    assert changes == [
        (sql.update_table(), {"_id": 1, "system": "coc", "locale": "en",
                              "default_die": None}),
        (sql.delete_gm(), {"_table": 1, "_user": "old"}),
        (sql.rename_gm(), {"_table": 1, "_user": "gm", "display_name": "Game Master"}),
        (sql.INSERT_GM, {"channel_id": 1, "user": "bob", "display_name": "Bob"})]
    uow.settle()
    assert state.table == Table(1, "p", "t", "coc", "en",
                                gms=[Gm("gm", "Game Master"), Gm("bob", "Bob")])


async def test_a_new_sheet_is_written_at_once_and_only_its_later_changes_are_updates() -> None:
    state = table_state()
    link = Recording()
    uow = UnitOfWork(link, state)
    made = await uow.add_sheet("bob", "丙", stats={"hp": 5})
    assert made == Sheet(100, 1, "bob", "丙", True, {"hp": 5})
    assert link.written == [(link.written[0][0], {
        "channel_id": 1, "owner": "bob", "name": "丙", "active": True, "stats": {"hp": 5}})]
    assert uow.changes() == []
    assert (await uow.active_sheet("bob")) is made
    made.stats["hp"] = 4
    assert [change[1]["_id"] for change in uow.changes()] == [100]
    uow.save(HAND, Hand(["K"]), made)  # its document: never stored, an insert
    assert uow.changes()[1] == (sql.insert_doc(True), {
        "character_id": 100, "key": HAND.key, "data": {"cards": ["K"]}, "schema": 1,
        "version": 0})
    uow.settle()
    assert state.sheets is not None and state.sheets[100] == Sheet(
        100, 1, "bob", "丙", True, {"hp": 4})
    assert state.docs[(HAND.key, 100)] == Stored({"cards": ["K"]}, 1)


async def test_a_deleted_sheet_goes_with_its_documents() -> None:
    """The sheet's documents are deleted before it (the foreign key), a document saved
    for it in the same command is not written, and the working set forgets both."""
    state = table_state()
    uow = UnitOfWork(NoDatabase(), state)
    sheet = await uow.sheet(10)
    assert sheet is not None
    uow.save(HAND, Hand(["Q"]), sheet)
    await uow.delete_sheet(sheet)
    assert uow.changes() == [(sql.delete_sheet_docs(), {"_id": 10}),
                             (sql.delete_sheet(), {"_id": 10})]
    assert [s.id for s in await uow.sheets()] == [11]
    uow.settle()
    assert state.sheets is not None and list(state.sheets) == [11]
    assert (HAND.key, 10) not in state.docs


async def test_a_sheet_moved_to_another_table_leaves_this_tables_entry() -> None:
    state = table_state()
    uow = UnitOfWork(NoDatabase(), state)
    sheet = await uow.sheet(11)
    assert sheet is not None
    sheet.channel_id = 2
    assert uow.changes() == [(sql.update_sheet(), {
        "_id": 11, "channel_id": 2, "owner": "alice", "name": "乙", "active": False,
        "stats": {}})]
    assert [s.id for s in await uow.sheets()] == [10]
    uow.settle()
    assert state.sheets is not None and list(state.sheets) == [10]


async def test_recorded_lines_are_inserts_and_the_log_counts_an_update() -> None:
    state = table_state()
    uow = UnitOfWork(NoDatabase(), state)
    log = await uow.active_log()
    assert log is not None
    assert uow.record(log, [Line("said", "alice", "A", "hello"), Line("reply", "", "", "hi")])
    changes = uow.changes()
    assert [statement for statement, _ in changes] == [
        sql.update_log(), sql.INSERT_LINE, sql.INSERT_LINE]
    assert changes[0][1] == {"_id": 5, "active": True, "full": False, "lines": 4,
                             "chars": 17, "exported_at": None}
    assert [(p["log_id"], p["kind"], p["text"]) for _, p in changes[1:]] == [
        (5, "said", "hello"), (5, "reply", "hi")]
    uow.settle()
    assert state.logs is not None and (state.logs[0].lines, state.logs[0].chars) == (4, 17)


async def test_a_log_that_would_pass_its_cap_stops_and_records_nothing() -> None:
    state = table_state()
    assert state.logs is not None
    state.logs[0].lines = book.MAX_LINES - 1
    uow = UnitOfWork(NoDatabase(), state)
    log = await uow.active_log()
    assert log is not None
    lines = [Line("said", "alice", "A", "x")] * 2
    assert uow.record(log, lines) is False
    assert uow.changes() == [(sql.update_log(), {
        "_id": 5, "active": False, "full": True, "lines": book.MAX_LINES - 1,
        "chars": 10, "exported_at": None})]


async def test_binding_a_channel_marks_the_work_as_moved() -> None:
    """The writer drops the whole working set after such a command."""
    uow = UnitOfWork(Recording([]), table_state())
    assert uow.moved is False
    await uow.bind("p", "t", "龍穴")
    assert uow.moved is True
    assert uow.changes() == [(sql.INSERT_BINDING, {
        "platform": "p", "channel_key": "t", "campaign": "龍穴"})]


# ------------------------------------------------------------------ the bounds
def _state(key: str) -> TableState:
    return TableState(Table(len(key), "p", key, "coc"))


def test_the_least_recently_used_table_leaves_first() -> None:
    ws = WorkingSet(2)
    a, b, c = _state("a"), _state("b"), _state("c")
    ws.keep(a)
    ws.keep(b)
    assert ws.table("p", "a") is a  # now the most recently used
    ws.keep(c)
    assert list(ws.tables) == [("p", "a"), ("p", "c")]
    assert ws.table("p", "b") is None


def test_keeping_a_table_again_replaces_its_entry_and_makes_it_recent() -> None:
    ws = WorkingSet(3)
    old, b, new = _state("a"), _state("b"), _state("a")
    ws.keep(old)
    ws.keep(b)
    ws.keep(new)
    assert list(ws.tables) == [("p", "b"), ("p", "a")]
    assert ws.table("p", "a") is new


def test_the_bound_is_at_least_two_tables() -> None:
    """A command may read its table and a campaign's."""
    assert WorkingSet(0).limit == 2 and WorkingSet(1).limit == 2
    assert WorkingSet(3).limit == 3


def test_hits_and_misses_are_counted_one_per_look_up() -> None:
    """The benchmark and the stress run read the working set's hit rate."""
    ws = WorkingSet(3)
    ws.keep(_state("a"))
    assert [ws.table("p", key) is not None for key in ("a", "a", "a", "b", "z")] == [
        True, True, True, False, False]
    assert (ws.hits, ws.misses) == (3, 2)


def test_bindings_are_bounded_and_the_least_recently_used_leaves_first() -> None:
    """Four bindings per table kept (two tables: eight); a look-up makes a binding the
    most recently used one; a channel known to be unbound is known too."""
    assert BINDINGS_PER_TABLE == 4
    ws = WorkingSet(2)
    assert ws.binding("p", "k0") == (False, None)
    for n in range(8):
        ws.keep_binding("p", f"k{n}", None)
    assert len(ws.bindings) == 8
    assert ws.binding("p", "k0") == (True, None)

    ws.keep_binding("p", "k8", "camp")

    assert [key for _, key in ws.bindings] == ["k2", "k3", "k4", "k5", "k6", "k7",
                                               "k0", "k8"]
    assert ws.binding("p", "k8") == (True, "camp")
    assert ws.binding("p", "k1") == (False, None)


def test_clearing_forgets_tables_and_bindings_and_is_counted() -> None:
    ws = WorkingSet(3)
    ws.keep(_state("a"))
    ws.keep_binding("p", "a", "camp")
    ws.clear()
    ws.clear()
    assert ws.cleared == 2
    assert ws.table("p", "a") is None and ws.binding("p", "a") == (False, None)


@pytest.mark.parametrize("value", [
    {"a": [1, {"b": [2]}]}, [[1], {"x": None}], {"s": "text", "n": 1.5, "t": True}])
def test_copies_share_nothing_mutable(value: Any) -> None:
    copied = copy_json(value)
    assert copied == value
    stack: list[tuple[Any, Any]] = [(value, copied)]
    while stack:
        original, twin = stack.pop()
        if isinstance(original, (dict, list)):
            assert twin is not original
            pairs = zip(original.values(), twin.values(), strict=True) \
                if isinstance(original, dict) else zip(original, twin, strict=True)
            stack.extend(pairs)


def test_a_copied_table_and_sheet_share_nothing_mutable() -> None:
    table = Table(1, "p", "t", "coc", gms=[Gm("gm", "GM")])
    twin = copy_table(table)
    twin.gms[0].display_name = "other"
    twin.gms.append(Gm("bob"))
    assert table.gms == [Gm("gm", "GM")]
    sheet = Sheet(1, 1, "u", "n", True, {"bag": ["rope"]})
    copied = copy_sheet(sheet)
    copied.stats["bag"].append("lamp")
    assert sheet.stats == {"bag": ["rope"]}


def test_a_copy_keeps_every_field() -> None:
    """`copy_table` and `copy_sheet` name each field (faster than
    `dataclasses.replace`): a field added to the records must be added to them too."""
    table = Table(7, "p", "t", "coc", "en", "d100", [Gm("gm", "GM")])
    sheet = Sheet(3, 7, "u", "n", True, {"hp": 5})
    assert copy_table(table) == table and copy_sheet(sheet) == sheet
    assert [f.name for f in fields(Table)] == [
        "id", "platform", "channel_key", "system", "locale", "default_die", "gms"]
    assert [f.name for f in fields(Sheet)] == [
        "id", "channel_id", "owner", "name", "active", "stats"]
