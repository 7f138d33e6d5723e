"""The transactional outbox, and a version counter on character sheets.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("platform", sa.String(32), nullable=False),
        sa.Column("message", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_outbox_platform", "outbox", ["platform"])
    op.add_column("characters", sa.Column("version", sa.Integer, nullable=False,
                                          server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("characters") as batch:
        batch.drop_column("version")
    op.drop_table("outbox")
