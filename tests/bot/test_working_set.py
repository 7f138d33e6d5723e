"""The working set (bot/store/cache.py), in exact tests first written from the surviving
mutants of the `core` area (see docs/testing.md, "Mutation testing"): which tables
and entries it forgets when a row changes, is rolled back or leaves the bound, and
which it keeps. A real :class:`WorkingSet` on a real SQLAlchemy session over SQLite
(in memory), as the group-commit writer uses it; each test is a few milliseconds."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from bot.store.cache import NeedsSavepoint, WorkingSet
from bot.store.models import (
    Base,
    Channel,
    ChannelBinding,
    ChannelGM,
    ChannelState,
    Character,
    CharacterState,
    PendingPrivate,
)


@pytest.fixture
def session() -> Iterator[Session]:
    engine = create_engine("sqlite://")
    Base.metadata.create_all(engine)
    with Session(engine, expire_on_commit=False) as opened:
        yield opened
    engine.dispose()


def _channels(session: Session, *keys: str) -> list[Channel]:
    rows = [Channel(platform="p", channel_key=key, system="coc", gms=[]) for key in keys]
    session.add_all(rows)
    session.commit()
    return rows


def _sheet(session: Session, channel: Channel, owner: str) -> Character:
    sheet = Character(channel_id=channel.id, owner=owner, name=owner, active=True, stats={})
    session.add(sheet)
    session.commit()
    return sheet


def _working_set(session: Session, *channels: Channel, tables: int = 100) -> WorkingSet:
    ws = WorkingSet(session, tables)
    for channel in channels:
        ws.keep_channel(channel)
    ws.begin_command()
    return ws


def _cached(ws: WorkingSet, *keys: str) -> list[str]:
    """Which of the tables ``keys`` (platform "p") the working set still answers."""
    return [key for key in keys if ws.channel("p", key) is not None]


# ------------------------------------------------------------------ dropping a table
def test_a_forgotten_table_leaves_every_index_and_its_rows_stay_in_the_session(
        session: Session) -> None:
    """Forgetting a table mid-command (a rollback touched its channel) forgets its
    channel, its active sheets and the sheets it held — and nothing of the other
    table; its rows stay in the session (only an eviction between commands takes
    them out), so the command can still change and write them."""
    c1, c2 = _channels(session, "a", "b")
    sheet, other = _sheet(session, c1, "u"), _sheet(session, c1, "v")
    doc = CharacterState(character_id=other.id, key="hp", data={"hp": 3})
    session.add(doc)
    session.commit()
    ws = _working_set(session, c1, c2)
    ws.keep_active(c1.id, "u", sheet)
    ws.hold(c1.id, doc)  # the document of a sheet that is not an active one kept
    ws.keep_active(c2.id, "u", None)
    assert ws.active(c1.id, "u") == (True, sheet)
    assert set(ws.sheets) == {sheet.id, other.id}

    ws.forget_touched({c1})

    assert _cached(ws, "a", "b") == ["b"]
    assert ws.active(c1.id, "u") == (False, None)
    assert ws.active(c2.id, "u") == (True, None)
    assert set(ws.by_id) == {c2.id}
    assert ws.sheets == {}
    assert c1 in session and sheet in session and doc in session
    c1.locale = "en"
    session.commit()
    assert session.scalar(select(Channel.locale).where(Channel.id == c1.id)) == "en"


def test_a_sheet_that_moved_on_stays_indexed_by_its_new_table(session: Session) -> None:
    """A sheet moved to another table (`.campaign bind`) is still held by the old
    table's entry: dropping the old table must not forget where the sheet is now, so
    a later change of the sheet's document still drops the new table."""
    c1, c2 = _channels(session, "a", "b")
    sheet = _sheet(session, c1, "u")
    doc = CharacterState(character_id=sheet.id, key="hp", data={})
    session.add(doc)
    session.commit()
    ws = _working_set(session, c1, c2)
    ws.keep_active(c1.id, "u", sheet)
    sheet.channel_id = c2.id
    session.flush()
    ws.keep_active(c2.id, "u", sheet)
    ws.forget_touched({c1})
    assert _cached(ws, "a", "b") == ["b"]
    assert ws.active(c2.id, "u") == (True, sheet)

    ws.forget_touched({doc})  # the document of the moved sheet was rolled back

    assert _cached(ws, "a", "b") == []


