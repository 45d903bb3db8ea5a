"""Start-up migrations under a lock: five real processes start at once on one empty database (PostgreSQL, SQLite
file), each migrates then writes a note; all succeed, the schema is at head, every note is there. And the lock is
really taken: while the test holds it, an upgrading process waits and creates nothing."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlmodel import select

from storage.database import make_engine, session_factory
from storage.migrate import alembic_config
from storage.migration_lock import migration_lock
from storage.tables import SprintLogEntry

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = 5

STARTER = """
import sys, time
from pathlib import Path
from storage.database import make_engine, session_factory
from storage.migrate import upgrade_to_head
from storage.outbox import save_entry
url, who, go = sys.argv[1], sys.argv[2], Path(sys.argv[3])
engine = make_engine(url)
while not go.exists():
    time.sleep(0.002)
upgrade_to_head(engine)
with session_factory(engine)() as s:
    save_entry(s, author=who, kind="note", title=f"note from {who}")
"""


def _start(url: str, who: str, go: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", STARTER, url, who, str(go)],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT)},
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'fresh.db'}"
    return str(request.getfixturevalue("postgres_url"))


@pytest.mark.slow
def test_five_processes_starting_at_once_on_an_empty_database_all_succeed(empty_url: str, tmp_path: Path) -> None:
    go = tmp_path / "go"
    names = [f"p{i}" for i in range(PROCESSES)]
    procs = [_start(empty_url, who, go) for who in names]
    time.sleep(1.0)  # all are importing or waiting on the go file; release them together
    go.touch()
    errors = [proc.communicate(timeout=180)[1] for proc in procs]
    assert [proc.returncode for proc in procs] == [0] * PROCESSES, "\n".join(errors)
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
            proc = _start(empty_url, "late", go)
            time.sleep(4.0)  # ample time to import and migrate (~1–2 s here) were it not waiting
            assert proc.poll() is None, proc.communicate()[1]
            assert "alembic_version" not in inspect(engine).get_table_names()
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        assert "alembic_version" in inspect(engine).get_table_names()
    finally:
        engine.dispose()
