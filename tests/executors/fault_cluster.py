"""A throwaway "bot" process for the worker-death fault test: it starts a real Dask cluster (a scheduler in this
process, two non-daemonic worker processes in this process's group), starts one job process on a worker through
the production start path (:func:`~bot.executors.dask_worker.run_job_tied_to_worker`), kills that worker with
SIGKILL at the named step of the job's start, and writes what survived to ``OUTDIR/result.json``.

Run as ``python -m tests.executors.fault_cluster STEP OUTDIR`` by tests/executors/test_worker_death.py, in a new
session of its own, so a job that signals its parent's group takes this process down (the test sees the exit
status) and never the test runner.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import signal
import sys
import time
from pathlib import Path

from bot.commands.base import Caller, Invocation, Reply
from bot.executors.dask_worker import run_job_tied_to_worker
from bot.executors.local import ProcessRunner
from bot.settings import Settings
from tests.bot.fixture_commands import SLEEPY

STEPS = ("forked", "own-session", "watching")
"""The points of a job's start at which the test kills the worker (the names ``at_step`` is called with)."""


def alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie counts as dead)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def long_job(settings: Settings, command: object, inv: Invocation, *, deliver_sprint_log: bool = True) -> tuple:
    """A job that would run for a minute: it only ends early when it is killed."""
    time.sleep(60)
    return Reply(text="the job ran to its end"), 0


def _pause(step: str, outdir: str, worker_pid: int, name: str) -> None:
    """``at_step``: note this step; at the chosen one, wait until the worker has been killed."""
    Path(outdir, f"{name}.json").write_text(json.dumps({"job_pid": os.getpid(), "worker_pid": worker_pid}))
    if name == step:
        while alive(worker_pid):
            time.sleep(0.02)


def start_job(step: str, outdir: str) -> None:
    """The task run on a Dask worker: start one job process there, as :mod:`bot.executors.dask_worker` does."""
    worker_pid = os.getpid()
    target = functools.partial(
        run_job_tied_to_worker, worker_pid, at_step=functools.partial(_pause, step, outdir, worker_pid)
    )
    settings = Settings(data_dir=Path(outdir, "data"), dev_allow_unsandboxed=True)
    process = ProcessRunner(settings, job=long_job, target=target).worker(
        SLEEPY, Invocation(command="sleepy", caller=Caller(name="ann", user_id=1))
    )
    asyncio.run(process.run(lambda line, fraction=None: None))


def main(step: str, outdir: str) -> None:
    import dask
    import distributed

    out = Path(outdir)
    with dask.config.set(
        {
            "distributed.worker.daemon": False,
            "distributed.scheduler.allowed-failures": 0,
            # workers forked from a forkserver that has distributed loaded (~0.3 CPU s each), not spawned fresh
            # interpreters (~1.4 s each): 4.5 CPU s less over the three runs; still this process's group
            "distributed.worker.multiprocessing-method": "forkserver",
        }
    ):
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None, silence_logs=50
        )
        client = distributed.Client(cluster, set_as_default=False)
        pids = client.run(os.getpid)  # worker address -> pid
        future = client.submit(start_job, step, outdir, pure=False)
        marker = out / f"{step}.json"
        while not marker.exists():
            if future.done():  # the task failed before the job reached the step: say why
                raise RuntimeError(f"the task ended before step {step}: {future.exception()!r}")
            time.sleep(0.02)
        time.sleep(0.05)  # the marker is written whole before the pause starts; let the write finish
        noted = json.loads(marker.read_text())
        victim = noted["worker_pid"]
        others = [pid for pid in pids.values() if pid != victim]
        os.kill(victim, signal.SIGKILL)
        while alive(noted["job_pid"]):  # the job must die with its worker (no orphan), at every step
            time.sleep(0.05)
        while not future.done():  # the scheduler gives the task up (allowed-failures 0)
            time.sleep(0.05)
        info = client.scheduler_info()  # the scheduler still answers
        result = {
            "step": step,
            "job_gone": not alive(noted["job_pid"]),
            "other_workers_alive": [alive(pid) for pid in others],
            "scheduler_workers": len(info["workers"]),
            "task": future.status,
        }
        (out / "result.json").write_text(json.dumps(result))
        client.close()
        cluster.close()


if __name__ == "__main__":  # through the module's own name, so the task and its steps pickle by reference
    from tests.executors import fault_cluster

    fault_cluster.main(sys.argv[1], sys.argv[2])
