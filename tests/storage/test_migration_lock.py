"""Start-up migrations under a lock: five real processes (forks of this one, each with its own engine:
tests/storage/database_processes.py) start at once on one empty database (PostgreSQL, SQLite file), each migrates then
writes a note; all succeed, the schema is at head, every note is there. And the lock is really taken: while the test
holds it, an upgrading process waits and creates nothing."""

from __future__ import annotations

import functools
import time
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlmodel import select

from storage.database import make_engine, session_factory
from storage.migrate import alembic_config, upgrade_to_head
from storage.migration_lock import migration_lock
from storage.outbox import save_entry
from storage.tables import SprintLogEntry
from tests.storage.database_processes import finish, run_together, start, wait_for

PROCESSES = 5


def _starter(url: str, who: str, go: Path) -> None:
    """A process starting up: make its engine, wait for the go, migrate, then write a note."""
    engine = make_engine(url)
    wait_for(go)
    upgrade_to_head(engine)
    with session_factory(engine)() as s:
        save_entry(s, author=who, kind="note", title=f"note from {who}")


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'fresh.db'}"
    return str(request.getfixturevalue("postgres_url"))


@pytest.mark.slow
def test_five_processes_starting_at_once_on_an_empty_database_all_succeed(empty_url: str, tmp_path: Path) -> None:
    go = tmp_path / "go"
    names = [f"p{i}" for i in range(PROCESSES)]
    ended = run_together(go, [functools.partial(_starter, empty_url, who, go) for who in names], timeout=180)
    errors = [output for _, output in ended]
    assert [code for code, _ in ended] == [0] * PROCESSES, "\n".join(errors)
    assert not any("duplicate key" in e or "already exists" in e for e in errors)
    engine = make_engine(empty_url)
    try:
        heads = ScriptDirectory.from_config(alembic_config(engine)).get_heads()
        with engine.connect() as c:
            assert [r[0] for r in c.execute(text("SELECT version_num FROM alembic_version"))] == heads
        with session_factory(engine)() as s:
            titles = sorted(e.title for e in s.exec(select(SprintLogEntry)).all())
        assert titles == sorted(f"note from {who}" for who in names)
    finally:
        engine.dispose()


@pytest.mark.slow
def test_an_upgrade_waits_while_another_process_holds_the_lock(empty_url: str, tmp_path: Path) -> None:
    engine = make_engine(empty_url)
    go = tmp_path / "go"
    go.touch()
    try:
        with migration_lock(engine):
            proc = start(functools.partial(_starter, empty_url, "late", go))
            time.sleep(2.0)  # ample time to migrate (~0.2 s here) were it not waiting
            assert proc.poll() is None, finish(proc)[1]
            assert "alembic_version" not in inspect(engine).get_table_names()
        code, err = finish(proc)
        assert code == 0, err
        assert "alembic_version" in inspect(engine).get_table_names()
    finally:
        engine.dispose()