# ------------------------------------------------------------------ the bound
def test_the_least_recently_used_table_leaves_with_its_rows(session: Session) -> None:
    """Past the bound, the oldest table is dropped after the command, its channel
    and sheets taken out of the session (their memory goes at once); the others
    stay, cached and in the session."""
    c1, c2, c3 = _channels(session, "a", "b", "c")
    sheet = _sheet(session, c1, "u")
    ws = _working_set(session, c1, tables=2)
    ws.keep_active(c1.id, "u", sheet)
    ws.keep_channel(c2)
    ws.keep_channel(c3)

    ws.end_command()

    assert list(ws.tables) == [("p", "b"), ("p", "c")]
    assert set(ws.by_id) == {c2.id, c3.id}
    assert ws.sheets == {}
    assert c1 not in session and sheet not in session
    assert c2 in session and c3 in session
    assert _cached(ws, "a", "b", "c") == ["b", "c"]


def test_an_evicted_table_keeps_a_change_not_yet_written(session: Session) -> None:
    """A row changed in memory and not flushed yet is not taken out of the session
    when its table leaves the working set: the change is still written."""
    c1, c2, c3 = _channels(session, "a", "b", "c")
    sheet = _sheet(session, c1, "u")
    ws = _working_set(session, c1, c2, c3, tables=2)
    ws.keep_active(c1.id, "u", sheet)
    c1.locale = "en"

    ws.end_command()

    assert list(ws.tables) == [("p", "b"), ("p", "c")]
    assert c1 in session
    assert sheet not in session  # unchanged: it goes
    session.commit()
    assert session.scalar(select(Channel.locale).where(Channel.id == c1.id)) == "en"


# ------------------------------------------------------------------ which table a row belongs to
def test_a_channel_row_known_only_by_its_natural_key_drops_that_table(
        session: Session) -> None:
    """A channel row whose id cannot be read without loading it is matched by its
    (platform, key): that table is dropped, and the rest is kept."""
    c1, c2 = _channels(session, "a", "b")
    ws = _working_set(session, c1, c2)
    ws.keep_binding("p", "x", "camp")

    ws.forget_touched({Channel(platform="p", channel_key="a")})

    assert _cached(ws, "a", "b") == ["b"]
    assert ws.binding("p", "x") == (True, "camp")  # not everything was dropped


def test_rows_of_tables_not_kept_are_passed_over(session: Session) -> None:
    """A failed command's rows include kinds the working set never holds (a game-log
    line, a kept private message): they are skipped, and the rows after them still
    drop their tables (a list, so that the skipped row comes first)."""
    c1, c2 = _channels(session, "a", "b")
    ws = _working_set(session, c1, c2)
    ws.forget_touched([PendingPrivate(channel_id=c2.id, user="u", text="s"),
                       ChannelState(channel_id=c1.id, key="battle")])
    assert _cached(ws, "a", "b") == ["b"]


def test_a_channel_row_known_only_by_its_id_drops_that_table(session: Session) -> None:
    """A channel row of which only the id is loaded drops the table of that id, and
    no other."""
    c1, c2 = _channels(session, "a", "b")
    ws = _working_set(session, c1, c2)
    ws.keep_binding("p", "x", "camp")

    ws.forget_touched({Channel(id=c1.id)})

    assert _cached(ws, "a", "b") == ["b"]
    assert ws.binding("p", "x") == (True, "camp")


