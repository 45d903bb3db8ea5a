"""Durable state: SQLModel tables, the engine/session factory, keyword-only queries and Alembic migrations."""
