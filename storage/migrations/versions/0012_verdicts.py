"""run verdicts and judge epochs (issue 28: one verdict per result, a fixed secret suite per epoch)

Revision ID: 0012_verdicts
Revises: 0011_published_syncs
Create Date: 2026-11-28 18:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

import storage.timestamps

revision: str = "0012_verdicts"
down_revision: str | None = "0011_published_syncs"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "run_verdicts",
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("judged_at", storage.timestamps.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"]),
        sa.PrimaryKeyConstraint("run_id"),
    )
    op.create_table(
        "judge_epochs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("started_at", storage.timestamps.UTCDateTime(timezone=True), nullable=False),
        sa.Column("started_by", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )


def downgrade() -> None:
    op.drop_table("judge_epochs")
    op.drop_table("run_verdicts")
