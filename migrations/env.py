"""Alembic environment: always run with a connection handed over by bot.store.db."""

from __future__ import annotations

from alembic import context

from bot.store.models import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - alembic CLI without the app
    raise RuntimeError("run migrations through `trpgbot db upgrade`")

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=True,
)
with context.begin_transaction():
    context.run_migrations()
