"""run_attributions (per-buffer tables and reuse histograms recomputed by re-scoring a metric version)

Revision ID: 0008_run_attributions
Revises: 0007_run_role
Create Date: 2026-11-24 02:10:00

Nothing to backfill: runs stored before this revision keep their attribution in their JSON detail, and no run has
been re-scored with one yet.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

import storage.timestamps

revision: str = "0008_run_attributions"
down_revision: str | None = "0007_run_role"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "run_attributions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("metric", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("created_at", storage.timestamps.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("run_id", "metric", name="uq_run_attributions_run_metric"),
    )
    with op.batch_alter_table("run_attributions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_run_attributions_run_id"), ["run_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("run_attributions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_run_attributions_run_id"))
    op.drop_table("run_attributions")
