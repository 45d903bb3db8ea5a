"""What a child process costs to start: a fork of this process (engine/forked_child.py) against a fresh interpreter,
for the two kinds of children that use it, beside a bare ``python -c pass`` measured in the same run.

- a trusted run (``run_trusted_limited``): the IR scorer on a one-line program that it rejects at once, so the
  figure is the child's start, its rlimits, the round trip and its exit;
- a seed pool of two workers (``SeedPool(2)``) that starts, says it is ready and closes, without running a seed.

Usage: ``PYTHONPATH=$PWD .venv/bin/python bench/bench_forked_children.py [--rounds N]`` (default 15; about 15 s).

Each figure is CPU seconds (user + system) of this process and the children it waited for, per call: the median
over interleaved rounds, one call of every case per round. This process pins BLAS to one thread before numpy loads,
as the ``sutro`` command and a job process do; that is the condition under which seed workers are forked.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from collections.abc import Callable

from engine.blas_threads import ONE_BLAS_THREAD

os.environ.update(ONE_BLAS_THREAD)

SCORER = "engine.scoring.verdict:score_or_reject"


def cpu_s() -> float:
    """CPU seconds of this process and of the children it has waited for."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()

    from measure import load_line, machine_line

    from bot.core import seed_pool
    from engine.sandbox import trusted
    from engine.sandbox.trusted import run_trusted_limited

    def scored(fork: bool) -> Callable[[], object]:
        def call() -> object:
            trusted.FORK = fork
            return run_trusted_limited(SCORER, ["matmul_4x4", "x = 1", "bench"])

        return call

    def pool(fork: bool) -> Callable[[], object]:
        def call() -> object:
            seed_pool.FORK = fork
            with seed_pool.SeedPool(2) as started:
                for worker in started.workers:
                    worker.wait_ready()
            return started

        return call

    cases: dict[str, Callable[[], object]] = {
        "python -c pass (baseline)": lambda: subprocess.run([sys.executable, "-c", "pass"], check=True),
        "trusted run, fresh interpreter": scored(False),
        "trusted run, forked": scored(True),
        "seed pool of 2, fresh interpreters": pool(False),
        "seed pool of 2, forked": pool(True),
    }
    for case in cases.values():  # warm-up: imports, caches
        case()
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.rounds):
        for name, case in cases.items():
            start = cpu_s()
            case()
            times[name].append(cpu_s() - start)
    print(machine_line())
    print(load_line())
    width = max(len(name) for name in cases)
    for name, values in times.items():
        print(f"{name:<{width}}  {statistics.median(values) * 1000:8.1f} ms CPU (median of {args.rounds})")


if __name__ == "__main__":
    main()
