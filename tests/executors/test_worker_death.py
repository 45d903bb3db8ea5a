"""A Dask worker killed at each point of a job's start harms nothing but that job.

For each step of the start (the job process forked, in its own session, its watcher running) a separate "bot"
process (tests/executors/fault_cluster.py) runs a real scheduler and two workers, kills the worker starting the
job exactly then, and reports. That process must exit normally (a job that signalled its parent's process group
would have killed it, and its workers, with SIGKILL), the job process must be gone (no orphan left running the job
a second time), the other worker must live and the scheduler must still answer.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.executors.fault_cluster import STEPS

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


@pytest.mark.parametrize("step", STEPS)
def test_a_worker_killed_at_each_point_of_a_job_start_takes_only_the_job_with_it(step: str, tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    done = subprocess.run(
        [sys.executable, "-m", "tests.executors.fault_cluster", step, str(tmp_path)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        start_new_session=True,  # the stand-in bot leads its own group: what it loses is never the test runner's
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, f"the bot process died ({done.returncode}): {done.stderr[-2000:]}"
    result = json.loads((tmp_path / "result.json").read_text())
    assert result["job_gone"], result
    assert result["other_workers_alive"] == [True], result
    assert result["scheduler_workers"] >= 1, result
    assert result["task"] == "error", result  # allowed-failures 0: the scheduler gives the task up, no second copy
