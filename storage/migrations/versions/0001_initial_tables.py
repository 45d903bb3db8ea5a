"""initial tables

Revision ID: 0001
Revises:
Create Date: 2026-11-22 20:36:09.632442
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

import storage.timestamps

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    op.create_table(
        "members",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("telegram_user_id", sa.BigInteger(), nullable=True),
        sa.Column("created_at", storage.timestamps.UTCDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("members", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_members_name"), ["name"], unique=True)
        batch_op.create_index(batch_op.f("ix_members_telegram_user_id"), ["telegram_user_id"], unique=False)

    op.create_table(
        "tool_config_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("old_value", sa.JSON(), nullable=True),
        sa.Column("new_value", sa.JSON(), nullable=True),
        sa.Column("changed_by", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("changed_at", storage.timestamps.UTCDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("tool_config_changes", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tool_config_changes_key"), ["key"], unique=False)

    op.create_table(
        "tool_config_values",
        sa.Column("key", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("value", sa.JSON(), nullable=True),
        sa.Column("updated_at", storage.timestamps.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_by", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    op.create_table(
        "runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("challenge", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("subject", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("seeds", sa.JSON(), nullable=False),
        sa.Column("metrics", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("accuracy", sa.Float(), nullable=True),
        sa.Column("ok", sa.Boolean(), nullable=False),
        sa.Column("failure", sa.Text(), nullable=True),
        sa.Column("wall_s", sa.Float(), nullable=False),
        sa.Column("engine_version", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("code", sa.Text(), nullable=True),
        sa.Column("code_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.Column("request_key", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column("active_key", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("created_at", storage.timestamps.UTCDateTime(timezone=True), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.ForeignKeyConstraint(
            ["member_id"],
            ["members.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("active_key"),
    )
    with op.batch_alter_table("runs", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_runs_challenge"), ["challenge"], unique=False)
        batch_op.create_index(batch_op.f("ix_runs_created_at"), ["created_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_runs_member_id"), ["member_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_runs_request_key"), ["request_key"], unique=False)
        batch_op.create_index(batch_op.f("ix_runs_subject"), ["subject"], unique=False)

    op.create_table(
        "metric_values",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("metric", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column("value", sa.Float(), nullable=False),
        sa.Column("source", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("created_at", storage.timestamps.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["run_id"],
            ["runs.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("run_id", "metric", name="uq_metric_values_run_metric"),
    )
    with op.batch_alter_table("metric_values", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_metric_values_metric"), ["metric"], unique=False)
        batch_op.create_index(batch_op.f("ix_metric_values_run_id"), ["run_id"], unique=False)

    op.create_table(
        "sprint_log_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("uid", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("created_at", storage.timestamps.UTCDateTime(timezone=True), nullable=False),
        sa.Column("author", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("title", sqlmodel.sql.sqltypes.AutoString(length=500), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("results", sa.JSON(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=True),
        sa.Column("state", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", storage.timestamps.UTCDateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("delivered_at", storage.timestamps.UTCDateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["run_id"],
            ["runs.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("uid"),
    )
    with op.batch_alter_table("sprint_log_entries", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_sprint_log_entries_created_at"), ["created_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_sprint_log_entries_state"), ["state"], unique=False)


def downgrade() -> None:

    with op.batch_alter_table("sprint_log_entries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_sprint_log_entries_state"))
        batch_op.drop_index(batch_op.f("ix_sprint_log_entries_created_at"))

    op.drop_table("sprint_log_entries")
    with op.batch_alter_table("metric_values", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_metric_values_run_id"))
        batch_op.drop_index(batch_op.f("ix_metric_values_metric"))

    op.drop_table("metric_values")
    with op.batch_alter_table("runs", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_runs_subject"))
        batch_op.drop_index(batch_op.f("ix_runs_request_key"))
        batch_op.drop_index(batch_op.f("ix_runs_member_id"))
        batch_op.drop_index(batch_op.f("ix_runs_created_at"))
        batch_op.drop_index(batch_op.f("ix_runs_challenge"))

    op.drop_table("runs")
    op.drop_table("tool_config_values")
    with op.batch_alter_table("tool_config_changes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tool_config_changes_key"))

    op.drop_table("tool_config_changes")
    with op.batch_alter_table("members", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_members_telegram_user_id"))
        batch_op.drop_index(batch_op.f("ix_members_name"))

    op.drop_table("members")
