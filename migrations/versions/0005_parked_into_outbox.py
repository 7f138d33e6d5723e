"""Parked replies become outbox rows: one store for every reply not yet delivered.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a parked reply's origin was its Plurk thread, which is also its Outgoing's channel
    op.execute(sa.text(
        "INSERT INTO outbox (platform, message, created_at) "
        "SELECT platform, message, created_at FROM parked_outgoing ORDER BY id"))
    op.drop_table("parked_outgoing")


def downgrade() -> None:
    op.create_table(
        "parked_outgoing",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("platform", sa.String(32), nullable=False),
        sa.Column("origin", sa.String(200), nullable=False),
        sa.Column("message", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_parked_outgoing_platform", "parked_outgoing", ["platform"])
