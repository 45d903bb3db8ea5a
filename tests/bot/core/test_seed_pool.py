"""The seed workers: long-lived children that run several seeds each, with the same result as a direct run, and
one-line typed failures when a child dies or hits a limit (adversarial: one broken property per test).

Oracles: each seed run directly in this process with its per-buffer tables (the runs are deterministic given the
seed, and dmc's sum is exactly rounded, so the values must be equal, not close); for failures, the signal or
limit the test itself applies to the child.
"""

from __future__ import annotations

import os
import resource
import signal
from dataclasses import replace
from pathlib import Path

import pytest

from bot.core import seed_pool
from bot.core.method_request import MethodRequest
from bot.core.seed_pool import SeedLimitExceeded, SeedPool
from bot.core.seed_set import run_tasks
from bot.core.seed_task import SeedTask, run_here
from engine.errors import EngineError

TINY = {"n": "8", "epochs": "20"}
"""Small enough for a fast test (both methods pass on seeds 3, 4 and 5)."""


@pytest.mark.slow  # starts worker processes and traces two methods on three seeds
@pytest.mark.parametrize("forked", [True, False], ids=["forked", "fresh-interpreters"])
def test_every_seed_in_the_workers_equals_a_direct_run_of_it(forked: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both ways a worker starts: a fork of this process (its BLAS is pinned by tests/conftest.py) and, where BLAS is
    not pinned, ``python -m bot.core.seed_child``."""
    monkeypatch.setattr(seed_pool, "FORK", forked)
    tasks = [
        *MethodRequest.parse("local_update", {**TINY, "seeds": "3,4,5"}).tasks,
        *MethodRequest.parse("sgd", {**TINY, "seeds": "3,4,5"}).tasks,
    ]
    assert [t.attribution for t in tasks] == [True, False, False, True, False, False]
    with SeedPool(2) as pool:
        results = pool.run(tasks)
        assert len(pool.workers) == 2 and sum(w.seeds_run for w in pool.workers) == 6  # two processes, six seeds
        ready = [w.ready for w in pool.workers]
        assert all(r is not None for r in ready)
        # a fork has the methods loaded already; a fresh interpreter imports numpy and the methods first
        assert all((r.cpu_s < 0.05) == forked for r in ready if r is not None), [r for r in ready]
    for task, got in zip(tasks, results, strict=True):
        direct = run_here(replace(task, attribution=True))  # with the tables: leaving them out changes no number
        assert (got.subject, got.seeds) == (task.method, [task.params["seed"]])
        assert got.metrics == direct.metrics and got.per_step == direct.per_step
        assert (got.accuracy, got.found, got.counts) == (direct.accuracy, direct.found, direct.counts)
        assert (got.buffer_attribution is not None) == task.attribution


def test_a_worker_killed_under_its_seed_is_a_limit_failure_not_a_hang() -> None:
    with SeedPool(1) as pool:
        worker = pool.workers[0]
        worker.wait_ready()
        os.kill(worker.pid, signal.SIGKILL)  # what the out-of-memory killer does
        with pytest.raises(SeedLimitExceeded) as err:
            pool.run([SeedTask("sgd", {**TINY, "seed": 3})])
    line = err.value.one_line()
    assert line.startswith("sgd seed 3 ended without a result: killed (out of memory?)") and "\n" not in line


def _address_space(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmSize")


@pytest.mark.slow  # 0.5 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29): 100,000 samples are drawn first
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the child's address space from /proc")
def test_a_seed_over_its_memory_limit_is_a_limit_failure() -> None:
    with SeedPool(1) as pool:
        worker = pool.workers[0]
        worker.wait_ready()
        cap = _address_space(worker.pid) + 4 * 1024 * 1024  # 4 MiB more than it holds once the methods are loaded
        resource.prlimit(worker.pid, resource.RLIMIT_AS, (cap, cap))
        # m=100000 samples: its first forward pass needs 153 MiB at once (100000 x 200 float64), more than a worker
        # forked from a long-lived process finds free in the heap it inherited
        with pytest.raises(SeedLimitExceeded, match="ended without a result: out of memory"):
            pool.run([SeedTask("local_update", {"n": "20", "seed": 3, "m": "100000"})])


@pytest.mark.slow  # 0.6 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
def test_an_engine_error_in_a_seed_is_raised_as_its_one_line_and_no_seed_is_lost() -> None:
    tasks = [SeedTask("sgd", {**TINY, "seed": 3}), SeedTask("sgd_typo", {**TINY, "seed": 4})]
    with pytest.raises(EngineError) as err:
        run_tasks(tasks, workers=2)
    assert err.value.one_line().startswith("unknown method 'sgd_typo' — known methods: sgd, ")
