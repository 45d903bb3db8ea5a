"""Remote arrays against plain numpy (issue 21, point 4): brute-force solve() at n=20, k=3.

For each instance (the worst-case secret [17, 18, 19]: all 1,140 combinations tried; and a random secret drawn from
a fixed seed) the same solve() (tests/engine/sandbox/submissions/brute_force_solve.py) runs
- directly on plain numpy in this process (``direct``), and
- judged in the sandbox (``judge_solve``, one instance) with pipelining on or forced off, and the element trace
  behind ``bytedmd@2`` on (what members get) or stopped (``Session(element_trace=False)``): the parent's cost
  without it.
The sandboxed time is solve() itself as the child measures it, from its call to its return (``solve_s`` in the
child's result message: no sandbox start-up); beside it the child's CPU in solve() and the parent's CPU for the
whole judgement (this process; its start-up share is ~2 ms). Rounds are interleaved, medians printed, with the
load. Target: sandboxed solve() ≤ 10× direct.

Run: PYTHONPATH=$PWD python bench/bench_remote_arrays.py [--repeat N] [--quick]   (--quick: about 40 s)
"""

from __future__ import annotations

import argparse
import functools
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
from measure import load_line, machine_line

from engine.sandbox import judge
from engine.sandbox.remote.session import Session

REPO = Path(__file__).resolve().parents[1]
CODE = (REPO / "tests" / "engine" / "sandbox" / "submissions" / "brute_force_solve.py").read_text()
N_BITS, K, N_TRAIN, N_TEST = 20, 3, 200, 1000


def instance(secret: list[int], seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    x = rng.choice(np.array([-1, 1], dtype=np.int64), size=(N_TRAIN + N_TEST, N_BITS))
    y = np.prod(x[:, secret], axis=1)
    return {"secret": secret, "x_train": x[:N_TRAIN], "y_train": y[:N_TRAIN], "x_test": x[N_TRAIN:],
            "y_test": y[N_TRAIN:]}  # fmt: skip


@contextmanager
def judged_as(inst: dict[str, Any], *, pipeline: bool, element_trace: bool, seen: list[dict]) -> Iterator[None]:
    """judge_solve on ``inst`` (instead of a fresh hidden instance), with these settings; the child's final
    messages go to ``seen``. Restores the judge afterwards."""
    saved = judge.hidden_instance, judge.run_submission, judge.Session

    def run(config: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        out = saved[1](dict(config, pipeline=pipeline), *args, **kwargs)
        seen.append(out.final or {})
        return out

    judge.hidden_instance = lambda *a, **k: inst  # type: ignore[assignment]
    judge.run_submission = run  # type: ignore[assignment]
    judge.Session = functools.partial(Session, element_trace=element_trace)  # type: ignore[assignment,misc]
    try:
        yield
    finally:
        judge.hidden_instance, judge.run_submission, judge.Session = saved  # type: ignore[misc]


def sandboxed(inst: dict[str, Any], *, pipeline: bool, element_trace: bool) -> dict[str, float]:
    seen: list[dict] = []
    with judged_as(inst, pipeline=pipeline, element_trace=element_trace, seen=seen):
        cpu = time.process_time()
        result = judge.judge_solve(CODE, instances=1)
        cpu = time.process_time() - cpu
    assert result.ok and result.failure is None, result.failure
    return {"solve": float(seen[-1]["solve_s"]), "child_cpu": float(seen[-1]["solve_cpu_s"]), "parent_cpu": cpu,
            "dmc": result.metrics["dmc@1"], "ops": result.counts["numpy_ops"]}  # fmt: skip


def direct(inst: dict[str, Any]) -> dict[str, float]:
    names: dict[str, Any] = {}
    exec(compile(CODE, "brute_force_solve", "exec"), names)
    start = time.perf_counter()
    answer = names["solve"](inst["x_train"], inst["y_train"], N_BITS, K)
    elapsed = time.perf_counter() - start
    assert answer == inst["secret"]
    return {"solve": elapsed}


CONFIGS: dict[str, Callable[[dict[str, Any]], dict[str, float]]] = {
    "direct numpy": direct,
    "pipelined, element trace on": functools.partial(sandboxed, pipeline=True, element_trace=True),
    "blocking,  element trace on": functools.partial(sandboxed, pipeline=False, element_trace=True),
    "pipelined, element trace off": functools.partial(sandboxed, pipeline=True, element_trace=False),
    "blocking,  element trace off": functools.partial(sandboxed, pipeline=False, element_trace=False),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="3 rounds")
    args = parser.parse_args()
    repeat = 3 if args.quick else args.repeat
    print(machine_line())
    print(f"{load_line()} (start)")
    rng = np.random.default_rng(2026_11_24)
    instances = {
        "secret [17, 18, 19] (worst case)": instance([17, 18, 19], 20261123),
        "random secret": instance(sorted(int(i) for i in rng.choice(N_BITS, K, replace=False)), 7),
    }
    for label, inst in instances.items():
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in CONFIGS}
        for fn in CONFIGS.values():  # warm-up round
            fn(inst)
        for _ in range(repeat):
            for name, fn in CONFIGS.items():
                runs[name].append(fn(inst))
        base = statistics.median(r["solve"] for r in runs["direct numpy"])
        print(f"\n{label}: secret {inst['secret']}, {runs['pipelined, element trace on'][0]['ops']:,} requests")
        for name, got in runs.items():
            solve = statistics.median(r["solve"] for r in got)
            line = f"  {name:30s} solve() {solve * 1000:8.1f} ms  {solve / base:6.1f}x direct"
            if "parent_cpu" in got[0]:
                cpu = statistics.median(r["parent_cpu"] for r in got)
                child = statistics.median(r["child_cpu"] for r in got)
                dmc = {r["dmc"] for r in got}
                line += f"   CPU: child {child * 1000:5.0f} ms in solve(), parent {cpu * 1000:5.0f} ms"
                line += f"   dmc@1 {sorted(dmc)[0]:,.0f}"
                line += "" if len(dmc) == 1 else " (VARIES)"
            print(line)
    print(f"{load_line()} (end)")


if __name__ == "__main__":
    main()
