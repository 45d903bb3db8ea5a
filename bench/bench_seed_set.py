"""Seed sets in parallel: ``run local_update n=20`` over the group's three seeds with its sgd baseline on the same
seeds — six traced runs — one after another (the serial sum) and through :func:`bot.core.seed_set.run_tasks` on two
worker processes, as ``run`` does with ``SUTRO_JOB_WORKERS=2``. Target: parallel wall ≤ 0.6 × serial.

The serial pass runs in a fresh process with its BLAS on one thread, as the workers' is, timed after its imports
(what a job's worker has loaded already): a serial pass in a process with BLAS threads spends about twice the CPU
per seed on spinning threads and would flatter the ratio. The parallel pass counts everything, the workers' start
and imports included. Both passes check that every seed's metrics are the same.

Where the time goes is printed under the ratio: each worker's start (interpreter and imports, CPU and wall), the
seeds' own run times, the children's and this process's CPU; ``--phases`` adds one seed's phases in this process
(traced training, clock metrics, per-buffer attribution, the one-step ByteDMD) and storing the combined set.

Run: ``PYTHONPATH=$PWD .venv/bin/python bench/bench_seed_set.py [--workers 2] [--quick] [--phases]``
(``--quick``: 2 seeds, ~4 s of work instead of ~10 s). The ratio is only meaningful when the load leaves the two
workers a core each: the load average is printed before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.blas_threads import ONE_BLAS_THREAD  # noqa: E402

os.environ.update(ONE_BLAS_THREAD)  # before numpy loads, as `sutro` does: the workers are then forks of this process

from measure import load_line, machine_line  # noqa: E402

from bot.core.method_request import MethodRequest  # noqa: E402
from bot.core.seed_pool import SeedPool  # noqa: E402
from bot.core.seed_task import SeedTask, run_here  # noqa: E402
from engine.compat.spc import SEEDS  # noqa: E402


def tasks_of(seeds: list[int]) -> list[SeedTask]:
    """The method's seeds then its baseline's, as ``run`` queues them."""
    params = {"n": "20", "seeds": ",".join(map(str, seeds))}
    return [*MethodRequest.parse("local_update", params).tasks, *MethodRequest.parse("sgd", params).tasks]


def serial_pass(seeds: list[int]) -> None:
    """In the one-thread child: run the tasks in order, print wall seconds and the metrics as JSON."""
    import engine.methods  # noqa: F401 - loaded before the clock starts, as in a job's worker

    tasks = tasks_of(seeds)
    start, cpu = time.perf_counter(), time.process_time()
    results = [run_here(t) for t in tasks]
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(json.dumps({"wall_s": wall, "cpu_s": cpu, "metrics": [r.metrics for r in results]}))


def phases(task: SeedTask) -> None:
    """One seed's phases in this process (after a warm-up seed), and storing a set of it in a fresh database."""
    import tempfile

    from bot.context import AppContext
    from bot.core.recording import store_result
    from bot.core.seed_set import combine
    from bot.settings import Settings
    from engine.attribution import ONE_STEP, WHOLE_RUN, NamingEventLog, attribute_log, bytedmd_by_argument
    from engine.attribution.naming import argument_names
    from engine.methods import METHODS
    from engine.methods.runner import resolve, run_traced
    from engine.metrics.clock import clock_metrics

    run_here(SeedTask(task.method, {"n": "8", "epochs": "2", "seed": 1}))
    chosen, values = resolve(METHODS, task.method, task.params)
    clock = time.process_time
    mark = clock()
    outcome, log, _, _, _ = run_traced(METHODS.get(task.method), values, chosen, NamingEventLog())
    traced = clock() - mark
    mark = clock()
    clock_metrics(*log.arrays())
    metrics = clock() - mark
    mark = clock()
    attribute_log(log, WHOLE_RUN)
    tables = clock() - mark
    assert outcome.one_step is not None
    step, args = outcome.one_step
    mark = clock()
    bytedmd_by_argument(step, args, argument_names(step, args), ONE_STEP)
    element = clock() - mark
    print(
        f"one seed ({task.method}, seed {values['seed']}), CPU s: traced training {traced:.2f}, clock metrics "
        f"{metrics:.2f}, per-buffer tables {tables:.2f}, one-step bytedmd {element:.2f} ({len(log):,} events)"
    )
    request = MethodRequest.parse(task.method, {"n": "20", "seeds": "1,2,3"})
    results = [run_here(t) for t in request.tasks]
    with tempfile.TemporaryDirectory() as folder:
        ctx = AppContext(settings=Settings(_env_file=None, data_dir=Path(folder)))  # type: ignore[call-arg]
        combined = combine(results, params=request.params, wall_s=0.0)
        with ctx.sessions()():
            pass  # the schema is made on first use: not part of storing
        mark = time.perf_counter()
        store_result(ctx, combined, request=request.stored, member="bench")
        print(f"storing the combined set of 3 seeds: {1000 * (time.perf_counter() - mark):.0f} ms wall")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="two seeds instead of three")
    parser.add_argument("--phases", action="store_true", help="also time one seed's phases and storing a set")
    parser.add_argument("--serial-pass", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serial_pass:
        serial_pass([int(s) for s in args.serial_pass.split(",")])
        return
    seeds = list(SEEDS[:2] if args.quick else SEEDS)
    tasks = tasks_of(seeds)
    print(machine_line(), load_line(), sep="; ")
    print(f"{len(tasks)} traced runs: local_update + sgd, n=20, seeds {', '.join(map(str, seeds))}")
    serial = subprocess.run(
        [sys.executable, __file__, "--serial-pass", ",".join(map(str, seeds))],
        capture_output=True,
        check=True,
        env={**os.environ, **ONE_BLAS_THREAD, "PYTHONPATH": str(ROOT)},
        text=True,
    )
    one = json.loads(serial.stdout.strip().splitlines()[-1])
    before_children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_before = time.process_time()
    start = time.perf_counter()
    with SeedPool(min(args.workers, len(tasks))) as pool:
        results = pool.run(tasks)
    parallel_s = time.perf_counter() - start
    own_cpu = time.process_time() - cpu_before
    after_children = resource.getrusage(resource.RUSAGE_CHILDREN)
    children_cpu = (after_children.ru_utime + after_children.ru_stime) - (
        before_children.ru_utime + before_children.ru_stime
    )
    assert [r.metrics for r in results] == one["metrics"], "a seed's metrics differ between the two passes"
    serial_s = one["wall_s"]
    print(f"serial, one process: {serial_s:.2f} s; {pool.size} workers: {parallel_s:.2f} s")
    print(f"ratio {parallel_s / serial_s:.2f} (target ≤ 0.6); every seed's metrics equal in both passes")
    for i, worker in enumerate(pool.workers):
        assert worker.ready is not None and worker.ready_after_s is not None
        print(
            f"worker {i + 1}: ready after {worker.ready_after_s:.2f} s wall ({worker.ready.cpu_s:.2f} s CPU: start "
            f"and imports), then {worker.seeds_run} seeds; {worker.cpu_s:.2f} s CPU in all"
        )
    longest = max(w.cpu_s for w in pool.workers)
    print(
        f"with a core per worker the wall would be about the busiest worker's CPU: {longest:.2f} s, "
        f"{longest / one['cpu_s']:.2f} × the serial pass's CPU"
    )
    print(
        f"seeds' own run times: {sum(r.wall_s for r in results):.2f} s in the workers, serial pass's CPU "
        f"{one['cpu_s']:.2f} s; children's CPU {children_cpu:.2f} s, this process {own_cpu:.2f} s "
        f"(pipes and threads); results {sum(len(pickle.dumps(r)) for r in results):,} bytes pickled"
    )
    print(f"after: {load_line()}")
    if args.phases:
        phases(tasks[0])


if __name__ == "__main__":
    main()
