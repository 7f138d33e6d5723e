"""Outbox account: which bot account of a platform sends a stored reply (issue 25, item 6).

Several bot accounts of one platform may share one store: several QQ accounts on one
reverse WebSocket, or processes with different Plurk accounts. A reply must leave
through the account that received its command — a QQ group knows only its own bot,
a Plurk thread is answered by its own account — also when it was kept in the outbox
across a restart. ``account`` names it (``Incoming.account``); rows stored before
this revision have none, and any account of their platform sends them, as before.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("account", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("account")
