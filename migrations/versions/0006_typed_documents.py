"""Typed state documents: a schema number on channel documents, character documents.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("channel_state", sa.Column("schema", sa.Integer, nullable=False,
                                             server_default="1"))
    op.create_table(
        "character_state",
        sa.Column("character_id", sa.Integer, sa.ForeignKey("characters.id"),
                  primary_key=True),
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("schema", sa.Integer, nullable=False, server_default="1"),
        sa.Column("version", sa.Integer, nullable=False),
    )
    # the campaign invitations were the only core document of the last version
    op.execute(sa.text("UPDATE channel_state SET key = 'core.campaign_invites' "
                       "WHERE key = 'campaign.invites'"))


def downgrade() -> None:
    op.drop_table("character_state")
    with op.batch_alter_table("channel_state") as batch:
        batch.drop_column("schema")
