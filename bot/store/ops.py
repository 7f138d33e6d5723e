"""Statements the core runs on every command, built once per dialect."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.models import OutboxMessage, ProcessedMessage, _now


@cache
def _claim(dialect: str) -> Any:
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    return insert(ProcessedMessage.__table__).on_conflict_do_nothing(
        index_elements=["platform", "message_id"])


def claim_statement(session: AsyncSession) -> Any:
    """``INSERT INTO processed_messages … ON CONFLICT DO NOTHING`` for the session's
    database: its row count says whether the id was new."""
    bind = session.bind
    assert bind is not None
    return _claim(bind.dialect.name)


@cache
def _claim_sql(dialect: Dialect) -> tuple[str, list[str], Callable[[Any], Any]]:
    compiled = _claim(dialect.name).compile(
        dialect=dialect, column_keys=["platform", "message_id", "processed_at"])
    column_type = ProcessedMessage.__table__.c.processed_at.type
    process = column_type.dialect_impl(dialect).bind_processor(dialect)
    assert compiled.positiontup is not None
    return compiled.string, list(compiled.positiontup), process or (lambda value: value)


def claim_sql(dialect: Dialect, platform: str, message_id: str) -> tuple[str, tuple[Any, ...]]:
    """The claim statement as the driver takes it — SQL text and positional parameters,
    compiled by SQLAlchemy from the same statement — for a caller that sends it to the
    driver's connection itself (:meth:`bot.store.group.GroupWriter.claim`)."""
    sql, order, process = _claim_sql(dialect)
    values = {"platform": platform, "message_id": message_id, "processed_at": process(_now())}
    return sql, tuple(values[name] for name in order)


@cache
def outbox_statement(many: bool) -> Any:
    """``INSERT INTO outbox … RETURNING id``; ``many``: for several rows at once, the
    ids in the order of the rows given."""
    from sqlalchemy import insert

    table = OutboxMessage.__table__
    return insert(table).returning(table.c.id, sort_by_parameter_order=many)
