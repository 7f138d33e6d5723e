"""Alembic environment: always run with a connection and the schema's metadata handed
over by ``bot.store.db.alembic_config`` (so the migrations import nothing of ``bot``)."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - alembic CLI without the app
    raise RuntimeError("run migrations through `trpgbot db upgrade`")

context.configure(
    connection=connection,
    target_metadata=context.config.attributes["target_metadata"],
    render_as_batch=True,
)
with context.begin_transaction():
    context.run_migrations()