def test_a_channel_row_that_cannot_be_placed_drops_everything(session: Session) -> None:
    """Neither its id nor its full key loaded: the whole working set goes."""
    c1, c2 = _channels(session, "a", "b")
    ws = _working_set(session, c1, c2)
    ws.keep_binding("p", "x", "camp")

    ws.forget_touched({Channel(platform="p")})

    assert _cached(ws, "a", "b") == []
    assert ws.binding("p", "x") == (False, None)


def test_a_channel_that_moved_to_another_key_is_not_found_under_the_old_one(
        session: Session) -> None:
    """A flushed change of a channel's key drops the table kept under its old key."""
    c1, c2 = _channels(session, "a", "b")
    ws = _working_set(session, c1, c2)
    c1.channel_key = "z"
    session.flush()
    assert _cached(ws, "a", "b", "z") == ["b"]


def test_a_table_document_drops_only_its_table(session: Session) -> None:
    """A rolled-back state document of a table drops that table and keeps the rest."""
    c1, c2 = _channels(session, "a", "b")
    ws = _working_set(session, c1, c2)
    ws.keep_binding("p", "x", "camp")

    ws.forget_touched({ChannelState(channel_id=c1.id, key="battle")})

    assert _cached(ws, "a", "b") == ["b"]
    assert ws.binding("p", "x") == (True, "camp")


def test_a_sheet_document_drops_the_table_that_holds_the_sheet(session: Session) -> None:
    """A sheet's document belongs to the table holding the sheet — found by the
    sheet's id, which here equals the id of another table (that one stays)."""
    c1, c2 = _channels(session, "a", "b")
    sheet = _sheet(session, c2, "u")
    assert sheet.id == c1.id  # the sheet's id must not be read as a table's id
    ws = _working_set(session, c1, c2)
    ws.keep_active(c2.id, "u", sheet)

    ws.forget_touched({CharacterState(character_id=sheet.id, key="hp")})

    assert _cached(ws, "a", "b") == ["a"]


def test_a_document_of_a_table_not_kept_drops_nothing(session: Session) -> None:
    c1, c2 = _channels(session, "a", "b")
    ws = _working_set(session, c1, c2)
    ws.forget_touched({ChannelState(channel_id=99, key="battle")})
    assert _cached(ws, "a", "b") == ["a", "b"]


def test_a_document_whose_table_cannot_be_read_drops_everything(session: Session) -> None:
    c1, c2 = _channels(session, "a", "b")
    ws = _working_set(session, c1, c2)
    ws.keep_binding("p", "x", "camp")

    ws.forget_touched({ChannelState(key="battle")})

    assert _cached(ws, "a", "b") == []
    assert ws.binding("p", "x") == (False, None)


def test_a_document_moved_to_another_table_drops_both_tables(session: Session) -> None:
    """`.campaign bind` moves a state document: the table it left and the table it
    joined are both dropped when the move is flushed; a third table stays."""
    c1, c2, c3 = _channels(session, "a", "b", "c")
    doc = ChannelState(channel_id=c1.id, key="battle", data={})
    session.add(doc)
    session.commit()
    ws = _working_set(session, c1, c2, c3)

    doc.channel_id = c2.id
    session.flush()

    assert _cached(ws, "a", "b", "c") == ["c"]


# ------------------------------------------------------------------ bindings
def _bound(session: Session) -> WorkingSet:
    ws = _working_set(session)
    ws.keep_binding("p", "a", "camp")
    ws.keep_binding("p", "b", None)
    return ws


def test_a_rolled_back_binding_forgets_that_binding_only(session: Session) -> None:
    ws = _bound(session)
    ws.forget_touched({ChannelBinding(platform="p", channel_key="a", campaign="camp")})
    assert ws.binding("p", "a") == (False, None)
    assert ws.binding("p", "b") == (True, None)


def test_a_binding_not_kept_forgets_nothing(session: Session) -> None:
    ws = _bound(session)
    ws.forget_touched({ChannelBinding(platform="p", channel_key="zz", campaign="c")})
    assert ws.binding("p", "a") == (True, "camp")
    assert ws.binding("p", "b") == (True, None)


