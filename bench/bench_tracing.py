"""Speed and memory of tracing and metrics. Prints medians, ratios against baselines run in this process, and the
machine. Run: ``PYTHONPATH=. python bench/bench_tracing.py`` (``--quick``: fewer repeats; ``--only N``: one section).

1. every built-in method at n=20, k=3, fully traced with all metrics, one line each: wall and CPU seconds, the
   number of trace events; targets: a training method <= 2 s, a solver <= 1 s (judged on CPU seconds; one
   round per method with --quick);
2. ByteDMD of the naive i-j-k matmul, 16×16 and 32×32: the whole call, its trace alone (the compiled tracer when
   built, and the pure one beside it), its depth pass alone (compiled when built, and the array-operation pass beside
   it), the untraced call
   (target: whole ≤ 10× untraced at 32×32), the group's reference tracer (cybertronai/ByteDMD, loaded from the
   fetched mirror, skipped when absent; 16×16 only, it is quadratic) and a list-scan LRU stack written here;
3. memory of a 10-million-event trace (target < 500 MB), by tracemalloc, with the peak while computing metrics;
4. tracing overhead: each method traced (buffer-level events) against the same code on plain arrays, CPU seconds
   (``time.process_time``, less sensitive to other processes on a shared machine), interleaved (target ≤ 2×);
   the training methods run 15 epochs here; solvers (a few milliseconds each) 60 rounds per repeat.
"""

from __future__ import annotations

import os

# One BLAS thread, as in the job and seed processes that run methods for the bot (bot/executors/local.py): CPU time
# counts every thread, and OpenBLAS's idle threads spin after each call (a traced lasso: 0.03 s pinned, up to 0.57 s
# not, on a loaded 2-core host).
from engine.blas_threads import ONE_BLAS_THREAD  # noqa: E402 - the engine package itself loads no numpy

for _variable, _value in ONE_BLAS_THREAD.items():
    os.environ.setdefault(_variable, _value)

import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402
from collections.abc import Callable  # noqa: E402

import numpy as np  # noqa: E402
import reference_code  # noqa: E402
from measure import interleaved_medians, load_line, machine_line  # noqa: E402

from engine.challenges.sparse_parity import make_instance  # noqa: E402
from engine.methods import METHODS, run_method  # noqa: E402
from engine.methods.method import Problem  # noqa: E402
from engine.methods.params import parse_params  # noqa: E402
from engine.methods.runner import DEFAULT_ROWS, run_traced  # noqa: E402
from engine.metrics.bytedmd import bytedmd, depths_of, read_costs  # noqa: E402
from engine.metrics.clock import clock_metrics  # noqa: E402
from engine.metrics.lru_stack import COMPILED, bytedmd_depths_offline  # noqa: E402
from engine.tracing import EventLog, tracked_pure  # noqa: E402
from engine.tracing.tracked_scalar import COMPILED as TRACER_COMPILED  # noqa: E402
from engine.tracing.tracked_scalar import call_traced  # noqa: E402


