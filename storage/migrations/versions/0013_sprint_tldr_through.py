"""sprints.tldr_through: the newest sprint-log entry the sprint's TLDR covers (issue 28: the TLDR is refreshed by a
scheduled job, once per change, not inside a member's run)

Revision ID: 0013_sprint_tldr_through
Revises: 0012_verdicts
Create Date: 2026-11-28 18:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013_sprint_tldr_through"
down_revision: str | None = "0012_verdicts"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("sprints") as batch:
        batch.add_column(sa.Column("tldr_through", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("sprints") as batch:
        batch.drop_column("tldr_through")
