"""sprints, sprint-log entry detail and charts (issue 16: sprints, entries in words, charts)

Revision ID: 0009_sprints
Revises: 0008_run_attributions
Create Date: 2026-11-24 01:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

import storage.timestamps

revision: str = "0009_sprints"
down_revision: str | None = "0008_run_attributions"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "sprints",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("title", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("goal", sa.Text(), nullable=False),
        sa.Column("started_by", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("started_by_id", sa.BigInteger(), nullable=True),
        sa.Column("started_at", storage.timestamps.UTCDateTime(timezone=True), nullable=False),
        sa.Column("ended_at", storage.timestamps.UTCDateTime(timezone=True), nullable=True),
        sa.Column("ended_by", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=True),
        sa.Column("tldr", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_sprints_started_at"), "sprints", ["started_at"], unique=False)
    with op.batch_alter_table("sprint_log_entries") as batch:
        batch.add_column(sa.Column("sprint_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("detail", sa.JSON(), server_default="{}", nullable=False))
        batch.create_index(batch.f("ix_sprint_log_entries_sprint_id"), ["sprint_id"], unique=False)
        batch.create_foreign_key("fk_sprint_log_entries_sprint_id", "sprints", ["sprint_id"], ["id"])
    op.create_table(
        "sprint_log_charts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("caption", sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column("png", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(["entry_id"], ["sprint_log_entries.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_sprint_log_charts_entry_id"), "sprint_log_charts", ["entry_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_sprint_log_charts_entry_id"), table_name="sprint_log_charts")
    op.drop_table("sprint_log_charts")
    with op.batch_alter_table("sprint_log_entries") as batch:
        batch.drop_constraint("fk_sprint_log_entries_sprint_id", type_="foreignkey")
        batch.drop_index(batch.f("ix_sprint_log_entries_sprint_id"))
        batch.drop_column("detail")
        batch.drop_column("sprint_id")
    op.drop_index(op.f("ix_sprints_started_at"), table_name="sprints")
    op.drop_table("sprints")
