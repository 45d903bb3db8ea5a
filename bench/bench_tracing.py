"""Speed and memory of tracing and metrics (issue 3). Prints medians, ratios against baselines run in this process,
and the machine. Run: ``PYTHONPATH=. python bench/bench_tracing.py`` (add ``--quick`` for fewer repeats).

1. every built-in method at n=20, k=3, fully traced with all metrics (target < 1 s wall each);
2. ByteDMD of the naive i-j-k matmul, 16×16 (target ≤ 70 ms) and 32×32 (≤ 1 s), against a list-scan LRU stack
   written here as the baseline (the quadratic approach of the reference tracer);
3. memory of a 10-million-event trace (target < 500 MB), by tracemalloc, with the peak while computing metrics.
"""

from __future__ import annotations

import sys
import time
import tracemalloc

import numpy as np
from measure import machine_line, median_s

from engine.methods import METHODS, run_method
from engine.metrics.bytedmd import bytedmd, read_costs
from engine.metrics.clock import clock_metrics
from engine.tracing import EventLog
from engine.tracing.tracked_scalar import call_traced


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
    kind, key, op = list(trace.kind), list(trace.key), list(trace.op)
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


def main() -> None:
    quick = "--quick" in sys.argv
    reps = 3 if quick else 5
    print(machine_line())
    print("\n1. methods at n=20, k=3, fully traced with all metrics (median wall, s; target < 1 s)")
    for name in METHODS.names():
        t = median_s(lambda name=name: run_method(name, {"n": 20, "k": 3, "seed": 0}), reps)
        print(f"   {name:<13} {t:8.3f}  {'ok' if t < 1 else 'OVER'}")

    from bot.commands.base import Invocation
    from bot.commands.run import run

    inv = Invocation(command="run", args=["local_update"], options={"n": "20"})
    t = median_s(lambda: run(None, inv), reps)  # type: ignore[arg-type]
    print(f"   'sutro run local_update n=20' command (local_update + sgd for the comparison): {t:.3f}")

    print("\n2. ByteDMD of the naive i-j-k matmul (median, s)")
    for n, target in ((16, 0.070), (32, 1.0)):
        A = [[1.0] * n for _ in range(n)]
        B = [[1.0] * n for _ in range(n)]
        ours = median_s(lambda A=A, B=B: bytedmd(matmul, (A, B)), reps)
        base_reps = 1 if n == 32 else reps
        base = median_s(lambda A=A, B=B: list_scan_bytedmd(matmul, (A, B)), base_reps)
        assert bytedmd(matmul, (A, B)) == list_scan_bytedmd(matmul, (A, B))
        print(
            f"   {n}x{n}: ours {ours:.4f}  list-scan baseline {base:.4f}  ratio {base / ours:.1f}x  "
            f"target {target}  {'ok' if ours <= target else 'OVER'}"
        )

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


if __name__ == "__main__":
    main()
