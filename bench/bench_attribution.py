"""What per-buffer attribution adds to a traced method run (issue 15: target ≤ 10 %). Prints medians of the same run
with and without attribution, measured alternately so that load on a shared machine hits both alike, the ratio, the
size of the stored form, and the machine. Run: ``PYTHONPATH=. python bench/bench_attribution.py`` (``--quick``: fewer
repeats); about 40 s on 2 cores.

Runs: every built-in method at n=20, k=3 (training methods limited to 2 epochs, 64 steps, so that a repeat stays
short; per step the cost is the same as in a full run).
"""

from __future__ import annotations

import os

# One BLAS thread: CPU time counts every thread of the process, and OpenBLAS's idle threads spin for a while after
# each call; on a loaded machine that spinning made the same run (lasso) cost 30 ms or 1,300 ms of CPU at random.
from engine.blas_threads import ONE_BLAS_THREAD  # noqa: E402 - the engine package itself loads no numpy

for _variable, _value in ONE_BLAS_THREAD.items():
    os.environ.setdefault(_variable, _value)

import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

from measure import machine_line  # noqa: E402

from engine.methods import METHODS  # noqa: E402
from engine.methods.runner import run_with  # noqa: E402

TARGET = 0.10


def timed(name: str, params: dict[str, int], attribution: bool) -> tuple[float, float, int]:
    """Wall and CPU seconds of one run (CPU time is the steadier figure on a shared machine), stored-form bytes."""
    start, cpu = time.perf_counter(), time.process_time()
    result = run_with(METHODS, name, params, attribution=attribution)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    size = len(result.buffer_attribution.to_json()) if result.buffer_attribution is not None else 0
    return wall, cpu, size


def main() -> None:
    reps = 3 if "--quick" in sys.argv else 5
    print(machine_line())
    print("traced run, medians (s): wall without | with | added ;  CPU without | with | added  (target ≤ 10 %); stored")
    worst = 0.0
    for name in METHODS.names():
        method = METHODS.get(name)
        params = {"n": 20, "k": 3, "seed": 0}
        if method.kind == "training":
            params["epochs"] = 2
        timed(name, params, True)  # warm: imports, source parsing of the method's files
        runs: dict[bool, list[tuple[float, float, int]]] = {False: [], True: []}
        for _ in range(reps):
            for attribution in (False, True):
                runs[attribution].append(timed(name, params, attribution))
        wall = [statistics.median(r[0] for r in runs[a]) for a in (False, True)]
        cpu = [statistics.median(r[1] for r in runs[a]) for a in (False, True)]
        best = [min(r[1] for r in runs[a]) for a in (False, True)]
        added_wall, added_cpu, added_best = wall[1] / wall[0] - 1, cpu[1] / cpu[0] - 1, best[1] / best[0] - 1
        worst = max(worst, added_cpu)
        verdict = "ok" if added_cpu <= TARGET else "OVER"
        print(
            f"  {name:<13} {wall[0]:7.3f} | {wall[1]:7.3f} | {added_wall:+6.1%} ;  {cpu[0]:7.3f} | {cpu[1]:7.3f} | "
            f"{added_cpu:+6.1%} {verdict}  (fastest CPU {1e3 * (best[1] - best[0]):+.1f} ms, {added_best:+.1%})  "
            f"{runs[True][-1][2]:,} B"
        )
    print(f"worst added CPU time (medians): {worst:+.1%}")


if __name__ == "__main__":
    main()
