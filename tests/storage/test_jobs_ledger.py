"""The jobs ledger (storage/jobs.py) on SQLite and, when its binaries are installed, on a throwaway PostgreSQL:
state transitions, attempts, idempotent enqueue, cancel before and during a run, and racing submitters."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from storage.database import SessionFactory, make_engine, session_factory
from storage.jobs import cancel_is_requested, enqueue, finish, get_job, request_cancel, start_attempt
from storage.migrate import upgrade_to_head
from tests.conftest import copy_migrated_database


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def sessions(request: pytest.FixtureRequest, tmp_path: Path, migrated_database: Path) -> Iterator[SessionFactory]:
    """The ledger on SQLite (a copy of the migrated template database) or on PostgreSQL (migrated here)."""
    if request.param == "sqlite":
        engine = make_engine(f"sqlite:///{copy_migrated_database(migrated_database, tmp_path / 'ledger.db')}")
    else:
        engine = make_engine(request.getfixturevalue("postgres_url"))
        upgrade_to_head(engine)
    try:
        yield session_factory(engine)
    finally:
        engine.dispose()


def test_a_job_goes_queued_running_done_and_counts_attempts(sessions: SessionFactory) -> None:
    with sessions() as s:
        row, start = enqueue(s, key="k1", command="run", description="/run gf2 n=20", member="ann")
        assert start and row.state == "queued" and row.attempts == 0
        assert start_attempt(s, key="k1", worker="tcp://127.0.0.1:1").state == "running"  # type: ignore[union-attr]
        again = start_attempt(s, key="k1", worker="tcp://127.0.0.1:2")  # the scheduler retried on another worker
        assert again is not None and again.attempts == 2 and again.worker == "tcp://127.0.0.1:2"
        finish(s, key="k1", state="done")
    with sessions() as s:
        row = get_job(s, key="k1")
        assert row is not None and (row.state, row.attempts, row.reason) == ("done", 2, None)
        assert row.finished_at is not None and row.started_at is not None


def test_enqueue_attaches_while_active_and_restarts_once_finished(sessions: SessionFactory) -> None:
    with sessions() as s:
        first, start1 = enqueue(s, key="k", command="run")
        second, start2 = enqueue(s, key="k", command="run")
        assert start1 and not start2 and first.id == second.id
        start_attempt(s, key="k", worker="w")
        assert enqueue(s, key="k", command="run")[1] is False  # running: still attach
        finish(s, key="k", state="failed", reason="worker died\ntraceback line")
        assert get_job(s, key="k").reason == "worker died"  # type: ignore[union-attr]  # one line
        row, start3 = enqueue(s, key="k", command="run")
        assert start3 and row.id == first.id and row.state == "queued" and row.reason is None


def test_finish_keeps_the_first_outcome(sessions: SessionFactory) -> None:
    with sessions() as s:
        enqueue(s, key="k", command="run")
        start_attempt(s, key="k", worker="w")
        finish(s, key="k", state="cancelled", reason="cancelled by ann")
        finish(s, key="k", state="done")  # a late report from a worker must not overwrite it
        assert get_job(s, key="k").state == "cancelled"  # type: ignore[union-attr]
        with pytest.raises(ValueError, match="not a final job state"):
            finish(s, key="k", state="running")


def test_cancel_of_a_queued_job_means_no_worker_runs_it(sessions: SessionFactory) -> None:
    with sessions() as s:
        enqueue(s, key="k", command="run")
        row = request_cancel(s, key="k", reason="cancelled by ann")
        assert row is not None and row.state == "cancelled" and row.reason == "cancelled by ann"
        assert start_attempt(s, key="k", worker="w") is None
        assert get_job(s, key="k").attempts == 0  # type: ignore[union-attr]


def test_cancel_of_a_running_job_raises_the_flag_the_worker_polls(sessions: SessionFactory) -> None:
    with sessions() as s:
        enqueue(s, key="k", command="run")
        start_attempt(s, key="k", worker="w")
        assert not cancel_is_requested(s, key="k")
        row = request_cancel(s, key="k", reason="cancelled by root")
        assert row is not None and row.state == "running"  # the worker records the end
    with sessions() as s:
        assert cancel_is_requested(s, key="k")
        assert not cancel_is_requested(s, key="never-enqueued")


def test_racing_submitters_of_one_key_get_one_row_and_one_start(sessions: SessionFactory) -> None:
    starts: list[bool] = []
    barrier = threading.Barrier(6)

    def submit() -> None:
        barrier.wait()
        with sessions() as s:
            starts.append(enqueue(s, key="same", command="run")[1])

    threads = [threading.Thread(target=submit) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(starts) == [False] * 5 + [True]
