"""Game logs (`.log`): one row per log of a table, one per line.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_logs",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("channel_id", sa.Integer, sa.ForeignKey("channels.id"), nullable=False,
                  index=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("active", sa.Boolean, nullable=False),
        sa.Column("lines", sa.Integer, nullable=False),
        sa.Column("chars", sa.Integer, nullable=False),
        sa.Column("full", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("channel_id", "name"),
    )
    op.create_table(
        "game_log_lines",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("log_id", sa.Integer, sa.ForeignKey("game_logs.id"), nullable=False,
                  index=True),
        sa.Column("at", sa.DateTime, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("user", sa.String(200), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("game_log_lines")
    op.drop_table("game_logs")
