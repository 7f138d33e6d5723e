"""Outbox claims: which process sends a stored reply, and until when (issue 22, item 11).

Two processes on one store each sent, at start, every reply left in the outbox —
including those the other live process was still sending. A row is now claimed by
the process that sends it (``claimed_by``) until ``lease_until`` (UTC), which that
process renews while it runs: another process takes a row over only once its lease
expired or its claimant is known dead (bot/store/outbox.py). Rows stored before this
revision are unclaimed: the next start sends them, as before.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("claimed_by", sa.String(160), nullable=True))
        batch.add_column(sa.Column("lease_until", sa.DateTime, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("lease_until")
        batch.drop_column("claimed_by")