def test_a_binding_without_its_full_key_forgets_every_binding(session: Session) -> None:
    ws = _bound(session)
    ws.forget_touched({ChannelBinding(platform="p")})
    assert ws.binding("p", "a") == (False, None)
    assert ws.binding("p", "b") == (False, None)


# ------------------------------------------------------------------ active sheets
@pytest.fixture
def sheets(session: Session) -> tuple[WorkingSet, list[Channel], Character, Character]:
    """Table "a" (kept) with the active sheets of u and v and none of w; "c" not kept."""
    c1, c2, c3 = _channels(session, "a", "b", "c")
    mine, theirs = _sheet(session, c1, "u"), _sheet(session, c1, "v")
    ws = _working_set(session, c1, c2)
    ws.keep_active(c1.id, "u", mine)
    ws.keep_active(c1.id, "v", theirs)
    ws.keep_active(c1.id, "w", None)
    return ws, [c1, c2, c3], mine, theirs


def test_a_sheet_whose_stats_change_stays_the_active_one(
        session: Session, sheets: tuple[WorkingSet, list[Channel], Character, Character],
) -> None:
    ws, (c1, _, _), mine, theirs = sheets
    mine.stats = {"hp": 3}
    session.flush()
    assert ws.active(c1.id, "u") == (True, mine)
    assert ws.active(c1.id, "v") == (True, theirs)
    assert ws.active(c1.id, "w") == (True, None)


def test_a_deleted_sheet_is_no_longer_the_active_one(
        session: Session, sheets: tuple[WorkingSet, list[Channel], Character, Character],
) -> None:
    ws, (c1, _, _), mine, theirs = sheets
    session.delete(mine)
    session.flush()
    assert ws.active(c1.id, "u") == (False, None)
    assert ws.active(c1.id, "v") == (True, theirs)


def test_a_sheet_given_to_another_owner_is_forgotten_for_both(
        session: Session, sheets: tuple[WorkingSet, list[Channel], Character, Character],
) -> None:
    """The old owner's entry and the new owner's are dropped; a third player's stays."""
    ws, (c1, _, _), mine, theirs = sheets
    mine.owner = "w"
    session.flush()
    assert ws.active(c1.id, "u") == (False, None)
    assert ws.active(c1.id, "w") == (False, None)
    assert ws.active(c1.id, "v") == (True, theirs)


def test_a_sheet_moved_to_a_table_not_kept_leaves_its_old_table(
        session: Session, sheets: tuple[WorkingSet, list[Channel], Character, Character],
) -> None:
    """Moved to a table the working set does not hold: the old table forgets the
    owner's active sheet (and only that owner's)."""
    ws, (c1, _, c3), mine, theirs = sheets
    mine.channel_id = c3.id
    session.flush()
    assert ws.active(c1.id, "u") == (False, None)
    assert ws.active(c1.id, "v") == (True, theirs)
    assert ws.active(c1.id, "w") == (True, None)


def test_evicting_an_old_entry_of_a_channel_keeps_its_newer_one(session: Session) -> None:
    """A channel kept again under a new key (changed in memory, not flushed yet) has
    a newer entry: when the older entry leaves the bound, the channel's id still
    leads to the newer one, with its active sheets."""
    c1, c2 = _channels(session, "a", "b")
    ws = _working_set(session, c1, tables=2)
    c1.channel_key = "z"
    ws.keep_channel(c1)
    ws.keep_active(c1.id, "u", None)
    ws.keep_channel(c2)

    ws.end_command()

    assert list(ws.tables) == [("p", "z"), ("p", "b")]
    assert ws.active(c1.id, "u") == (True, None)
    assert ws.channel("p", "z") is c1


