"""Initial schema: channels, GMs, characters, channel state, processed ids, pending DMs.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "channels",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("platform", sa.String(32), nullable=False),
        sa.Column("channel_key", sa.String(200), nullable=False),
        sa.Column("system", sa.String(32), nullable=False),
        sa.Column("locale", sa.String(16), nullable=True),
        sa.Column("default_die", sa.String(64), nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("platform", "channel_key"),
    )
    op.create_table(
        "channel_gms",
        sa.Column("channel_id", sa.Integer, sa.ForeignKey("channels.id"), primary_key=True),
        sa.Column("user", sa.String(200), primary_key=True),
        sa.Column("display_name", sa.String(200), nullable=False),
        sa.Column("since", sa.DateTime, nullable=False),
    )
    op.create_table(
        "characters",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("channel_id", sa.Integer, sa.ForeignKey("channels.id"), nullable=False),
        sa.Column("owner", sa.String(200), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("active", sa.Boolean, nullable=False),
        sa.Column("stats", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("channel_id", "owner", "name"),
    )
    op.create_index("ix_characters_channel_id", "characters", ["channel_id"])
    op.create_table(
        "channel_state",
        sa.Column("channel_id", sa.Integer, sa.ForeignKey("channels.id"), primary_key=True),
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
    )
    op.create_table(
        "processed_messages",
        sa.Column("platform", sa.String(32), primary_key=True),
        sa.Column("message_id", sa.String(200), primary_key=True),
        sa.Column("processed_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "pending_private",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("channel_id", sa.Integer, sa.ForeignKey("channels.id"), nullable=False),
        sa.Column("user", sa.String(200), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ix_pending_private_channel_id", "pending_private", ["channel_id"])


def downgrade() -> None:
    for table in (
        "pending_private", "processed_messages", "channel_state", "characters",
        "channel_gms", "channels",
    ):
        op.drop_table(table)
