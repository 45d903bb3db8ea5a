"""Two processes recording runs into the same SQLite file at once lose nothing and never duplicate a request."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlmodel import select

from storage.database import make_engine, session_factory
from storage.migrate import upgrade_to_head
from storage.tables import MetricValue, Run, SprintLogEntry

ROOT = Path(__file__).resolve().parents[2]
PER_WRITER = 40

WRITER = """
import sys, time
from pathlib import Path
from storage.database import make_engine, session_factory
from storage.outbox import save_entry
from storage.runs import NewRun, record_run
url, who, go = sys.argv[1], sys.argv[2], Path(sys.argv[3])
sessions = session_factory(make_engine(url))
while not go.exists():
    time.sleep(0.005)
for i in range(PER_WRITER):
    with sessions() as s:
        record_run(s, NewRun(challenge="c", kind="method", subject="m", ok=True, metrics={"dally@1": float(i)},
                   request_key=f"{who}-{i}", member=who, engine_version="0"))
        # both writers also record the very same request: exactly one active row must answer it
        record_run(s, NewRun(challenge="c", kind="method", subject="m", ok=True, metrics={"dally@1": -1.0},
                   request_key=f"shared-{i}", member=who, engine_version="0"))
        save_entry(s, author=who, kind="note", title=f"{who} {i}")
""".replace("PER_WRITER", str(PER_WRITER))


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def shared_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'shared.db'}"
    return str(request.getfixturevalue("postgres_url"))


@pytest.mark.slow
def test_two_processes_recording_at_once_lose_nothing(shared_url: str, tmp_path: Path) -> None:
    url = shared_url
    engine = make_engine(url)
    upgrade_to_head(engine)
    go = tmp_path / "go"
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, url, who, str(go)],
            cwd=ROOT,
            env={"PYTHONPATH": str(ROOT)},
            stderr=subprocess.PIPE,
            text=True,
        )
        for who in ("alice", "bob")
    ]
    time.sleep(0.5)  # both are importing/waiting; start them together
    go.touch()
    for writer in writers:
        _, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err
    with session_factory(engine)() as s:
        runs = s.exec(select(Run)).all()
        own = [r for r in runs if not r.request_key.startswith("shared-")]
        assert sorted(r.request_key for r in own) == sorted(
            f"{who}-{i}" for who in ("alice", "bob") for i in range(PER_WRITER)
        )
        shared = [r for r in runs if r.request_key.startswith("shared-")]
        assert sorted(r.request_key for r in shared) == sorted(f"shared-{i}" for i in range(PER_WRITER))
        assert len(s.exec(select(MetricValue)).all()) == len(runs)
        assert len(s.exec(select(SprintLogEntry)).all()) == 2 * PER_WRITER
    engine.dispose()


UPGRADER = """
import sys, time
from pathlib import Path
from storage.database import make_engine
from storage.migrate import upgrade_to_head
engine = make_engine(sys.argv[1])
while not Path(sys.argv[2]).exists():
    time.sleep(0.002)
upgrade_to_head(engine)
"""


@pytest.mark.slow
def test_processes_starting_together_on_a_fresh_sqlite_file_all_migrate(tmp_path: Path) -> None:
    """Start-up applies migrations; three processes doing it at once on a new file must all succeed."""
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    go = tmp_path / "go"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", UPGRADER, url, str(go)],
            cwd=ROOT,
            env={"PYTHONPATH": str(ROOT)},
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    time.sleep(0.5)
    go.touch()
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    engine = make_engine(url)
    from alembic.script import ScriptDirectory
    from sqlalchemy import text

    from storage.migrate import alembic_config

    heads = ScriptDirectory.from_config(alembic_config(engine)).get_heads()
    assert len(heads) == 1, f"migrations must form one chain, found heads {heads}"
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == heads
    engine.dispose()
