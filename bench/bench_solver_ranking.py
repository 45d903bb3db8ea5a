"""The ranking of the built-in solvers on a judged solve()'s hidden instances (or, with ``--seeds``, on a member's
method run's instances, the reference its baseline is chosen by): the bounded search that
:func:`engine.methods.on_instances.best_solver` runs, against its baseline, every solver traced to the end on every
instance (what the rule is defined by), and against the same search with no first scouting cap
(``FIRST_SCOUT_DMC`` infinite: the first solver in the registry's order set the caps, as before 2026-11-29). All
must pick the same solver with the same per-instance values; the process's memory of traced runs is emptied before
every call, so each call traces afresh.

Prints the median CPU seconds of each (this process's CPU: the ranking runs here, BLAS on one thread as in a job's
worker), the ratio, the winner and which solvers the bounded search stopped, then the machine and its load.

Run: ``OPENBLAS_NUM_THREADS=1 PYTHONPATH=$PWD .venv/bin/python bench/bench_solver_ranking.py [--repeat 5]``
"""

from __future__ import annotations

import argparse
import math
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
    parser.add_argument("--seeds", type=int, nargs="*", help="a method run's seeds instead of 3 hidden instances")
    args = parser.parse_args()
    print(load_line())
    if args.seeds:
        instances = oi.seeded_instances(args.n, args.k, args.seeds)
        what = f"the instances of a method run with seeds {', '.join(map(str, args.seeds))}"
    else:
        instances = [instance_data(f"{seed:032x}", args.n, args.k, 200, 1000) for seed in (11, 22, 33)]
        what = "3 hidden instances"
    solvers = [m.name for m in METHODS if m.kind == "solver"]

    def bounded() -> oi.BestSolver:
        oi._TRACED.clear()
        return oi.best_solver(METHODS, instances, args.n, args.k, "dmc@1")

    def no_first_cap() -> oi.BestSolver:
        kept, oi.FIRST_SCOUT_DMC = oi.FIRST_SCOUT_DMC, math.inf
        try:
            return bounded()
        finally:
            oi.FIRST_SCOUT_DMC = kept

    def every() -> list[oi.SolverOnInstances]:
        oi._TRACED.clear()
        return [oi.solver_on_instances(METHODS, name, instances, args.n, args.k) for name in solvers]

    ranked, runs = bounded(), every()
    expected = min((r for r in runs if r.solves), key=lambda r: r.mean("dmc@1"))
    for search in (ranked, no_first_cap()):
        assert search.best is not None
        assert (search.best.method, search.best.metrics) == (expected.method, expected.metrics)
    contenders = {"bounded": bounded, "no first cap": no_first_cap, "every": every}
    medians = interleaved_medians(contenders, args.repeat, clock=time.process_time)
    print(f"ranking of {len(solvers)} solvers on {what}, n={args.n} k={args.k}, by dmc@1:")
    print(f"  every solver to the end (baseline)  {medians['every']:.3f} CPU s (median of {args.repeat})")
    ratio = medians["every"] / medians["bounded"]
    print(f"  bounded search                      {medians['bounded']:.3f} CPU s ({ratio:.1f}x less)")
    print(f"  the same with no first cap          {medians['no first cap']:.3f} CPU s")
    stopped = [t.method for t in ranked.tried if t.stopped_over is not None]
    print(f"  both pick {expected.method}; stopped inside a run: {', '.join(stopped) or 'none'}")
    print(machine_line())
    print(load_line())


if __name__ == "__main__":
    main()
