"""Issue 29 point 2, before and after in one run: what the pricing attacks score, and what honest brute force costs.

Two source trees are compared — ``--before`` (a checkout of the code before the change, with its own venv, e.g.
a ``git worktree`` of main) and this one — each judged in its own fresh Python process (its own import of
``engine``, so the two never mix), one process per submission and round, rounds interleaved so a change of the
machine's load hits both alike. Every submission is judged on the same fixed instance (n=20, k=3, 200 training
rows, secret [17, 18, 19]: brute force tries all 1,140 subsets), through ``engine.sandbox.judge_solve`` as the bot
does.

Printed per tree: honest brute force's sandboxed solve() time (the child's own measure, medians), the parent's CPU
for the judgement and the process's peak RSS; then each attack of the issue (``Why`` 2 and 3) beside the honest
twin: accuracy, ``bytedmd@2`` and ``dmc@1``.

Run: PYTHONPATH=$PWD python bench/bench_pricing.py --before /path/to/main [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from measure import load_line, machine_line

HERE = Path(__file__).resolve().parents[1]
BRUTE = (HERE / "tests" / "engine" / "sandbox" / "submissions" / "brute_force_solve.py").read_text()
_LOOP = """
    for combo in combinations(range(n_bits), k_sparse):
        if (np.prod(xc[:, list(combo)], axis=1) == yc).all():
            return list(combo)
    return []
"""
_HEAD = "from itertools import combinations\nimport numpy as np\ndef solve(x, y, n_bits, k_sparse):\n"
ATTACKS = {
    "honest brute force": BRUTE,
    "np.random.normal(x, 0.0) copy": _HEAD
    + "    xc = np.random.normal(x, 0.0)\n    yc = np.random.normal(y, 0.0)"
    + _LOOP,
    "permutation of a stacked copy": _HEAD
    + "    xc = np.random.permutation(np.stack([x, x]))[0]\n    yc = np.random.permutation(np.stack([y, y]))[0]"
    + _LOOP,
    "astype(np.int8)": _HEAD + "    xc = x.astype(np.int8)\n    yc = y.astype(np.int8)" + _LOOP,
    "copy into np.zeros": _HEAD
    + "    xc = np.zeros(x.shape, dtype=np.int64)\n    xc[:, :] = x\n    yc = np.zeros(y.shape, dtype=np.int64)\n"
    + "    yc[:] = y"
    + _LOOP,
    "np.array(x, dtype=float64)": _HEAD
    + "    xc = np.array(x, dtype=np.float64)\n    yc = np.array(y, dtype=np.float64)"
    + _LOOP,
    ".tolist() then Python": _HEAD
    + """    rows, ys = x.tolist(), y.tolist()
    for combo in combinations(range(n_bits), k_sparse):
        if all(r[combo[0]] * r[combo[1]] * r[combo[2]] == v for r, v in zip(rows, ys)):
            return list(combo)
    return []
""",
}

CHILD = """
import json, resource, sys, time
import numpy as np
from engine.sandbox import judge
from engine.sandbox.limits import Limits
code, secret = sys.argv[1], [17, 18, 19]
rng = np.random.default_rng(20261123)
x = rng.choice(np.array([-1, 1], dtype=np.int64), size=(1200, 20))
y = np.prod(x[:, secret], axis=1)
inst = {"secret": secret, "x_train": x[:200], "y_train": y[:200], "x_test": x[200:], "y_test": y[200:]}
judge.hidden_instance = lambda *a, **k: inst
seen = []
run = judge.run_submission
def capture(*a, **k):
    out = run(*a, **k)
    seen.append(out.final or {})
    return out
judge.run_submission = capture
cpu = time.process_time()
result = judge.judge_solve(code, instances=1, limits=Limits(cpu_s=60, wall_s=120))
cpu = time.process_time() - cpu
print(json.dumps({"ok": result.ok, "failure": result.failure, "accuracy": result.accuracy,
                  "metrics": result.metrics, "solve_s": seen[-1].get("solve_s") if seen else None,
                  "parent_cpu_s": cpu, "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def judged(tree: Path, code: str) -> dict[str, Any]:
    """One judgement of ``code`` by the engine in ``tree`` (its own venv's Python), in a fresh process."""
    python = tree / ".venv" / "bin" / "python"
    out = subprocess.run(
        [str(python), "-c", CHILD, code],
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", type=Path, required=True, help="checkout of the code before (with .venv)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    trees = {"before": args.before.resolve(), "after": HERE}
    print(machine_line())
    print(f"{load_line()} (start)")
    honest: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    for tree in trees.values():  # warm-up
        judged(tree, BRUTE)
    for _ in range(args.repeat):
        for name, tree in trees.items():
            honest[name].append(judged(tree, BRUTE))
    print("\nhonest brute force, medians of", args.repeat)
    for name, runs in honest.items():
        solve = statistics.median(r["solve_s"] for r in runs)
        cpu = statistics.median(r["parent_cpu_s"] for r in runs)
        rss = statistics.median(r["peak_rss_mib"] for r in runs)
        print(f"  {name:7s} solve() {solve * 1000:7.0f} ms   parent CPU {cpu * 1000:6.0f} ms   peak RSS {rss:6.1f} MiB")
    ratio = statistics.median(r["solve_s"] for r in honest["after"]) / statistics.median(
        r["solve_s"] for r in honest["before"]
    )
    print(f"  after / before: {ratio:.2f}x")
    print("\nattacks (one judgement each)")
    for label, code in ATTACKS.items():
        for name, tree in trees.items():
            r = judged(tree, code)
            m = r["metrics"]
            print(
                f"  {label:30s} {name:6s} accuracy {r['accuracy']}  bytedmd@2 {m.get('bytedmd@2', math.nan):>13,.0f}"
                f"  dmc@1 {m.get('dmc@1', math.nan):>15,.0f}  parent CPU {r['parent_cpu_s']:.2f} s"
                f"  RSS {r['peak_rss_mib']:.0f} MiB{'' if r['ok'] else '  FAILED: ' + str(r['failure'])}"
            )
    print(f"{load_line()} (end)")


if __name__ == "__main__":
    sys.exit(main())
