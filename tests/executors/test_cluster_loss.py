"""The Dask executor heals: a scheduler killed with jobs in flight, against a real scheduler and two workers run as
separate processes (``dask scheduler`` / ``dask worker``), through the real job board.

- Killed mid-run and restarted (with two workers) on the same address: every member gets exactly one answer, the
  job's real reply (it was queued again and ran on the new cluster); no ledger row is left queued or running; a new
  job after that is answered without restarting the bot.
- Killed and not restarted: each member gets one line saying the cluster was lost (no fallback), or the job's reply
  from the bot's own workers (``dask_fallback_local``); no ledger row is left queued or running.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.app import run_in_worker
from bot.commands.base import Caller, Invocation
from bot.executors.dask_cluster import DaskExecutor
from bot.jobs.board import JobBoard
from bot.settings import Settings
from storage.jobs import active_jobs
from storage.tables import JOB_RUNNING
from tests.bot.fixture_commands import SLEEPY

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

ROOT = Path(__file__).resolve().parents[2]
DASK = str(Path(sys.executable).with_name("dask"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """A scheduler and two workers as processes of their own (each in its own session, killed by group)."""

    def __init__(self, port: int) -> None:
        self.address = f"tcp://127.0.0.1:{port}"
        self.port = port
        self.processes: list[subprocess.Popen[bytes]] = []
        self.env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "DASK_DISTRIBUTED__WORKER__DAEMON": "False",
            "DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "2",
        }

    def _spawn(self, *args: str) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(
            [DASK, *args],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        self.processes.append(proc)
        return proc

    def start(self) -> None:
        self._spawn("scheduler", "--host", "127.0.0.1", "--port", str(self.port), "--no-dashboard")
        for _ in range(2):
            self._spawn("worker", self.address, "--nworkers", "1", "--nthreads", "2", "--no-dashboard")
        from distributed import Client

        with Client(self.address, timeout=60, set_as_default=False) as client:
            client.wait_for_workers(2, timeout=120)

    def kill(self) -> None:
        """SIGKILL the scheduler and the workers (whole groups): nothing of this cluster survives."""
        for proc in self.processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
        self.processes = []


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    pytest.importorskip("distributed")
    running = Cluster(free_port())
    try:
        yield running
    finally:
        running.kill()


def _executor(cluster: Cluster, data: Path, **settings: object) -> DaskExecutor:
    return DaskExecutor(
        Settings(data_dir=data, dev_allow_unsandboxed=True, dask_scheduler=cluster.address, **settings),  # type: ignore[arg-type]
        job=run_in_worker,
    )


def _jobs(board: JobBoard, n: int) -> list[asyncio.Future[tuple[object, int]]]:
    """``n`` distinct sleepy jobs (about 2 s each), one per member; each job's answers are counted."""
    outcomes = []
    for i in range(n):
        caller = Caller(name=f"member{i}", user_id=100 + i)
        inv = Invocation(command="sleepy", options={"steps": "8", "pause": "0.25", "tag": str(i)}, caller=caller)
        outcomes.append(board.submit(SLEEPY, inv).outcome)
    return outcomes  # type: ignore[return-value]


async def _until_running(executor: DaskExecutor, at_least: int) -> None:
    while True:
        with executor.ledger() as session:
            if sum(row.state == JOB_RUNNING for row in active_jobs(session)) >= at_least:
                return
        await asyncio.sleep(0.1)


def _left_open(executor: DaskExecutor) -> list[str]:
    with executor.ledger() as session:
        return [f"{row.key[:8]} {row.state}" for row in active_jobs(session)]


