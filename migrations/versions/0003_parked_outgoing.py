"""Parked outgoing messages: replies an adapter could not send before stopping.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parked_outgoing",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("platform", sa.String(32), nullable=False),
        sa.Column("origin", sa.String(200), nullable=False),
        sa.Column("message", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_parked_outgoing_platform", "parked_outgoing", ["platform"])


def downgrade() -> None:
    op.drop_table("parked_outgoing")
