"""The store's epoch: one row every writer bumps when it changes a cached table.

A process keeps channel rows, sheets and state documents in memory between
commands (bot/store/cache.py). On PostgreSQL, several processes may share the
database: each batch of the group-commit writer reads this row ``FOR UPDATE``
first and drops its working set when the number moved (another process wrote),
and bumps it in the transaction that changes a cached table. (SQLite needs no
row: ``PRAGMA data_version`` tells the same.)

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    epoch = op.create_table(
        "store_epoch",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("n", sa.BigInteger, nullable=False),
    )
    op.bulk_insert(epoch, [{"id": 1, "n": 0}])


def downgrade() -> None:
    op.drop_table("store_epoch")
