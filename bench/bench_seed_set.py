"""Seed sets in parallel: ``run local_update n=20`` over the group's three seeds with its sgd baseline on the same
seeds — six traced runs — one after another in this process (the serial sum) and then through
:func:`bot.core.seed_set.run_tasks` on two worker processes, as ``run`` does with ``SUTRO_JOB_WORKERS=2``.

Run: ``PYTHONPATH=$PWD .venv/bin/python bench/bench_seed_set.py [--workers 2] [--epochs 200]``. Prints the wall
times, their ratio (target ≤ 0.6) and the machine with its load average: on a shared machine the ratio is only
meaningful when the load leaves the two workers a core each.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from measure import machine_line  # noqa: E402

from bot.core.method_request import MethodRequest  # noqa: E402
from bot.core.seed_set import run_tasks  # noqa: E402
from engine.compat.spc import SEEDS  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=200)
    args = parser.parse_args()
    seeds = ",".join(map(str, SEEDS))
    params = {"n": "20", "epochs": str(args.epochs), "seeds": seeds}
    tasks = [*MethodRequest.parse("local_update", params).tasks, *MethodRequest.parse("sgd", params).tasks]
    print(machine_line(), f"load average {os.getloadavg()[0]:.1f} before", sep="; ")
    start = time.perf_counter()
    serial = run_tasks(tasks, workers=1)
    serial_s = time.perf_counter() - start
    start = time.perf_counter()
    parallel = run_tasks(tasks, workers=args.workers)
    parallel_s = time.perf_counter() - start
    for a, b in zip(serial, parallel, strict=True):  # dmc's float sums differ in the last digits with BLAS threads
        assert all(math.isclose(a.metrics[k], b.metrics[k], rel_tol=1e-9) for k in a.metrics), "numbers changed"
    print(f"{len(tasks)} traced runs (local_update + sgd, n=20, seeds {seeds}, epochs {args.epochs})")
    own = sum(r.wall_s for r in parallel)
    print(f"serial, this process: {serial_s:.1f} s; {args.workers} workers: {parallel_s:.1f} s")
    print(f"ratio {parallel_s / serial_s:.2f} (target ≤ 0.6); against the sum of the children's own run times")
    print(f"({own:.1f} s): {parallel_s / own:.2f}; load average {os.getloadavg()[0]:.1f} after")


if __name__ == "__main__":
    main()
