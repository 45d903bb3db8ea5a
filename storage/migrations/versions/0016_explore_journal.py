"""explore journal: /explore loops and their steps (issue 30)

Revision ID: 0016_explore_journal
Revises: 0015_delivery_leases
Create Date: 2026-11-29 01:20:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

import storage.timestamps

revision: str = "0016_explore_journal"
down_revision: str | None = "0015_delivery_leases"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "explore_loops",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("board", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("metric", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("goal", sa.Text(), nullable=False),
        sa.Column("start_label", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("start_cost", sa.BigInteger(), nullable=False),
        sa.Column("record_cost", sa.Float(), nullable=True),
        sa.Column("budget", sa.JSON(), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("stop_reason", sa.Text(), nullable=False),
        sa.Column("steps_done", sa.Integer(), nullable=False),
        sa.Column("cpu_s", sa.Float(), nullable=False),
        sa.Column("spend_usd", sa.Float(), nullable=False),
        sa.Column("best_cost", sa.BigInteger(), nullable=False),
        sa.Column("best_step", sa.Integer(), nullable=True),
        sa.Column("best_code", sa.Text(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=True),
        sa.Column("started_at", storage.timestamps.UTCDateTime(timezone=True), nullable=False),
        sa.Column("ended_at", storage.timestamps.UTCDateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"]),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_explore_loops_member_id"), "explore_loops", ["member_id"], unique=False)
    op.create_index(op.f("ix_explore_loops_status"), "explore_loops", ["status"], unique=False)
    op.create_table(
        "explore_steps",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("loop_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("operator", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("hypothesis", sa.Text(), nullable=False),
        sa.Column("outcome", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("cost", sa.BigInteger(), nullable=True),
        sa.Column("delta_pct", sa.Float(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("wall_s", sa.Float(), nullable=False),
        sa.Column("code_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("created_at", storage.timestamps.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["loop_id"], ["explore_loops.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("loop_id", "number"),
    )
    op.create_index(op.f("ix_explore_steps_loop_id"), "explore_steps", ["loop_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_explore_steps_loop_id"), table_name="explore_steps")
    op.drop_table("explore_steps")
    op.drop_index(op.f("ix_explore_loops_status"), table_name="explore_loops")
    op.drop_index(op.f("ix_explore_loops_member_id"), table_name="explore_loops")
    op.drop_table("explore_loops")
