"""submissions (one row per member's request; the stored result shared, the credit with the first submitter)

Revision ID: 0005_submissions
Revises: 0004_jobs
Create Date: 2026-11-24 01:30:00

Every run stored before this revision was asked for once, by its own member under its own subject: each gets one
submission row (computed, credited to itself).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

import storage.timestamps

revision: str = "0005_submissions"
down_revision: str | None = "0004_jobs"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "submissions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("label", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("computed", sa.Boolean(), nullable=False),
        sa.Column("credit_id", sa.Integer(), nullable=True),
        sa.Column("created_at", storage.timestamps.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["credit_id"], ["submissions.id"]),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"]),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("submissions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_submissions_credit_id"), ["credit_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_submissions_member_id"), ["member_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_submissions_run_id"), ["run_id"], unique=False)
    # One submission per stored run, in run order, credited to itself.
    op.execute(
        "INSERT INTO submissions (run_id, member_id, label, computed, created_at) "
        "SELECT id, member_id, subject, TRUE, created_at FROM runs ORDER BY id"
    )
    op.execute("UPDATE submissions SET credit_id = id")


def downgrade() -> None:
    with op.batch_alter_table("submissions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_submissions_run_id"))
        batch_op.drop_index(batch_op.f("ix_submissions_member_id"))
        batch_op.drop_index(batch_op.f("ix_submissions_credit_id"))
    op.drop_table("submissions")
