"""published_syncs: the group's record tables as read by ``sutro records sync`` (issue 27: records that follow the
group)

Revision ID: 0011_published_syncs
Revises: 0009_sprints
Create Date: 2026-11-28 18:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

import storage.timestamps

revision: str = "0011_published_syncs"
down_revision: str | None = "0009_sprints"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "published_syncs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("source", sqlmodel.sql.sqltypes.AutoString(length=500), nullable=False),
        sa.Column("commit", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("synced_at", storage.timestamps.UTCDateTime(timezone=True), nullable=False),
        sa.Column("snapshot", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_published_syncs_synced_at"), "published_syncs", ["synced_at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_published_syncs_synced_at"), table_name="published_syncs")
    op.drop_table("published_syncs")
