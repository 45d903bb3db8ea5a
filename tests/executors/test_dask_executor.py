"""The Dask executor on a real 2-worker LocalCluster: fan-out stored exactly once, idempotent resubmission,
a worker killed mid-run, a runaway submission stopped on its worker, cancel reaching a running task (also through
the job board).

Waits are on events (a task's outcome, a marker file, a process gone), never on a wall-clock budget that a loaded
machine could exhaust: a real hang is stopped by the module's pytest timeout.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest
from sqlmodel import select

from bot.app import run_in_worker
from bot.commands import COMMANDS
from bot.commands.base import Attachment, Caller, Invocation
from bot.executors.base import JobKilled
from bot.executors.dask_cluster import DaskExecutor
from bot.jobs.board import JobBoard
from bot.settings import Settings
from engine.scoring.ir import score_ir
from storage.jobs import get_job
from storage.tables import JobRecord, Run
from tests.bot.fixture_commands import SLEEPY
from tests.executors.runaway_command import RUNAWAY

SCORE = next(c for c in COMMANDS if c.name == "score")

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]  # a hang guard; the fan-out test took 137 s at load 9

ANN = Caller(name="ann", user_id=1)


@pytest.fixture
def executor(dask_client: object, tmp_path: Path) -> DaskExecutor:
    settings = Settings(data_dir=tmp_path / "data", dev_allow_unsandboxed=True)
    return DaskExecutor(settings, client=dask_client, job=run_in_worker)  # type: ignore[arg-type]


def _program(k: int) -> str:
    """A valid matmul_1x1 program whose product lands at address ``k`` (cost depends on ``k``)."""
    return f"1,2\nmul {k},1,2\n{k}"


def _sleepy(**options: str) -> Invocation:
    return Invocation(command="sleepy", options=dict(options), caller=ANN)


async def _until(predicate) -> None:  # type: ignore[no-untyped-def]
    """Poll ``predicate`` (off the loop) until it holds; the pytest timeout bounds a condition that never does."""
    while not await asyncio.to_thread(predicate):
        await asyncio.sleep(0.05)


def _row(executor: DaskExecutor, key: str) -> JobRecord | None:
    with executor.ledger() as session:
        return get_job(session, key=key)


async def test_hundred_runs_fan_out_and_each_result_is_stored_exactly_once(executor: DaskExecutor) -> None:
    invs = [
        Invocation(
            command="score",
            options={"challenge": "matmul_1x1"},
            attachments=[Attachment(name=f"p{k}.ir", content=_program(k).encode())],
            caller=ANN,
        )
        for k in range(3, 103)
    ]
    executions = [executor.worker(SCORE, inv) for inv in invs]
    results = await asyncio.gather(*(e.run(lambda line, f=None: None) for e in executions))
    assert all(status == 0 for _reply, status in results), [r.text for r, s in results if s]
    with executor.ledger() as session:
        runs = session.exec(select(Run)).all()
        jobs = session.exec(select(JobRecord)).all()
    expected = {f"p{k}.ir": score_ir("matmul_1x1", _program(k), subject="x").metrics["dally@1"] for k in range(3, 103)}
    assert sorted(r.subject for r in runs) == sorted(expected)  # 100 rows, one per program
    assert {r.subject: r.metrics["dally@1"] for r in runs} == expected
    assert len(jobs) == 100 and {j.state for j in jobs} == {"done"} and {j.attempts for j in jobs} == {1}
    workers = {j.worker for j in jobs}
    assert len(workers) == 2  # both workers took a share


async def test_the_same_job_key_while_running_attaches_instead_of_running_twice(
    executor: DaskExecutor,
) -> None:
    first = executor.worker(SLEEPY, _sleepy(steps="10", pause="0.1"))
    again = executor.worker(SLEEPY, _sleepy(steps="10", pause="0.1"))
    assert first.key == again.key
    one = asyncio.ensure_future(first.run(lambda line, f=None: None))
    await _until(lambda: (row := _row(executor, first.key)) is not None and row.state == "running")
    (r1, s1), (r2, s2) = await asyncio.gather(one, again.run(lambda line, f=None: None))
    assert again.attached and not first.attached
    assert s1 == s2 == 0 and r1.data is not None and r2.data is not None
    assert r1.data["pid"] == r2.data["pid"]  # one process answered both
    row = _row(executor, first.key)
    assert row is not None and row.state == "done" and row.attempts == 1


async def test_a_worker_killed_mid_run_is_retried_or_failed_with_a_reason(
    executor: DaskExecutor, dask_client: object, tmp_path: Path
) -> None:
    marker = tmp_path / "pids"
    # one long step: the job process is asleep, not writing to its (broken) pipe, when the worker dies
    execution = executor.worker(SLEEPY, _sleepy(steps="1", pause="3", child=str(marker)))
    task = asyncio.ensure_future(execution.run(lambda line, f=None: None))
    await _until(lambda: marker.exists() and marker.read_text().strip() != "")
    first_job_pid, its_child = (int(x) for x in marker.read_text().split())
    row = _row(executor, execution.key)
    assert row is not None and row.state == "running" and row.worker
    pids = await asyncio.to_thread(dask_client.run, os.getpid, workers=[row.worker])  # type: ignore[attr-defined]
    os.kill(pids[row.worker], signal.SIGKILL)
    # the job's process group died with its worker (the job's watcher thread saw the worker go): no orphan. The
    # grandchild sleeps 60 s, so its death before the task's outcome (a retry takes 3 s) can only be that kill.
    await _until(lambda: not _alive(first_job_pid) and not _alive(its_child))
    reply, status = await task
    row = _row(executor, execution.key)
    assert row is not None and row.state in {"done", "failed"}
    if row.state == "done":  # retried by the scheduler on a live worker (what this machine shows)
        assert status == 0 and row.attempts == 2 and reply.data is not None and reply.data["steps"] == 1
        assert reply.data["pid"] != first_job_pid
    else:
        assert status != 0 and row.reason and "died" in row.reason


async def test_a_runaway_submission_is_stopped_by_its_limits_on_the_worker(executor: DaskExecutor) -> None:
    inv = Invocation(command="runaway", options={"cpu": "1", "wall": "4"}, caller=ANN)
    reply, status = await executor.worker(RUNAWAY, inv).run(lambda line, f=None: None)
    assert not reply.ok and "limit" in reply.text and "exceeded" in reply.text
    assert reply.data is not None and reply.data["wall_s"] < 5  # the sandbox's own clock: stopped at its 4 s limit


async def test_cancel_through_the_board_reaches_the_running_task(executor: DaskExecutor, tmp_path: Path) -> None:
    marker = tmp_path / "pids"
    board = JobBoard(executor, workers=2)
    await board.start()
    try:
        job = board.submit(SLEEPY, _sleepy(steps="400", pause="0.05", child=str(marker)))
        await _until(lambda: marker.exists() and marker.read_text().strip() != "")
        job_pid, grandchild = (int(x) for x in marker.read_text().split())
        board.cancel(job.id, ANN)
        reply, status = await job.outcome
    finally:
        await board.stop()
    assert status == 1 and "cancelled by ann; its processes were killed" in reply.text
    row = _row(executor, job.worker.key)  # type: ignore[union-attr]
    assert row is not None and row.state == "cancelled" and row.attempts == 1
    for pid in (job_pid, grandchild):
        await _until(lambda pid=pid: not _alive(pid))


async def test_cancel_before_the_task_starts_never_runs_it(executor: DaskExecutor) -> None:
    execution = executor.worker(SLEEPY, _sleepy(steps="1", pause="0"))
    execution.kill()
    with pytest.raises(JobKilled):
        await execution.run(lambda line, f=None: None)
    row = _row(executor, execution.key)
    assert row is not None and row.state == "cancelled" and row.attempts == 0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead for our purpose
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


async def test_progress_lines_come_back_from_the_cluster_worker(executor: DaskExecutor) -> None:
    lines: list[tuple[str, float | None]] = []
    reply, status = await executor.worker(SLEEPY, _sleepy(steps="4", pause="0.3")).run(
        lambda line, fraction=None: lines.append((line, fraction))
    )
    assert status == 0 and reply.text == "slept 4 steps"
    assert lines[0][0].startswith("running on the cluster")
    # each step is 0.3 s apart, longer than the worker's 0.25 s throttle: they arrive, in order (the last one
    # may lose the race with the reply itself, which ends the relay)
    steps = [entry for entry in lines if entry[0].startswith("step")]
    assert steps[:3] == [("step 1/4", 0.25), ("step 2/4", 0.5), ("step 3/4", 0.75)]
    assert steps[3:] in ([], [("step 4/4", 1.0)])