# ------------------------------------------------------------------ rows handed out
def test_a_row_handed_out_is_only_a_live_one(session: Session) -> None:
    """The working set never hands out a row that is expired or no longer in its
    session (it would be an old copy): that counts as not cached."""
    c1, c2, c3 = _channels(session, "a", "b", "c")
    ws = _working_set(session, c1, c2, c3)
    assert ws.row(Channel, (c1.id,)) is c1
    expired, gone = c2.id, c3.id  # read before: reading an expired row loads it
    session.expire(c2)
    session.expunge(c3)
    assert _cached(ws, "a", "b", "c") == ["a"]
    assert ws.row(Channel, (expired,)) is None
    assert ws.row(Channel, (gone,)) is None  # not in the session
    assert ws.row(Channel, (999,)) is None


def test_json_changed_in_place_drops_its_table_and_is_read_again(
        session: Session, caplog: pytest.LogCaptureFixture) -> None:
    """Every document handed to a command is checked when it ends: one whose JSON was
    changed in place (the ORM cannot see it, so it is never written) has its table
    dropped and its value read again — and a warning names the bug once. Documents
    unchanged, written (assigned a new value) or not loaded any more are kept."""
    c1, c2, c3 = _channels(session, "a", "b", "c")
    gone, kept, written, changed = (
        ChannelState(channel_id=channel.id, key="doc", data={"n": 0})
        for channel in (c1, c1, c2, c3))
    kept.key = "other"
    session.add_all([gone, kept, written, changed])
    session.commit()
    ws = _working_set(session, c1, c2, c3)
    for doc in (gone, kept, written, changed):
        ws.lend(doc, "data")
    session.expire(gone, ["data"])  # not loaded any more: nothing to check
    written.data = {"n": 1}  # assigned: the ORM writes it
    changed.data["n"] = 2  # in place: never written

    with caplog.at_level(logging.WARNING, logger="bot.store.cache"):
        ws.end_command()

    assert _cached(ws, "a", "b", "c") == ["a", "b"]
    assert "data" not in changed.__dict__  # expired: read again when next used
    assert changed.data == {"n": 0}
    assert written.data == {"n": 1}
    assert [r.getMessage() for r in caplog.records] == [
        "ChannelState.data was changed in place and not stored; assign a new value "
        "instead (the copy in memory is dropped)"]


def test_the_rows_of_a_failed_command_are_its_flushed_and_its_pending_ones(
        session: Session) -> None:
    c1, c2 = _channels(session, "a", "b")
    ws = _working_set(session, c1, c2)
    c1.locale = "en"
    session.flush()  # c1 is now touched by this command
    c2.locale = "fr"  # pending, not flushed
    assert ws.pending_rows() == {c1, c2}


def test_undoing_a_fast_command_forgets_its_rows_and_their_tables(
        session: Session) -> None:
    """A fast-path command that failed (nothing of it flushed): its new rows and the
    rows it deleted leave the session, and the tables of both are dropped; a table it
    did not touch stays, and nothing of the command is written."""
    c1, c2, c3 = _channels(session, "a", "b", "c")
    old = ChannelState(channel_id=c1.id, key="old", data={})
    session.add(old)
    session.commit()
    ws = _working_set(session, c1, c2, c3)
    session.delete(old)
    new = ChannelState(channel_id=c2.id, key="new", data={})
    session.add(new)

    ws.undo()

    assert old not in session and new not in session
    assert _cached(ws, "a", "b", "c") == ["c"]
    session.commit()
    assert list(session.scalars(select(ChannelState.key))) == ["old"]


def test_clearing_keeps_rows_with_changes_not_yet_written(session: Session) -> None:
    """Dropping everything takes every row out of the session — unless one has a
    change not written yet, which must still be written."""
    c1, c2 = _channels(session, "a", "b")
    ws = _working_set(session, c1, c2)
    ws.clear()
    assert c1 not in session and c2 not in session

    c1 = session.scalar(select(Channel).where(Channel.channel_key == "a"))
    assert c1 is not None
    c1.locale = "en"
    ws.clear()
    assert c1 in session
    session.commit()
    assert session.scalar(select(Channel.locale).where(Channel.id == c1.id)) == "en"


