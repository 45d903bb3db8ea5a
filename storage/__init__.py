"""Durable state: SQLModel tables, the engine and session factory, keyword-only queries and Alembic migrations."""
