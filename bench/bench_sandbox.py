"""Sandbox speed and the parent's budgets (issues 5 and 19).

1. Start-up: a sandboxed generate() against a bare ``python -I -c 'import numpy'`` child (target ≤ 150 ms).
2. Honest submissions (the test suite's gf2 and brute-force solve()) on one fixed instance: dmc@1 and wall time,
   with this checkout and with an older ``engine/`` tree — ``--baseline DIR``, or ``--baseline-commit REV``
   extracted here into a temporary directory with ``git archive`` (nothing old is kept in the tree) — both as fresh
   subprocesses, interleaved, in the same run. The pre-hardening engine is the one before issue 19's merge:
   ``--baseline-commit a1bd7c0^1``. Target: the same score unless the clock semantics changed on purpose, and
   ≤ 10 % slower (wall and parent CPU, medians, printed as ratios this/baseline).
3. Attacks on the parent (the trusted side of one submission; the element trace behind ``bytedmd@2`` too): for
   each, the growth of this process's peak RSS
   (VmHWM, reset per attack through /proc/self/clear_refs) and its CPU seconds. Budget: ≤ 256 MiB and ≤ 2 s
   beyond the child's own limits.

Run: PYTHONPATH=$PWD python bench/bench_sandbox.py [--baseline DIR | --baseline-commit REV] [--repeat N]
[--honest-only]   (about 60 s on 2 cores; --honest-only with a baseline about 40 s)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from measure import machine_line, median_s

from engine.sandbox import judge_solve, probe_tier, run_generate
from engine.sandbox.lint import SubmissionRefused, detect_kind

REPO = Path(__file__).resolve().parents[1]
SUBMISSIONS = REPO / "tests" / "engine" / "sandbox" / "submissions"
GENERATE_NUMPY = "import numpy as np\ndef generate():\n    return '1,2;mul 3,1,2;3'\n"
RSS_BUDGET_MIB, CPU_BUDGET_S = 256, 2.0

# One fixed instance for both checkouts: the judge's fresh-secret draw replaced by a seeded one.
_HONEST = """
import json, sys, time
import numpy as np
from engine.sandbox import judge as j
def fixed(n_bits, k_sparse, n_train, n_test, seed=None):
    rng = np.random.default_rng(20261123)
    secret = sorted(rng.choice(n_bits, k_sparse, replace=False).tolist())
    x = rng.choice(np.array([-1, 1], dtype=np.int64), size=(n_train + n_test, n_bits))
    y = np.prod(x[:, secret], axis=1)
    return {"secret": secret, "x_train": x[:n_train], "y_train": y[:n_train], "x_test": x[n_train:],
            "y_test": y[n_train:]}
j.hidden_instance = fixed
code = sys.stdin.read()
start, cpu = time.perf_counter(), time.process_time()
result = j.judge_solve(code, instances=1)
print(json.dumps({"ok": result.ok, "dmc": result.metrics.get("dmc@1"), "bytedmd": result.metrics.get("bytedmd@2"),
                  "s": time.perf_counter() - start,
                  "cpu": time.process_time() - cpu, "ops": result.counts["numpy_ops"]}))