def test_an_active_sheet_is_kept_only_for_a_kept_table_with_no_sheet_change_pending(
        session: Session) -> None:
    """A look-up is remembered only under a table the working set holds, and not while
    a change of a sheet is pending (the look-up may not show it)."""
    c1, c2 = _channels(session, "a", "b")
    sheet = _sheet(session, c1, "u")
    ws = _working_set(session, c1)
    ws.keep_active(c2.id, "u", None)  # table "b" is not kept
    assert ws.active(c2.id, "u") == (False, None)
    sheet.stats = {"hp": 1}
    ws.keep_active(c1.id, "v", None)  # a sheet change is pending
    session.flush()
    assert ws.active(c1.id, "v") == (False, None)
    ws.keep_active(c1.id, "v", None)
    assert ws.active(c1.id, "v") == (True, None)


def test_undoing_a_change_to_a_stored_row_drops_only_its_table(session: Session) -> None:
    """A fast-path command that changed a stored row and failed: the row is read again
    when next used (its change is gone), and only its table leaves the working set —
    the keys are read before the row is expired, so nothing else is dropped."""
    c1, c2 = _channels(session, "a", "b")
    doc = ChannelState(channel_id=c1.id, key="doc", data={"n": 1})
    session.add(doc)
    session.commit()
    ws = _working_set(session, c1, c2)
    doc.data = {"n": 2}

    ws.undo()

    assert _cached(ws, "a", "b") == ["b"] and ws.cleared == 0
    assert doc.data == {"n": 1}  # expired, read again


# ------------------------------------------------------------------ statements seen
@pytest.mark.parametrize(("sql", "wrote", "changed", "bulk"), [
    ("SELECT * FROM characters", False, False, False),
    ("SAVEPOINT sa_1", False, False, False),
    ("RELEASE SAVEPOINT sa_1", False, False, False),
    ("ROLLBACK TO SAVEPOINT sa_1", False, False, False),
    ("PRAGMA data_version", False, False, False),
    ("BEGIN IMMEDIATE", False, False, False),
    ("INSERT INTO outbox (platform) VALUES (?)", True, False, False),
    ("INSERT INTO characters (name) VALUES (?)", True, True, False),
    ('UPDATE "channel_state" SET data=?', True, True, True),
    ("update characters set stats=?", True, True, True),
    ("DELETE FROM channel_gms WHERE user=?", True, True, True),
    ("DELETE FROM pending_private WHERE id=?", True, False, False),
    ("DELETE FROM channel_gms", True, True, True),  # no WHERE: every row
    ("UPDATE", True, False, False),
    ("INSERT INTO", True, False, False),  # cut short: a write of no table known
    ("DELETE FROM", True, False, False),
    ("VACUUM", False, False, False),
])
def test_what_a_statement_outside_a_flush_says_about_the_working_set(
        session: Session, sql: str, wrote: bool, changed: bool, bulk: bool) -> None:
    """Every statement of the writer's connection passes here: a write marks the
    command as having written, one on a cached table marks the batch (PostgreSQL's
    epoch), and an UPDATE or DELETE of a cached table outside a flush is a bulk
    statement (the working set is dropped after the command)."""
    ws = _working_set(session)
    ws.statement(sql)
    assert (ws.wrote, ws.changed, ws.bulk) == (wrote, changed, bulk)


def test_inside_a_flush_only_the_batch_is_marked(session: Session) -> None:
    ws = _working_set(session)
    ws._flushing = True
    ws.statement("UPDATE characters SET stats=?")
    assert (ws.wrote, ws.changed, ws.bulk) == (True, True, False)


def test_a_fast_path_command_may_write_only_its_message_id(session: Session) -> None:
    """On the fast path a write of its own before the batch flush stops the command
    before the statement runs — except the processed message id it records."""
    ws = _working_set(session)
    ws.fast = True
    ws.statement("INSERT INTO processed_messages (platform) VALUES (?)")
    for sql in ("UPDATE characters SET stats=?", "DELETE FROM pending_private",
                "INSERT INTO outbox (platform) VALUES (?)"):
        with pytest.raises(NeedsSavepoint, match="writes"):
            ws.statement(sql)
    ws._flushing = True  # a flush of the batch-mates' rows it triggered
    ws.statement("UPDATE characters SET stats=?")



