"""The character a log line was said as (issue 26, item 12): a log reads as a story
told by 艾莉絲 and 鮑伯, not by the accounts alice and bob, and a player who switches
characters mid-session must not rename what was said before. The name is kept as it
was when the line was written; lines recorded before this revision have none and
show the speaker's display name, as before.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_log_lines") as batch:
        batch.add_column(sa.Column("character", sa.String(200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game_log_lines") as batch:
        batch.drop_column("character")
