"""The database engine and session factory: a SQLite file in the data directory by default, any SQLAlchemy URL by
setting (``postgresql+psycopg://…``).

SQLite is configured for several writer processes: WAL journal, foreign keys on, a busy timeout, and every
transaction opened with ``BEGIN IMMEDIATE`` so that a read-then-write transaction takes the write lock up front
(a deferred transaction that upgrades its lock fails at once with "database is locked", busy timeout or not).
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError
from sqlmodel import Session, create_engine

from storage.errors import DatabaseUnavailable

SQLITE_BUSY_TIMEOUT_MS = 30_000
"""How long a SQLite writer waits for another process's write lock before failing (milliseconds)."""

DATABASE_FILE = "sutro.db"

SessionFactory = Callable[[], Session]


def database_url_for(setting: str, data_dir: Path) -> str:
    """The URL to use: ``setting`` when given, else a SQLite file in ``data_dir`` (created if missing).

    The directory is created 0700 and the database file 0600 (SQLite gives its -wal/-shm files the database's
    mode); an existing database readable by others is narrowed to 0600."""
    if setting:
        return setting
    data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = data_dir / DATABASE_FILE
    private_file(path)
    return f"sqlite:///{path}"


def private_file(path: Path) -> None:
    """Create ``path`` empty with mode 0600 if missing; narrow an existing one that others can read to 0600."""
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        if path.stat().st_mode & 0o077:
            path.chmod(0o600)


WAL_RETRY_S = 0.05
"""Pause between tries of switching a SQLite file to WAL while another process holds its lock (seconds)."""


def _wal_mode(cursor: Any) -> None:
    """``PRAGMA journal_mode=WAL``, tried again while the file is locked, for up to the busy timeout.

    SQLite answers "database is locked" to this pragma at once, without its busy handler, when another connection
    holds the file — as when several processes open a fresh database together (the bot and a CLI command, or the
    job workers; tests/storage/test_concurrent_writers.py caught it on 2026-11-29)."""
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            busy = getattr(exc, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
            if not busy or time.monotonic() > deadline:
                raise
            time.sleep(WAL_RETRY_S)


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event own transaction start (pysqlite's implicit BEGIN is deferred).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        _wal_mode(cursor)
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


POSTGRES_DRIVER = "postgresql+psycopg"
"""The PostgreSQL dialect and driver the project installs (psycopg 3, the ``postgres`` extra)."""


def with_driver(url: str) -> str:
    """``url`` with PostgreSQL's short schemes spelled out: ``postgres://`` (Heroku's, libpq's and many hosting
    panels' spelling) and a bare ``postgresql://`` (which SQLAlchemy would hand to psycopg2, not installed) become
    ``postgresql+psycopg://``; any other URL is returned unchanged."""
    for scheme in ("postgres://", "postgresql://"):
        if url.startswith(scheme):
            return POSTGRES_DRIVER + "://" + url[len(scheme) :]
    return url


def make_engine(url: str) -> Engine:
    """An engine for ``url``; a malformed URL or a missing driver is a :class:`DatabaseUnavailable` with a hint.

    ``postgres://`` and ``postgresql://`` URLs are PostgreSQL through psycopg 3 (:func:`with_driver`)."""
    url = with_driver(url)
    try:
        parsed = make_url(url)
        if parsed.get_backend_name() == "sqlite":
            engine = create_engine(
                url, connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT_MS / 1000}
            )
            _configure_sqlite(engine)
            return engine
        return create_engine(url, pool_pre_ping=True)
    except (ArgumentError, NoSuchModuleError, ImportError, ValueError) as exc:
        raise DatabaseUnavailable(
            f"cannot use database URL {redact(url)}: {type(exc).__name__}",
            hint="set SUTRO_DATABASE_URL to a SQLAlchemy URL such as postgresql+psycopg://user@host/db, "
            "or leave it empty for SQLite in the data directory",
        ) from exc


def redact(url: str) -> str:
    """``url`` with any password replaced by ``***`` (safe for messages and logs)."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<unparseable URL>"


def session_factory(engine: Engine) -> SessionFactory:
    """A callable returning a new :class:`Session` bound to ``engine`` (objects stay usable after commit)."""

    def new_session() -> Session:
        return Session(engine, expire_on_commit=False)

    return new_session