def test_undoing_a_new_gm_of_a_stored_channel_forgets_both(session: Session) -> None:
    """A fast-path `.gm` that failed (found by the stress run: its game-log look-up
    needed a savepoint): expiring the channel also takes its new GM out of the session
    (SQLAlchemy expunges a pending row of an expired collection), and the GM must not
    be expunged a second time. The order the two are undone in follows a set's order,
    so the case is played 16 times."""
    for n in range(16):
        [channel] = _channels(session, f"c{n}")
        ws = _working_set(session, channel)
        gm = ChannelGM(user="u", display_name="U")
        channel.gms.append(gm)
        assert set(ws.own_pending()) == {channel, gm}

        ws.undo()

        assert gm not in session
        assert channel.gms == []  # read again: the GM was never stored


# ------------------------------------------------------------------ bindings: pending, bound
def test_only_a_pending_binding_hides_what_is_known_of_bindings(session: Session) -> None:
    """A pending change of another kind (a channel's language) leaves the bindings
    known and rememberable; a pending binding does not — the look-up may not show it."""
    [c1] = _channels(session, "a")
    ws = _working_set(session, c1)
    c1.locale = "en"  # pending, not a binding
    ws.keep_binding("p", "a", "camp")
    assert ws.binding("p", "a") == (True, "camp")

    session.add(ChannelBinding(platform="p", channel_key="b", campaign="x"))
    assert ws.binding("p", "a") == (False, None)
    ws.keep_binding("p", "c", None)  # not remembered: the pending binding may be it
    session.flush()
    assert ws.binding("p", "a") == (True, "camp")
    assert ws.binding("p", "c") == (False, None)


def test_bindings_are_bounded_and_the_least_recently_used_leaves_first(
        session: Session) -> None:
    """Four bindings per table kept (two tables: eight); a look-up makes a binding the
    most recently used one."""
    ws = _working_set(session, tables=2)
    for n in range(8):
        ws.keep_binding("p", f"k{n}", None)
    assert len(ws.bindings) == 8
    assert ws.binding("p", "k0") == (True, None)

    ws.keep_binding("p", "k8", "camp")

    assert [key for _, key in ws.bindings] == ["k2", "k3", "k4", "k5", "k6", "k7",
                                               "k0", "k8"]
    assert ws.binding("p", "k8") == (True, "camp")
    assert ws.binding("p", "k1") == (False, None)


# ------------------------------------------------------------------ active sheets: live
def test_an_active_sheet_expired_since_is_not_known(
        session: Session, sheets: tuple[WorkingSet, list[Channel], Character, Character],
) -> None:
    """An expired sheet would be an old copy: not known (read again) — and never
    "known: no active sheet", which would hide the owner's sheet."""
    ws, (c1, _, _), mine, theirs = sheets
    session.expire(mine)
    assert ws.active(c1.id, "u") == (False, None)
    assert ws.active(c1.id, "v") == (True, theirs)
    assert ws.active(c1.id, "w") == (True, None)


# ------------------------------------------------------------------ JSON changed in place
def test_json_changed_in_place_is_warned_about_once_per_kind(
        session: Session, caplog: pytest.LogCaptureFixture) -> None:
    """The same bug in every command would flood the log: one warning per row class
    and attribute, however often it happens (the copies are dropped every time)."""
    c1, c2, c3 = _channels(session, "a", "b", "c")
    docs = [ChannelState(channel_id=c.id, key="doc", data={"n": 0}) for c in (c1, c2)]
    session.add_all(docs)
    session.commit()
    sheet = _sheet(session, c3, "u")
    ws = _working_set(session, c1, c2, c3)

    with caplog.at_level(logging.WARNING, logger="bot.store.cache"):
        for row, attr in ((docs[0], "data"), (docs[1], "data"), (sheet, "stats")):
            ws.begin_command()
            ws.lend(row, attr)
            getattr(row, attr)["n"] = 1  # in place: never written
            ws.end_command()

    assert _cached(ws, "a", "b", "c") == []
    assert [r.getMessage() for r in caplog.records] == [
        f"{kind} was changed in place and not stored; assign a new value instead (the "
        "copy in memory is dropped)" for kind in ("ChannelState.data", "Character.stats")]