async def test_scheduler_killed_mid_run_and_restarted_every_member_answered_once(
    cluster: Cluster, tmp_path: Path
) -> None:
    await asyncio.to_thread(cluster.start)
    executor = _executor(cluster, tmp_path / "data", dask_requeue_wait_s=240.0)
    board = JobBoard(executor, workers=4, per_member=5, rate_per_minute=100)
    await board.start()
    try:
        outcomes = _jobs(board, 6)
        await _until_running(executor, 2)
        await asyncio.to_thread(cluster.kill)
        time.sleep(1.0)
        await asyncio.to_thread(cluster.start)  # a fresh scheduler and two workers, same address
        answers = await asyncio.gather(*outcomes)
        assert [status for _reply, status in answers] == [0] * 6, [r.text for r, _s in answers]  # type: ignore[attr-defined]
        assert all(r.text.startswith("slept 8 steps") for r, _s in answers)  # type: ignore[attr-defined]
        assert _left_open(executor) == []
        (late,) = _jobs(board, 1)  # a new job, no restart of the bot
        reply, status = await late
        assert status == 0, reply
    finally:
        await board.stop()
        executor.close()


@pytest.mark.parametrize("fallback", [False, True])
async def test_scheduler_killed_for_good_every_member_answered_once(
    cluster: Cluster, tmp_path: Path, fallback: bool
) -> None:
    await asyncio.to_thread(cluster.start)
    executor = _executor(cluster, tmp_path / "data", dask_requeue_wait_s=3.0, dask_fallback_local=fallback)
    board = JobBoard(executor, workers=4, per_member=5, rate_per_minute=100)
    await board.start()
    try:
        outcomes = _jobs(board, 4)
        await _until_running(executor, 2)
        await asyncio.to_thread(cluster.kill)
        answers = await asyncio.gather(*outcomes)
        texts = [r.text for r, _s in answers]  # type: ignore[attr-defined]
        if fallback:
            assert [s for _r, s in answers] == [0] * 4, texts
        else:
            assert all("lost" in t and "\n" not in t for t in texts), texts
            assert not any("internal error" in t for t in texts), texts
        assert _left_open(executor) == []
    finally:
        await board.stop()
        executor.close()


def test_a_ledger_row_without_a_live_owner_is_closed_and_one_in_flight_is_left_alone(
    dask_client: object, tmp_path: Path
) -> None:
    """The sweep after each connection: rows whose submitter died (queued, or running, with no task on the
    scheduler) are closed as failed with the reason; a row this bot has in flight is not touched."""
    from storage.jobs import enqueue, get_job, start_attempt
    from storage.tables import JOB_FAILED, JOB_QUEUED

    executor = DaskExecutor(
        Settings(data_dir=tmp_path / "data", dev_allow_unsandboxed=True),
        client=dask_client,
        job=run_in_worker,  # type: ignore[arg-type]
    )
    with executor.ledger() as session:
        for key in ("orphan-queued", "orphan-running", "mine"):
            enqueue(session, key=key, command="sleepy")
        start_attempt(session, key="orphan-running", worker="a worker that died")
    executor.track("mine")
    closed = executor.sweep_orphans(dask_client)  # type: ignore[arg-type]
    assert sorted(closed) == ["orphan-queued", "orphan-running"]
    with executor.ledger() as session:
        states = {key: get_job(session, key=key) for key in ("orphan-queued", "orphan-running", "mine")}
    assert {k: r.state for k, r in states.items() if r} == {
        "orphan-queued": JOB_FAILED,
        "orphan-running": JOB_FAILED,
        "mine": JOB_QUEUED,
    }
    assert all("no live owner" in (states[k].reason or "") for k in ("orphan-queued", "orphan-running"))  # type: ignore[union-attr]


def test_connection_attempts_back_off_and_a_success_resets_them() -> None:
    from bot.executors.reconnect import ConnectBackoff

    now = [100.0]
    backoff = ConnectBackoff(clock=lambda: now[0])
    assert backoff.wait_left() == 0
    waits = []
    for _ in range(7):
        backoff.failed("refused")
        waits.append(backoff.wait_left())
    assert waits == [1, 2, 4, 8, 16, 30, 30]
    now[0] += 30
    assert backoff.wait_left() == 0
    backoff.succeeded()
    backoff.failed("refused")
    assert backoff.wait_left() == 1
