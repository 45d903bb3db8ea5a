"""The judge's own cost per submission (issue 29, point 3): parent CPU and peak RSS of a whole judgement (3 hidden
instances), for an honest full brute force beside each attack, in one run; and the honest brute-force solve()
before/after a change (``--base`` names a checkout of the code before it).

Each case runs in a fresh Python process (``--case``), so its peak RSS (``ru_maxrss``) and CPU
(``RUSAGE_SELF``: the judge, its element trace and the watchdog loop; never the sandboxed child, which has its own
process and limits) are its own. Every instance is the worst case for the brute force (secret [17, 18, 19]: all
1,140 combinations tried), drawn from fixed seeds, so every case sees the same data. Cases:

- ``honest brute force`` (tests/engine/sandbox/submissions/brute_force_solve.py), ``honest gf2``;
- the attacks of ``bench/judge_attacks/`` and ``tests/bot/attacks/``: ``np.empty`` reads, ``pow``/shift/multiply
  exhaustion of the element shadow, as many requests as the run allows, the largest sorts the budget allows, the
  largest tracked arrays.

Run: PYTHONPATH=$PWD python bench/bench_judge_bounds.py [--repeat N] [--base DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from measure import load_line, machine_line

REPO = Path(__file__).resolve().parents[1]
HONEST = REPO / "tests" / "engine" / "sandbox" / "submissions"
ATTACKS = REPO / "bench" / "judge_attacks"
CASES = {
    "honest brute force": HONEST / "brute_force_solve.py",
    "honest gf2": HONEST / "gf2_solve.py",
    "np.empty reads": REPO / "tests" / "bot" / "attacks" / "empty_reads_the_judge.py",
    "pow exhaustion": ATTACKS / "pow_exhaustion.py",
    "shift exhaustion": ATTACKS / "shift_exhaustion.py",
    "multiply chain": ATTACKS / "multiply_chain.py",
    "many requests": ATTACKS / "many_requests.py",
    "largest sorts": ATTACKS / "largest_sort.py",
    "tracked memory": ATTACKS / "tracked_memory.py",
}
N_BITS, K, N_TRAIN, N_TEST = 20, 3, 200, 1000


def worst_case(seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    x = rng.choice(np.array([-1, 1], dtype=np.int64), size=(N_TRAIN + N_TEST, N_BITS))
    y = np.prod(x[:, [17, 18, 19]], axis=1)
    return {"secret": [17, 18, 19], "x_train": x[:N_TRAIN], "y_train": y[:N_TRAIN], "x_test": x[N_TRAIN:],
            "y_test": y[N_TRAIN:]}  # fmt: skip


def one_case(path: Path) -> dict[str, Any]:
    """Judge ``path`` on 3 worst-case instances in this process; its CPU, peak RSS and the child's solve() time."""
    from engine.sandbox import judge

    seeds = iter([20261128, 20261129, 20261130])
    judge.hidden_instance = lambda *a, **k: worst_case(next(seeds))  # type: ignore[assignment]
    solve_s: list[float] = []
    launched = judge.run_submission

    def run(*args: Any, **kwargs: Any) -> Any:
        out = launched(*args, **kwargs)
        if out.final and "solve_s" in out.final:
            solve_s.append(float(out.final["solve_s"]))
        return out

    judge.run_submission = run  # type: ignore[assignment]
    code = path.read_text()
    before = resource.getrusage(resource.RUSAGE_SELF)
    start = time.monotonic()
    result = judge.judge_solve(code)
    after = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "cpu_s": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
        "rss_mib": after.ru_maxrss / 1024,
        "wall_s": time.monotonic() - start,
        "solve_s": sum(solve_s),
        "ok": result.ok,
        "failure": result.failure,
        "bytedmd": result.metrics.get("bytedmd@2"),
    }


def run_case(name: str, tree: Path) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": f"{tree}{os.pathsep}{REPO / 'bench'}"}
    cmd = [sys.executable, str(Path(__file__).resolve()), "--case", str(CASES[name])]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tree, timeout=600, check=False)
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    if not lines:
        return {"cpu_s": float("nan"), "rss_mib": float("nan"), "failure": out.stderr.strip()[-200:], "ok": False}
    return dict(json.loads(lines[-1]))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", help=argparse.SUPPRESS)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--base", type=Path, help="a checkout of the code before the change (honest cases only)")
    args = parser.parse_args()
    if args.case:
        print(json.dumps(one_case(Path(args.case))))
        return
    print(machine_line())
    print(f"{load_line()} (start)")
    trees = {"after": REPO, **({"before": args.base.resolve()} if args.base else {})}
    for label, tree in trees.items():
        names = list(CASES) if label == "after" else ["honest brute force", "honest gf2"]
        print(f"\n{label} ({tree}): medians of {args.repeat}, 3 instances per judgement")
        for name in names:
            runs = [run_case(name, tree) for _ in range(args.repeat)]
            cpu = statistics.median(r["cpu_s"] for r in runs)
            rss = statistics.median(r["rss_mib"] for r in runs)
            solve = statistics.median(r.get("solve_s", float("nan")) for r in runs)
            verdict = "ok" if runs[0]["ok"] else f"failed: {str(runs[0]['failure'])[:90]}"
            print(f"  {name:20s} parent CPU {cpu:6.2f} s  peak RSS {rss:6.0f} MiB  solve() {solve:6.2f} s  {verdict}")
    print(f"{load_line()} (end)")


if __name__ == "__main__":
    main()
