"""Statements the core runs on every command, built once per dialect."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.orm import Session

from bot.store.models import OutboxMessage, ProcessedMessage, table_of, utc_now


@cache
def _claim(dialect: str) -> Any:
    table = table_of(ProcessedMessage)
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(table).on_conflict_do_nothing(
            index_elements=["platform", "message_id"])
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert(table).on_conflict_do_nothing(
        index_elements=["platform", "message_id"])


def claim_row(session: Session, platform: str, message_id: str) -> bool:
    """Record a processed message id through SQLAlchemy, in the session's transaction
    (``INSERT … ON CONFLICT DO NOTHING``); False when it was recorded before."""
    bind = session.bind
    assert bind is not None
    return bool(session.connection().execute(_claim(bind.dialect.name), {
        "platform": platform, "message_id": message_id}).rowcount == 1)


def outbox_ids(session: Session, rows: list[dict[str, Any]]) -> list[int]:
    """Insert outbox rows through SQLAlchemy, in the session's transaction: their ids,
    in the order of ``rows``."""
    many = len(rows) > 1
    return list(session.connection().execute(
        _outbox(many), rows if many else rows[0]).scalars().all())


@cache
def _driver_statement(dialect: Dialect, which: str,
                      ) -> tuple[str, list[str], dict[str, Callable[[Any], Any]]]:
    """SQL text, parameter order and bind processors of a statement, compiled once by
    SQLAlchemy for ``dialect``, for a caller that sends it to the driver itself."""
    if which == "claim":
        table, statement = ProcessedMessage.__table__, _claim(dialect.name)
        columns = ["platform", "message_id", "processed_at"]
    else:
        table, statement = OutboxMessage.__table__, _outbox(False)
        columns = ["platform", "message", "created_at", "claimed_by", "lease_until"]
    compiled = statement.compile(dialect=dialect, column_keys=columns)
    assert compiled.positiontup is not None
    processors = {name: table.c[name].type.dialect_impl(dialect).bind_processor(dialect)
                  for name in columns}
    return compiled.string, list(compiled.positiontup), {
        name: process for name, process in processors.items() if process is not None}


def _driver_params(dialect: Dialect, which: str, values: dict[str, Any],
                   ) -> tuple[str, tuple[Any, ...]]:
    sql, order, processors = _driver_statement(dialect, which)
    for name, process in processors.items():
        values[name] = process(values[name])
    return sql, tuple(values[name] for name in order)


def claim_sql(dialect: Dialect, platform: str, message_id: str) -> tuple[str, tuple[Any, ...]]:
    """The claim statement as the driver takes it — SQL text and positional parameters,
    compiled by SQLAlchemy from the same statement — for a caller that sends it to the
    driver's connection itself (:meth:`bot.store.group.GroupWriter.claim`)."""
    return _driver_params(dialect, "claim", {
        "platform": platform, "message_id": message_id, "processed_at": utc_now()})


def outbox_sql(dialect: Dialect, platform: str, message: dict[str, Any],
               claim: dict[str, Any]) -> tuple[str, tuple[Any, ...]]:
    """``INSERT INTO outbox … RETURNING id`` of one reply, as the driver takes it (see
    :func:`claim_sql`); ``claim``: its claim columns (:func:`bot.store.outbox.new_claim`)."""
    return _driver_params(dialect, "outbox", {
        "platform": platform, "message": message, "created_at": utc_now(), **claim})


@cache
def _outbox(many: bool) -> Any:
    """``INSERT INTO outbox … RETURNING id``; ``many``: for several rows at once, the
    ids in the order of the rows given."""
    from sqlalchemy import insert

    table = table_of(OutboxMessage)
    return insert(table).returning(table.c.id, sort_by_parameter_order=many)
