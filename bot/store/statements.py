"""The SQL of the store, as SQLAlchemy Core statements built once.

A statement a command changes something with is one of the shapes below, with every
value a bound parameter, so the writer can send the changes of a whole batch that
share a shape as one ``executemany`` (:mod:`bot.store.writer`).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from sqlalchemy import Executable, bindparam, delete, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from bot.records import Gm, Log, Sheet, Table
from bot.store.models import (
    BINDINGS,
    CHANNELS,
    GMS,
    LINES,
    LOGS,
    OUTBOX,
    PENDING,
    PROCESSED,
    SHEET_STATES,
    SHEETS,
    STATES,
)

Change = tuple[Executable, dict[str, Any]]
"""One write: a statement of this module and its parameters."""


# --- reading ------------------------------------------------------------------------
def table_of_key(platform: str, key: str) -> Executable:
    return select(CHANNELS).where(CHANNELS.c.platform == platform,
                                  CHANNELS.c.channel_key == key)


def gms_of(table_id: int) -> Executable:
    return select(GMS.c.user, GMS.c.display_name).where(
        GMS.c.channel_id == table_id).order_by(GMS.c.since, GMS.c.user)


def sheets_of(table_id: int) -> Executable:
    return select(SHEETS).where(SHEETS.c.channel_id == table_id).order_by(SHEETS.c.id)


def doc_of(table_id: int, key: str) -> Executable:
    return select(STATES.c.data, STATES.c.schema).where(
        STATES.c.channel_id == table_id, STATES.c.key == key)


def sheet_doc_of(sheet_id: int, key: str) -> Executable:
    return select(SHEET_STATES.c.data, SHEET_STATES.c.schema).where(
        SHEET_STATES.c.character_id == sheet_id, SHEET_STATES.c.key == key)


def logs_of(table_id: int) -> Executable:
    return select(LOGS).where(LOGS.c.channel_id == table_id).order_by(LOGS.c.id)


def binding_of(platform: str, channel: str) -> Executable:
    return select(BINDINGS.c.campaign).where(BINDINGS.c.platform == platform,
                                             BINDINGS.c.channel_key == channel)


def table_record(row: Any, gms: list[Gm]) -> Table:
    return Table(row.id, row.platform, row.channel_key, row.system, row.locale,
                 row.default_die, gms)


def sheet_record(row: Any) -> Sheet:
    return Sheet(row.id, row.channel_id, row.owner, row.name, bool(row.active),
                 dict(row.stats or {}))


def log_record(row: Any) -> Log:
    return Log(row.id, row.channel_id, row.name, bool(row.active), row.lines, row.chars,
               bool(row.full), row.started_by, row.exported_at, row.created_at)


# --- the shapes of a change -----------------------------------------------------------
INSERT_GM = insert(GMS)
INSERT_LINE = insert(LINES)
INSERT_PENDING = insert(PENDING)
INSERT_BINDING = insert(BINDINGS)
"""Plain inserts (every value bound as it is)."""


@cache
def insert_table() -> Executable:
    return insert(CHANNELS).returning(CHANNELS.c.id)


@cache
def update_table() -> Executable:
    return update(CHANNELS).where(CHANNELS.c.id == bindparam("_id")).values(
        system=bindparam("system"), locale=bindparam("locale"),
        default_die=bindparam("default_die"))


@cache
def rename_gm() -> Executable:
    return update(GMS).where(GMS.c.channel_id == bindparam("_table"),
                             GMS.c.user == bindparam("_user")).values(
        display_name=bindparam("display_name"))


@cache
def delete_gm() -> Executable:
    return delete(GMS).where(GMS.c.channel_id == bindparam("_table"),
                             GMS.c.user == bindparam("_user"))


@cache
def update_sheet() -> Executable:
    return update(SHEETS).where(SHEETS.c.id == bindparam("_id")).values(
        channel_id=bindparam("channel_id"), owner=bindparam("owner"),
        name=bindparam("name"), active=bindparam("active"), stats=bindparam("stats"),
        version=SHEETS.c.version + 1)


@cache
def delete_sheet_docs() -> Executable:
    return delete(SHEET_STATES).where(SHEET_STATES.c.character_id == bindparam("_id"))


@cache
def delete_sheet() -> Executable:
    return delete(SHEETS).where(SHEETS.c.id == bindparam("_id"))


@cache
def insert_doc(per_sheet: bool) -> Executable:
    return insert(SHEET_STATES if per_sheet else STATES)


@cache
def update_doc(per_sheet: bool) -> Executable:
    table, owner = (SHEET_STATES, SHEET_STATES.c.character_id) if per_sheet \
        else (STATES, STATES.c.channel_id)
    return update(table).where(owner == bindparam("_owner"),
                               table.c.key == bindparam("_key")).values(
        data=bindparam("data"), schema=bindparam("schema"), version=table.c.version + 1)


@cache
def move_docs() -> Executable:
    return update(STATES).where(STATES.c.channel_id == bindparam("_from"),
                                STATES.c.key == bindparam("_key")).values(
        channel_id=bindparam("channel_id"))


@cache
def update_log() -> Executable:
    return update(LOGS).where(LOGS.c.id == bindparam("_id")).values(
        active=bindparam("active"), full=bindparam("full"), lines=bindparam("lines"),
        chars=bindparam("chars"), exported_at=bindparam("exported_at"))


@cache
def delete_pending() -> Executable:
    return delete(PENDING).where(PENDING.c.id == bindparam("_id"))


@cache
def update_binding() -> Executable:
    return update(BINDINGS).where(BINDINGS.c.platform == bindparam("_platform"),
                                  BINDINGS.c.channel_key == bindparam("_channel")).values(
        campaign=bindparam("campaign"))


@cache
def delete_binding() -> Executable:
    return delete(BINDINGS).where(BINDINGS.c.platform == bindparam("_platform"),
                                  BINDINGS.c.channel_key == bindparam("_channel"))


@cache
def delete_outbox() -> Executable:
    return delete(OUTBOX).where(OUTBOX.c.id == bindparam("_id"))


# --- message ids and replies ------------------------------------------------------------
@cache
def claim(dialect: str) -> Executable:
    """``INSERT … ON CONFLICT DO NOTHING RETURNING`` the ids recorded now: an id not
    returned was processed before (a replay)."""
    module: Any = postgresql if dialect == "postgresql" else sqlite
    return module.insert(PROCESSED).on_conflict_do_nothing(
        index_elements=["platform", "message_id"]).returning(
        PROCESSED.c.platform, PROCESSED.c.message_id)


@cache
def last_reply_id() -> Executable:
    return select(func.max(OUTBOX.c.id))


@cache
def outbox_depth() -> Executable:
    """How many replies wait in the outbox, and when the oldest was stored."""
    return select(func.count(), func.min(OUTBOX.c.created_at)).select_from(OUTBOX)


@cache
def insert_replies() -> Executable:
    """The outbox rows of a batch, their ids returned in the order of the rows."""
    return insert(OUTBOX).returning(OUTBOX.c.id, sort_by_parameter_order=True)
