"""One migrator at a time: a lock held around ``alembic upgrade`` so processes starting together on one database
(the bot and its workers, two workers) do not both create the same tables.

PostgreSQL: a session-level advisory lock (``pg_advisory_lock``) on :data:`ADVISORY_KEY`, taken on a connection of
its own and released when the upgrade ends (or when that connection dies with its process). The others wait for it,
then find the schema at head and do nothing.

SQLite: an exclusive ``flock`` on a file beside the database (``sutro.db.migrate-lock``); the kernel drops it when
the holding process dies. An in-memory SQLite database belongs to one process and needs no lock.

Other back ends get no lock (none is supported for more than one process).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import Engine

ADVISORY_KEY = 0x5375_7472_6F4D_6967
"""The advisory-lock key of our migrations: the ASCII bytes of "SutroMig" read as a (positive) 64-bit integer. Any
fixed number works; this one is unlikely to collide with another application's key on a shared server."""

LOCK_SUFFIX = ".migrate-lock"


@contextlib.contextmanager
def migration_lock(engine: Engine) -> Iterator[None]:
    """Hold the database's migration lock for the duration of the ``with`` block (blocks until it is free)."""
    backend = engine.url.get_backend_name()
    if backend == "postgresql":
        with _advisory_lock(engine):
            yield
    elif backend == "sqlite" and sqlite_file(engine) is not None:
        with _file_lock(Path(f"{sqlite_file(engine)}{LOCK_SUFFIX}")):
            yield
    else:
        yield


def sqlite_file(engine: Engine) -> Path | None:
    """The database file of a SQLite engine, or None for an in-memory database."""
    database = engine.url.database
    if not database or database == ":memory:" or database.startswith("file::memory:"):
        return None
    return Path(database)


@contextlib.contextmanager
def _advisory_lock(engine: Engine) -> Iterator[None]:
    with engine.connect() as connection:
        connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": ADVISORY_KEY})
        connection.commit()  # the lock is held by the session, not the transaction: no transaction stays open
        try:
            yield
        finally:
            connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": ADVISORY_KEY})
            connection.commit()


@contextlib.contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
