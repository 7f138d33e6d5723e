"""Channel bindings: several platform channels playing at one campaign's table.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "channel_bindings",
        sa.Column("platform", sa.String(32), primary_key=True),
        sa.Column("channel_key", sa.String(200), primary_key=True),
        sa.Column("campaign", sa.String(100), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("channel_bindings")
