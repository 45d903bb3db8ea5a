"""Two processes recording runs into the same database at once lose nothing and never duplicate a request (each a fork
of the test process with its own engine: tests/storage/database_processes.py)."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from sqlmodel import select

from storage.database import make_engine, session_factory
from storage.migrate import upgrade_to_head
from storage.outbox import save_entry
from storage.runs import NewRun, record_run
from storage.tables import MetricValue, Run, SprintLogEntry
from tests.storage.database_processes import run_together, wait_for

PER_WRITER = 40


def _method_run(who: str, key: str, value: float) -> NewRun:
    return NewRun(
        challenge="c",
        kind="method",
        subject="m",
        ok=True,
        metrics={"dally@1": value},
        request_key=key,
        member=who,
        engine_version="0",
    )


def _writer(url: str, who: str, go: Path) -> None:
    """A process recording PER_WRITER runs, each also under a request key the other writer records too."""
    sessions = session_factory(make_engine(url))
    wait_for(go)
    for i in range(PER_WRITER):
        with sessions() as s:
            record_run(s, _method_run(who, f"{who}-{i}", float(i)))
            # both writers also record the very same request: exactly one active row must answer it
            record_run(s, _method_run(who, f"shared-{i}", -1.0))
            save_entry(s, author=who, kind="note", title=f"{who} {i}")


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
    engine.dispose()  # no connection of this process open across the fork: SQLite's own records of it would be copied
    for code, err in run_together(go, [functools.partial(_writer, url, who, go) for who in ("alice", "bob")]):
        assert code == 0, err
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


def _upgrader(url: str, go: Path) -> None:
    engine = make_engine(url)
    wait_for(go)
    upgrade_to_head(engine)


@pytest.mark.slow
def test_processes_starting_together_on_a_fresh_sqlite_file_all_migrate(tmp_path: Path) -> None:
    """Start-up applies migrations; three processes doing it at once on a new file must all succeed."""
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    go = tmp_path / "go"
    for code, err in run_together(go, [functools.partial(_upgrader, url, go)] * 3):
        assert code == 0, err
    engine = make_engine(url)
    from alembic.script import ScriptDirectory
    from sqlalchemy import text

    from storage.migrate import alembic_config

    heads = ScriptDirectory.from_config(alembic_config(engine)).get_heads()
    assert len(heads) == 1, f"migrations must form one chain, found heads {heads}"
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == heads
    engine.dispose()
