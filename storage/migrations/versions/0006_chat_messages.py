"""chat messages kept for later (Telegram replies that could not be sent during an outage)

Revision ID: 0006_chat_messages
Revises: 0005_submissions
Create Date: 2026-11-24 01:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

import storage.timestamps

revision: str = "0006_chat_messages"
down_revision: str | None = "0005_submissions"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("thread_id", sa.BigInteger(), nullable=True),
        sa.Column("reply_to", sa.BigInteger(), nullable=True),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("buttons", sa.JSON(), nullable=False),
        sa.Column("file_name", sqlmodel.sql.sqltypes.AutoString(length=255), nullable=True),
        sa.Column("content", sa.LargeBinary(), nullable=True),
        sa.Column("state", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("sent_message_id", sa.BigInteger(), nullable=True),
        sa.Column("created_at", storage.timestamps.UTCDateTime(timezone=True), nullable=False),
        sa.Column("sent_at", storage.timestamps.UTCDateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_chat_messages_chat_id"), ["chat_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_chat_messages_state"), ["state"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_chat_messages_state"))
        batch_op.drop_index(batch_op.f("ix_chat_messages_chat_id"))
    op.drop_table("chat_messages")
