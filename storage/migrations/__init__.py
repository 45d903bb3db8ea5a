"""Alembic migrations for the storage tables (applied by :func:`storage.migrate.upgrade_to_head`)."""
