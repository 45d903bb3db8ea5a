"""The ranking of the built-in solvers on a judged solve()'s hidden instances: the bounded search that
:func:`engine.methods.on_instances.best_solver` runs, against its baseline, every solver traced to the end on every
instance (what the rule is defined by). Both must pick the same solver with the same per-instance values; the
process's memory of traced runs is emptied before every call, so each call traces afresh.

Prints the median CPU seconds of each (this process's CPU: the ranking runs here, BLAS on one thread as in a job's
worker), the ratio, the winner and which solvers the bounded search stopped, then the machine and its load.

Run: ``OPENBLAS_NUM_THREADS=1 PYTHONPATH=$PWD .venv/bin/python bench/bench_solver_ranking.py [--repeat 5]``
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from measure import interleaved_medians, load_line, machine_line  # noqa: E402

from engine.methods import METHODS  # noqa: E402
from engine.methods import on_instances as oi  # noqa: E402
from engine.sandbox import instance_data  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--n", type=int, default=20)
    parser.add_argument("--k", type=int, default=3)
    args = parser.parse_args()
    print(load_line())
    instances = [instance_data(f"{seed:032x}", args.n, args.k, 200, 1000) for seed in (11, 22, 33)]
    solvers = [m.name for m in METHODS if m.kind == "solver"]

    def bounded() -> oi.BestSolver:
        oi._TRACED.clear()
        return oi.best_solver(METHODS, instances, args.n, args.k, "dmc@1")

    def every() -> list[oi.SolverOnInstances]:
        oi._TRACED.clear()
        return [oi.solver_on_instances(METHODS, name, instances, args.n, args.k) for name in solvers]

    ranked, runs = bounded(), every()
    expected = min((r for r in runs if r.solves), key=lambda r: r.mean("dmc@1"))
    assert ranked.best is not None and (ranked.best.method, ranked.best.metrics) == (expected.method, expected.metrics)
    medians = interleaved_medians({"bounded": bounded, "every": every}, args.repeat, clock=time.process_time)
    print(f"ranking of {len(solvers)} solvers on 3 hidden instances, n={args.n} k={args.k}, by dmc@1:")
    print(f"  every solver to the end (baseline)  {medians['every']:.3f} CPU s (median of {args.repeat})")
    ratio = medians["every"] / medians["bounded"]
    print(f"  bounded search                      {medians['bounded']:.3f} CPU s ({ratio:.1f}x less)")
    stopped = [t.method for t in ranked.tried if t.stopped_over is not None]
    print(f"  both pick {expected.method}; stopped inside a run: {', '.join(stopped) or 'none'}")
    print(machine_line())
    print(load_line())


if __name__ == "__main__":
    main()
