"""The judge's own cost per submission (issue 29, point 3): parent CPU and peak RSS of a whole judgement (3 hidden
instances), for an honest full brute force beside each attack, in one run; and the honest brute-force solve()
before/after a change (``--base`` names a checkout of the code before it).

Each case runs in a fresh Python process (``--case``), so its peak RSS (``ru_maxrss``), the growth of its
address space during the judgement (``VmPeak`` less ``VmSize`` at the start: what the judge's own limit counts) and CPU
(``RUSAGE_SELF``: the judge, its element trace and the watchdog loop; never the sandboxed child, which has its own
process and limits) are its own. Every instance is the worst case for the brute force (secret [17, 18, 19]: all
1,140 combinations tried), drawn from fixed seeds, so every case sees the same data. Cases:

- ``honest brute force`` (tests/engine/sandbox/submissions/brute_force_solve.py), ``honest gf2``;
- the attacks of ``bench/judge_attacks/`` and ``tests/bot/attacks/``: ``np.empty`` reads, ``pow``/shift/multiply
  exhaustion of the element shadow, as many requests as the run allows, the largest sorts the budget allows, the
  largest tracked arrays.

Run: PYTHONPATH=$PWD python bench/bench_judge_bounds.py [--repeat N] [--base DIR [--honest-only]]
(a base checkout needs the two compiled extensions copied in: engine/tracing/*.so, engine/metrics/*.so)
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
    solve_cpu_s: list[float] = []
    launched = judge.run_submission

    def run(*args: Any, **kwargs: Any) -> Any:
        out = launched(*args, **kwargs)
        if out.final and "solve_s" in out.final:
            solve_s.append(float(out.final["solve_s"]))
            solve_cpu_s.append(float(out.final.get("solve_cpu_s", float("nan"))))
        return out

    judge.run_submission = run  # type: ignore[assignment]
    code = path.read_text()
    vm_start = _status_mib("VmSize")
    before = resource.getrusage(resource.RUSAGE_SELF)
    start = time.monotonic()
    result = judge.judge_solve(code)
    after = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "cpu_s": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
        "rss_mib": after.ru_maxrss / 1024,
        "vm_growth_mib": _status_mib("VmPeak") - vm_start,
        "wall_s": time.monotonic() - start,
        "solve_s": sum(solve_s),
        "solve_cpu_s": sum(solve_cpu_s),
        "ok": result.ok,
        "failure": result.failure,
        "bytedmd": result.metrics.get("bytedmd@2"),
    }


def _status_mib(key: str) -> float:
    """A ``/proc/self/status`` size in MiB (``VmSize``: the address space now; ``VmPeak``: its peak so far): what
    the judge's address-space limit (``Limits.judge_memory_bytes``, engine/sandbox/judge_memory.py) counts."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


def run_case(name: str, tree: Path) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": f"{tree}{os.pathsep}{REPO / 'bench'}"}
    cmd = [sys.executable, str(Path(__file__).resolve()), "--case", str(CASES[name])]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tree, timeout=600, check=False)
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    if not lines:
        return {"cpu_s": float("nan"), "rss_mib": float("nan"), "failure": out.stderr.strip()[-200:], "ok": False}
    return dict(json.loads(lines[-1]))


def _line(runs: list[dict[str, Any]]) -> str:
    def median(key: str) -> float:
        return statistics.median(r.get(key, float("nan")) for r in runs)

    verdict = "ok" if runs[0]["ok"] else f"failed: {str(runs[0]['failure'])[:90]}"
    return (
        f"parent CPU {median('cpu_s'):6.2f} s  peak RSS {median('rss_mib'):6.0f} MiB"
        f"  address space +{median('vm_growth_mib'):4.0f} MiB"
        f"  solve() {median('solve_s'):6.2f} s"
        f" (child CPU {median('solve_cpu_s'):5.2f} s)  {verdict}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", help=argparse.SUPPRESS)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--base", type=Path, help="a checkout of the code before the change (honest cases only)")
    parser.add_argument("--honest-only", action="store_true", help="only the honest cases before/after")
    args = parser.parse_args()
    if args.case:
        print(json.dumps(one_case(Path(args.case))))
        return
    print(machine_line())
    print(f"{load_line()} (start)")
    trees = {"after": REPO, **({"before": args.base.resolve()} if args.base else {})}
    if args.base:  # the honest cases before/after, interleaved round by round (the load drifts)
        print(f"\nhonest cases, before ({args.base}) and after, interleaved: medians of {args.repeat}")
        for name in ("honest brute force", "honest gf2"):
            runs: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
            for _ in range(args.repeat):
                for label in ("before", "after"):
                    runs[label].append(run_case(name, trees[label]))
            for label, got in runs.items():
                print(f"  {label:6s} {name:20s} {_line(got)}")
    print(f"\nevery case after the change: medians of {args.repeat}, 3 instances per judgement")
    for name in CASES if not args.honest_only else ():
        print(f"  {name:20s} {_line([run_case(name, REPO) for _ in range(args.repeat)])}")
    print(f"{load_line()} (end)")


if __name__ == "__main__":
    main()
