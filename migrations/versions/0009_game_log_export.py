"""Who started a game log and when it was last exported (`.log export` is for a GM, or
the log's starter at a table without one, at most once a minute per table).

A log started before this revision gets as its starter the speaker of its first
recorded message — the `.log on` that created it (the command is recorded in the
log it starts).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_logs") as batch:
        batch.add_column(sa.Column("started_by", sa.String(200), nullable=True))
        batch.add_column(sa.Column("exported_at", sa.DateTime, nullable=True))
    logs = sa.table("game_logs", sa.column("id", sa.Integer),
                    sa.column("started_by", sa.String))
    lines = sa.table("game_log_lines", sa.column("id", sa.Integer),
                     sa.column("log_id", sa.Integer), sa.column("kind", sa.String),
                     sa.column("user", sa.String))
    first = (sa.select(lines.c.user)
             .where(lines.c.log_id == logs.c.id, lines.c.kind == "said")
             .order_by(lines.c.id).limit(1).scalar_subquery())
    op.execute(logs.update().values(started_by=first))


def downgrade() -> None:
    with op.batch_alter_table("game_logs") as batch:
        batch.drop_column("exported_at")
        batch.drop_column("started_by")
