"""Alembic environment: runs migrations on the engine handed in by :mod:`storage.migrate` (online mode only).

Batch mode on SQLite (ALTER TABLE is limited there) and type comparison on, so ``alembic check`` sees every
difference between the SQLModel tables and the revisions.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine
from sqlmodel import SQLModel

import storage.tables  # noqa: F401  (registers the tables on SQLModel.metadata)

config = context.config
engine = config.attributes.get("engine") or create_engine(config.get_main_option("sqlalchemy.url") or "")

with engine.connect() as connection:
    context.configure(
        connection=connection,
        target_metadata=SQLModel.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()
    connection.commit()
