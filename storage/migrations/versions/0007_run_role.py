"""run role: a member's run or a baseline the system ran by itself

Every run stored before this revision was asked for by a member (baselines were stored as the member's own runs),
so existing rows get ``member`` and nothing else changes.

Revision ID: 0007_run_role
Revises: 0006_chat_messages
Create Date: 2026-11-24 01:40:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision: str = "0007_run_role"
down_revision: str | None = "0006_chat_messages"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.add_column(
            sa.Column("role", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False, server_default="member")
        )


def downgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.drop_column("role")