"""


def _honest_run(root: Path, code: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(root))
    out = subprocess.run(
        [sys.executable, "-c", _HONEST], input=code, capture_output=True, text=True, env=env, cwd=root, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def honest(roots: dict[str, Path], repeat: int) -> None:
    for name in ("brute_force_solve", "gf2_solve"):
        code = (SUBMISSIONS / f"{name}.py").read_text()
        runs: dict[str, list[dict]] = {label: [] for label in roots}
        for _ in range(repeat):  # interleaved, so that a load change on the machine hits both alike
            for label, root in roots.items():
                runs[label].append(_honest_run(root, code))
        seen = {
            label: (
                got[0]["dmc"],
                statistics.median(r["s"] for r in got),
                statistics.median(r["cpu"] for r in got) / got[0]["ops"] * 1e6,
                all(r["ok"] for r in got),
                statistics.median(r["cpu"] for r in got),
                got[0].get("bytedmd"),
            )
            for label, got in runs.items()
        }
        line = ", ".join(
            f"{label}: ok={ok} dmc@1={dmc:,.0f} bytedmd@2={'-' if b is None else f'{b:,.0f}'} median {s:.3f} s, "
            f"parent {cpu:.3f} s CPU ({us:.0f} us per request)"
            for label, (dmc, s, us, ok, cpu, b) in seen.items()
        )
        if "baseline" in seen:
            (d0, s0, u0, *_), (d1, s1, u1, *_) = seen["baseline"], seen["this"]
            line += f"; score x{d1 / d0:.4f}, wall x{s1 / s0:.3f} ({100 * (s1 / s0 - 1):+.1f} %)"
            line += f", parent CPU per request x{u1 / u0:.3f} ({100 * (u1 / u0 - 1):+.1f} %)"
        print(f"honest {name} (1 instance): {line}")


def _solve(body: str) -> str:
    lines = "\n".join("    " + ln for ln in body.splitlines())
    return f"import numpy as np\ndef solve(x, y, n_bits, k_sparse):\n{lines}\n    return []\n"


ATTACKS: dict[str, Callable[[], object]] = {
    "outer-product matmul": lambda: judge_solve(_solve("a = np.ones((40000, 1))\nc = a @ a.T"), instances=1),
    "broadcast via np.maximum": lambda: judge_solve(
        _solve("c = np.maximum(np.ones((20000, 1)), np.ones((1, 20000)))"), instances=1
    ),
    "batched matmul": lambda: judge_solve(
        _solve("c = np.matmul(np.ones((2000, 1, 40, 1)), np.ones((1, 2000, 1, 40)))"), instances=1
    ),
    "broadcast fancy index": lambda: judge_solve(
        _solve("t = np.zeros((200, 200))\nr = (np.arange(20000) % 200).reshape(-1, 1)\nv = t[r, r.T]"), instances=1
    ),
    "positional random size": lambda: judge_solve(_solve("v = np.random.normal(0, 1, 10**10)"), instances=1),
    "parent CPU burner (sorts)": lambda: judge_solve(
        _solve("a = np.random.random(1000000)\nwhile True:\n    b = np.sort(a)\n    del b"), instances=3
    ),
    "element-trace burner (small tracked ops)": lambda: judge_solve(
        _solve("while True:\n    b = (x * x).sum(axis=0)"), instances=3
    ),
    "element-trace burner (tracked sorts)": lambda: judge_solve(
        _solve("a = np.tile(x, (50, 1)).ravel()\nwhile True:\n    b = np.sort(a)"), instances=3
    ),
    "element-trace memory (3.6 M tracked elements)": lambda: judge_solve(
        _solve("a = np.tile(x, (900, 1))\nb = a + 1\nc = b * 2"), instances=1
    ),
    "unread replies": lambda: judge_solve(
        "import os\ndef solve(x, y, n_bits, k_sparse):\n    for fd in range(3, 64):\n        try:\n"
        "            for _ in range(20000):\n"
        '                os.write(fd, b\'{"op":"meth","t":0,"a":["tolist"]}\\n\')\n'
        "        except OSError:\n            pass\n    return []\n",
        instances=1,
        check_imports=False,
    ),
    "2 MB source": lambda: _refused(lambda: judge_solve("def solve(x, y, n_bits, k_sparse):\n" + "#\n" * 10**6)),
    "240 KiB chain to parse": lambda: _refused(
        lambda: detect_kind("def solve(x, y, n_bits, k_sparse):\n    return [" + "+".join(["1"] * 120_000) + "]\n")
    ),
}


def _refused(call: Callable[[], object]) -> object:
    try:
        return call()
    except SubmissionRefused as exc:
        return exc.one_line()


def _status_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def attacks() -> None:
    worst_rss = worst_cpu = 0.0
    for name, attack in ATTACKS.items():
        Path("/proc/self/clear_refs").write_text("5")
        rss0, cpu0, wall0 = _status_kib("VmRSS"), time.process_time(), time.perf_counter()
        outcome = attack()
        growth = (_status_kib("VmHWM") - rss0) / 1024
        cpu = time.process_time() - cpu0
        worst_rss, worst_cpu = max(worst_rss, growth), max(worst_cpu, cpu)
        verdict = getattr(outcome, "failure", outcome)
        print(
            f"attack {name}: parent peak RSS +{growth:.1f} MiB, CPU {cpu:.2f} s, wall {time.perf_counter() - wall0:.1f}"
            f" s -> {str(verdict)[:90]}"
        )
    ok = worst_rss <= RSS_BUDGET_MIB and worst_cpu <= CPU_BUDGET_S
    print(
        f"parent budget (<= {RSS_BUDGET_MIB} MiB, <= {CPU_BUDGET_S:g} s per submission): worst +{worst_rss:.1f} MiB, "
        f"{worst_cpu:.2f} s CPU -> {'met' if ok else 'NOT MET'}"
    )


def _extract(commit: str) -> Path:
    """``engine/`` of ``commit`` in a fresh temporary directory (removed when this process exits)."""
    import atexit
    import shutil
    import tempfile

    root = Path(tempfile.mkdtemp(prefix="sutro-bench-baseline-"))
    atexit.register(shutil.rmtree, root, True)
    archive = subprocess.run(["git", "archive", commit, "engine"], cwd=REPO, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(root)], input=archive.stdout, check=True)
    return root


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline", type=Path, help="an older checkout's root (holding engine/) to compare with")
    parser.add_argument("--baseline-commit", help="a commit whose engine/ is extracted to compare with")
    parser.add_argument("--honest-only", action="store_true", help="skip start-up and the attacks")
    args = parser.parse_args()
    if args.baseline_commit:
        args.baseline = _extract(args.baseline_commit)
    tier = probe_tier()
    print(machine_line())
    print(tier.description)
    roots = {"this": REPO}
    if args.baseline:
        roots = {"baseline": args.baseline.resolve(), "this": REPO}
    if args.honest_only:
        honest(roots, args.repeat)
        return
    bare = median_s(lambda: subprocess.run([sys.executable, "-I", "-c", "import numpy"], check=True), args.repeat)
    start = median_s(lambda: run_generate(GENERATE_NUMPY), args.repeat)
    print(f"start-up: bare child {bare * 1000:.1f} ms, sandboxed generate() with numpy {start * 1000:.1f} ms")
    honest(roots, args.repeat)
    attacks()


if __name__ == "__main__":
    main()
