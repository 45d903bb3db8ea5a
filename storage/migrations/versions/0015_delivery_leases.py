"""delivery leases: one writer per sprint-log sink at a time across processes (issue 33)

Revision ID: 0015_delivery_leases
Revises: 0013_sprint_tldr_through
Create Date: 2026-11-28 18:40:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

import storage.timestamps

revision: str = "0015_delivery_leases"
down_revision: str | None = "0013_sprint_tldr_through"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "delivery_leases",
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("holder", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("expires_at", storage.timestamps.UTCDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade() -> None:
    op.drop_table("delivery_leases")