def matmul(A, B):
    n = len(A)
    C = [[None] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            s = A[i][0] * B[0][j]
            for k in range(1, n):
                s = s + A[i][k] * B[k][j]
            C[i][j] = s
    return C


def list_scan_bytedmd(func, args):
    """Baseline: same trace, priced with a Python list stack (index/remove scans) as the reference does."""
    trace, _, kept = call_traced(func, args)
    kind, key, op = (column.tolist() for column in trace.columns())
    last = {}
    for s, k, o in zip(kind, key, op, strict=True):
        if not s or k not in last:
            last[k] = o
    for k in kept:
        last[k] = op[-1] + 1
    stack, depths, i = [], [], 0
    while i < len(kind):
        j = i
        while j < len(kind) and op[j] == op[i]:
            j += 1
        if kind[i]:
            if last[key[i]] > op[i]:
                stack.append(key[i])
        else:
            batch = key[i:j]
            d = {k: len(stack) - stack.index(k) for k in batch}
            depths.extend(d[k] for k in batch)
            for k in dict.fromkeys(batch):
                stack.remove(k)
                if last[k] > op[i]:
                    stack.append(k)
        i = j
    return int(read_costs(depths).sum())


def untraced_run(name: str, values: dict[str, int | float]) -> object:
    """The method's own code on plain arrays: no tracked array, no event (the baseline of section 4)."""
    method = METHODS.get(name)
    n, k, seed = int(values["n"]), int(values["k"]), int(values["seed"])
    data = make_instance(n, k, int(values.get("m", DEFAULT_ROWS)), seed)
    problem = Problem(
        x=data.x_train.copy(),
        y=data.y_train.copy(),
        n=n,
        k=k,
        params=values,
        rng=np.random.RandomState(seed + 1),  # type: ignore[arg-type]
        log=EventLog(),
        secret=data.secret,
    )
    return method.run(problem)


def cpu_medians(fns: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """Median CPU seconds of each of ``fns``, one call of each per round."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            start = time.process_time()
            fn()
            times[name].append(time.process_time() - start)
    return {name: statistics.median(t) for name, t in times.items()}


def overhead(reps: int) -> None:
    print("\n4. tracing overhead: traced run / the same code untraced (median CPU s; target <= 2x)")
    for name in METHODS.names():
        method = METHODS.get(name)
        extra = {"epochs": 15} if method.kind == "training" else {}
        values = dict(parse_params({"n": 20, "k": 3, "seed": 0, **extra}, method.defaults))
        t = cpu_medians(
            {
                "untraced": lambda name=name, values=values: untraced_run(name, values),
                "traced": lambda method=method, values=values: run_traced(method, values),
            },
            reps if method.kind == "training" else 60 * reps,  # a solver runs in milliseconds: many rounds
        )
        ratio = t["traced"] / t["untraced"]
        print(
            f"   {name:<13} untraced {t['untraced']:.3f}  traced {t['traced']:.3f}  ratio {ratio:.2f}  "
            f"{'ok' if ratio <= 2 else 'OVER'}"
        )


TARGET_S = {"training": 2.0, "solver": 1.0}
"""Time budget of one fully traced run at n=20, k=3 (all metrics, bytedmd@2 included), by method kind."""


def methods_traced(reps: int) -> None:
    print(
        "\n1. every method at n=20, k=3, seed 0, fully traced with all metrics (median of wall s and CPU s; "
        "events: the run's buffer-level trace; target: training <= 2 s, solver <= 1 s)"
    )
    print(f"   {'method':<16} {'kind':<9} {'wall s':>7} {'CPU s':>7} {'events':>11} {'target':>7}  verdict")
    for name in METHODS.names():
        method = METHODS.get(name)
        walls, cpus, events = [], [], 0
        for _ in range(reps):
            wall, cpu = time.perf_counter(), time.process_time()
            result = run_method(name, {"n": 20, "k": 3, "seed": 0})
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
            events = int(result.counts.get("events", 0))
        wall_s, cpu_s, target = statistics.median(walls), statistics.median(cpus), TARGET_S[method.kind]
        verdict = "ok" if cpu_s <= target else "OVER"  # CPU: the wall clock of a shared machine is noise
        print(
            f"   {name:<16} {method.kind:<9} {wall_s:7.3f} {cpu_s:7.3f} {events:11,} {target:7.1f}  {verdict}"
            f"{'' if result.ok else '  (did not solve: ' + (result.failure or '')[:60] + ')'}"
        )


def bytedmd_matmul(reps: int) -> None:
    print(
        "\n2. ByteDMD of the naive i-j-k matmul (median CPU s; tracer "
        f"{'compiled' if TRACER_COMPILED else 'pure: the compiled tracer is not built'}, depth pass "
        f"{'compiled' if COMPILED else 'by array operations: the compiled pass is not built'})"
    )
    ref = reference_code.bytedmd_tracer()
    for n in (16, 32):
        A = [[1.0] * n for _ in range(n)]
        B = [[1.0] * n for _ in range(n)]
        trace, _, kept = call_traced(matmul, (A, B))
        contenders = {
            "untraced": lambda A=A, B=B: matmul(A, B),
            "bytedmd": lambda A=A, B=B: bytedmd(matmul, (A, B)),
            "trace": lambda A=A, B=B: call_traced(matmul, (A, B)),
            "trace, pure": lambda A=A, B=B: call_traced(matmul, (A, B), tracked_pure.ElementTrace()),
            "depth pass": lambda trace=trace, kept=kept: depths_of(trace, kept),
            "depth pass, array ops": lambda trace=trace, kept=kept: bytedmd_depths_offline(
                *trace.columns(), np.asarray(kept, dtype=np.int64)
            ),
        }
        if n == 16:
            contenders["list-scan"] = lambda A=A, B=B: list_scan_bytedmd(matmul, (A, B))
            assert bytedmd(matmul, (A, B)) == list_scan_bytedmd(matmul, (A, B))
            if ref is not None:
                contenders["reference"] = lambda A=A, B=B: ref.traced_eval(matmul, (A, B))
                assert bytedmd(matmul, (A, B)) == ref.trace_to_bytedmd(ref.traced_eval(matmul, (A, B))[0], 1)
        t = interleaved_medians(contenders, 3 if n == 32 else reps, clock=time.process_time)
        line = "  ".join(f"{name} {v:.4f}" for name, v in t.items())
        shares = f"trace {t['trace'] / t['untraced']:.0f}x + depth pass {t['depth pass'] / t['untraced']:.0f}x"
        print(f"   {n}x{n}: {line}  bytedmd/untraced {t['bytedmd'] / t['untraced']:.0f}x ({shares})", end="")
        print(f"  reference/bytedmd {t['reference'] / t['bytedmd']:.1f}x" if "reference" in t else "")


def trace_memory(reps: int) -> None:
    print("\n3. memory of a 10,000,000-event trace")
    n_events = 10_000_000
    tracemalloc.start()
    log = EventLog()
    rng = np.random.RandomState(0)
    buffers = rng.randint(1, 1000, size=n_events // 2).tolist()
    tracemalloc.reset_peak()
    base_current, _ = tracemalloc.get_traced_memory()
    start = time.perf_counter()
    for b in buffers:
        log.write(b, 64)
        log.read(b, 64)
    record_s = time.perf_counter() - start
    current, peak = tracemalloc.get_traced_memory()
    print(
        f"   trace held: {(current - base_current) / 2**20:.0f} MiB (peak while recording "
        f"{(peak - base_current) / 2**20:.0f} MiB), {len(log):,} events, recorded in {record_s:.1f} s "
        f"({record_s / len(log) * 1e9:.0f} ns/event)"
    )
    tracemalloc.reset_peak()
    start = time.perf_counter()
    clock_metrics(*log.arrays())
    _, peak = tracemalloc.get_traced_memory()
    print(
        f"   metrics: {time.perf_counter() - start:.1f} s, peak {(peak - base_current) / 2**20:.0f} MiB "
        f"(trace + temporaries)"
    )
    tracemalloc.stop()
    per_object = sys.getsizeof(("W", 123, 64)) + 2 * 28
    print(
        f"   baseline (a Python tuple per event, as the reference trackers keep): ≈ "
        f"{per_object * n_events / 2**20:.0f} MiB"
    )


SECTIONS = {"1": methods_traced, "2": bytedmd_matmul, "3": trace_memory, "4": overhead}


def main() -> None:
    quick = "--quick" in sys.argv
    reps = 3 if quick else 5
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else ""
    print(machine_line())
    print(load_line())
    for key, section in SECTIONS.items():
        if not only or only == key:
            section(1 if quick and key == "1" else reps)  # section 1 once per method in --quick: ~20 s of CPU


if __name__ == "__main__":
    main()
