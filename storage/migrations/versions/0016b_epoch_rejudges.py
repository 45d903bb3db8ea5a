"""epoch rejudges: the plan of a judge epoch's rotation, one row per board entry, so it resumes (issue 28)

Revision ID: 0016b_epoch_rejudges
Revises: 0016_explore_journal
Create Date: 2026-11-29 02:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

import storage.timestamps

revision: str = "0016b_epoch_rejudges"
down_revision: str | None = "0016_explore_journal"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "epoch_rejudges",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("epoch_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("board", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("metric", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("member", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("label", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("old_run", sa.Integer(), nullable=False),
        sa.Column("old_value", sa.Float(), nullable=False),
        sa.Column("old_rank", sa.Integer(), nullable=False),
        sa.Column("state", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("new_run", sa.Integer(), nullable=True),
        sa.Column("new_value", sa.Float(), nullable=True),
        sa.Column("failure", sa.Text(), nullable=True),
        sa.Column("done_at", storage.timestamps.UTCDateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["epoch_id"], ["judge_epochs.id"]),
        sa.ForeignKeyConstraint(["new_run"], ["runs.id"]),
        sa.ForeignKeyConstraint(["old_run"], ["runs.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("epoch_id", "old_run"),
    )
    op.create_index(op.f("ix_epoch_rejudges_epoch_id"), "epoch_rejudges", ["epoch_id"], unique=False)
    op.create_index(op.f("ix_epoch_rejudges_state"), "epoch_rejudges", ["state"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_epoch_rejudges_state"), table_name="epoch_rejudges")
    op.drop_index(op.f("ix_epoch_rejudges_epoch_id"), table_name="epoch_rejudges")
    op.drop_table("epoch_rejudges")