def test_json_changed_in_place_to_a_value_json_cannot_hold_is_dropped_too(
        session: Session) -> None:
    """A handler that puts what JSON cannot hold (a set) into a document in place: the
    change is still seen and the copy dropped — the end of the command does not fail
    on it."""
    c1, c2 = _channels(session, "a", "b")
    doc = ChannelState(channel_id=c1.id, key="doc", data={"n": 0})
    session.add(doc)
    session.commit()
    ws = _working_set(session, c1, c2)
    ws.lend(doc, "data")
    doc.data["tags"] = {"x"}

    ws.end_command()

    assert _cached(ws, "a", "b") == ["b"]
    assert doc.data == {"n": 0}  # read again


# ------------------------------------------------------------------ keeping a table
def test_hits_and_misses_are_counted_one_per_look_up(session: Session) -> None:
    """The benchmark and the stress run read the working set's hit rate: each look-up
    counts once, as a hit or as a miss (not kept, or kept but no longer live)."""
    c1, c2 = _channels(session, "a", "b")
    ws = _working_set(session, c1, c2)
    session.expire(c2)
    assert _cached(ws, "a", "a", "a", "b", "z") == ["a", "a", "a"]
    assert (ws.hits, ws.misses) == (3, 2)


def test_keeping_a_kept_channel_again_keeps_its_entry_and_makes_it_recent(
        session: Session) -> None:
    """The same row kept again (every command that reads its table does so) keeps what
    its entry knows (the active sheets looked up) and becomes the most recently used
    table (the last to leave the bound)."""
    c1, c2 = _channels(session, "a", "b")
    ws = _working_set(session, c1, c2)
    ws.keep_active(c1.id, "u", None)

    ws.keep_channel(c1)

    assert list(ws.tables) == [("p", "b"), ("p", "a")]
    assert ws.active(c1.id, "u") == (True, None)
    assert ws.by_id[c1.id] is ws.tables[("p", "a")]


def test_keeping_a_new_copy_of_a_kept_channel_replaces_its_entry(session: Session) -> None:
    """Another object of the same channel (read again after the session forgot the
    first) replaces the old entry whole: what the old entry knew (its active sheets)
    was about the old copy and is forgotten."""
    c1, c2 = _channels(session, "a", "b")
    ws = _working_set(session, c1, c2)
    ws.keep_active(c1.id, "u", None)
    session.expunge(c1)
    again = session.scalar(select(Channel).where(Channel.channel_key == "a"))
    assert again is not None and again is not c1

    ws.keep_channel(again)

    assert ws.channel("p", "a") is again
    assert ws.active(again.id, "u") == (False, None)
    assert list(ws.tables) == [("p", "b"), ("p", "a")]


def test_undoing_a_fast_command_undoes_every_row_after_one_already_gone(
        session: Session) -> None:
    """A row that left the session with another (a new GM expunged when its channel is
    expired) is passed over, and the rows after it are still undone: the new documents
    of another table all leave the session. The order follows a set's order, so the
    case is played 16 times."""
    for n in range(16):
        channel, other = _channels(session, f"c{n}", f"d{n}")
        ws = _working_set(session, channel, other)
        channel.gms.append(ChannelGM(user="u", display_name="U"))
        docs = [ChannelState(channel_id=other.id, key=f"k{k}", data={}) for k in range(6)]
        session.add_all(docs)

        ws.undo()

        assert [doc in session for doc in docs] == [False] * 6
        assert not (session.new or session.dirty or session.deleted)
