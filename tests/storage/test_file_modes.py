"""The bot's data files are private: the data directory is created 0700, the database and the sprint log 0600."""

from __future__ import annotations

import os
import stat
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy

from storage.database import database_url_for, make_engine
from tools.sprint_log.entry import LogEntry
from tools.sprint_log.markdown_sink import SPRINT_LOG_FILE, MarkdownSink


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_database_and_data_dir_are_private(tmp_path: Path) -> None:
    old = os.umask(0o022)  # the usual umask, under which files are created 0644
    try:
        data = tmp_path / "data"
        url = database_url_for("", data)
        engine = make_engine(url)
        with engine.begin() as conn:
            conn.execute(sqlalchemy.text("create table t (x int)"))
        engine.dispose()
    finally:
        os.umask(old)
    assert _mode(data) == 0o700
    assert _mode(data / "sutro.db") == 0o600
    assert all(_mode(p) & 0o077 == 0 for p in data.iterdir())  # -wal/-shm too


def test_an_existing_world_readable_database_is_narrowed(tmp_path: Path) -> None:
    db = tmp_path / "sutro.db"
    db.write_bytes(b"")
    db.chmod(0o644)
    database_url_for("", tmp_path)
    assert _mode(db) == 0o600


def test_sprint_log_is_created_private(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        sink = MarkdownSink(tmp_path / "data" / SPRINT_LOG_FILE)
        sink.deliver(LogEntry("u1", datetime(2026, 11, 23, tzinfo=UTC), "alice", "note", "hello"))
    finally:
        os.umask(old)
    assert _mode(tmp_path / "data" / SPRINT_LOG_FILE) == 0o600 and _mode(tmp_path / "data") == 0o700
