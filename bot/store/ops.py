"""Statements the core runs on every command, built once per dialect."""

from __future__ import annotations

from functools import cache
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.models import OutboxMessage, ProcessedMessage


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
def outbox_statement(many: bool) -> Any:
    """``INSERT INTO outbox … RETURNING id``; ``many``: for several rows at once, the
    ids in the order of the rows given."""
    from sqlalchemy import insert

    table = OutboxMessage.__table__
    return insert(table).returning(table.c.id, sort_by_parameter_order=many)
