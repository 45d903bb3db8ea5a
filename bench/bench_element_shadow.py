"""CPU of the solve() judge's element shadow (``bytedmd@2`` of remote arrays), compiled tracer against the pure one.
Run: ``PYTHONPATH=. python bench/bench_element_shadow.py`` (``--quick``: fewer repeats; under 60 s).

1. CPU per element of typical shadow steps on object arrays of tracked values, per implementation, counted the way
   ``element_shadow.estimate_s`` counts a step's elements: what ``ELEMENT_OP_S`` (the shadow's estimate, which must
   over-estimate) is checked against;
2. the brute-force solve() (tests/engine/sandbox/submissions/brute_force_solve.py) judged at n=20, k=3 on one fixed
   instance whose secret is the last combination tried, [17, 18, 19] (1,140 candidate subsets): the judge's CPU in
   its own process and the shadow's share of it, interleaved, compiled vs pure. The pure run blocks the import of
   the compiled tracer (as on an install without a C compiler); both must price the run the same.
"""

from __future__ import annotations

import os

from engine.blas_threads import ONE_BLAS_THREAD  # noqa: E402 - the engine package itself loads no numpy

for _variable, _value in ONE_BLAS_THREAD.items():
    os.environ.setdefault(_variable, _value)

import json  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from measure import load_line, machine_line  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SUBMISSION = ROOT / "tests" / "engine" / "sandbox" / "submissions" / "brute_force_solve.py"

_JUDGE = """
import json, sys, time
if sys.argv[1] == "pure":
    sys.modules["engine.tracing.tracked_kernel"] = None  # as if the extension were not built
import numpy as np
from engine.sandbox import judge as j
from engine.sandbox.remote import element_shadow as es
from engine.tracing.tracked_scalar import COMPILED
def fixed(n_bits, k_sparse, n_train, n_test, seed=None):
    rng = np.random.default_rng(20261124)
    secret = [17, 18, 19]
    x = rng.choice(np.array([-1, 1], dtype=np.int64), size=(n_train + n_test, n_bits))
    y = np.prod(x[:, secret], axis=1)
    return {"secret": secret, "x_train": x[:n_train], "y_train": y[:n_train], "x_test": x[n_train:],
            "y_test": y[n_train:]}
j.hidden_instance = fixed
shadows = []
_init = es.ElementShadow.__init__
def _keep(self, *args, **kwargs):
    _init(self, *args, **kwargs)
    shadows.append(self)
es.ElementShadow.__init__ = _keep  # to read the shadow's own CPU count (its ``spent``) after the run
code = sys.stdin.read()
cpu = time.process_time()
result = j.judge_solve(code, instances=1)
print(json.dumps({"ok": result.ok, "bytedmd": result.metrics.get("bytedmd@2"), "cpu": time.process_time() - cpu,
                  "shadow": shadows[0].spent[0], "compiled": COMPILED, "ops": result.counts["numpy_ops"]}))
"""


def judged(label: str) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", _JUDGE, label],
        input=SUBMISSION.read_text(),
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def judge_share(repeat: int) -> None:
    print(f"\n2. brute-force solve() judged, n=20 k=3, secret [17, 18, 19] (median of {repeat}, interleaved)")
    runs: dict[str, list[dict[str, Any]]] = {"compiled": [], "pure": []}
    for _ in range(repeat):
        for label in runs:
            runs[label].append(judged(label))
    for label, got in runs.items():
        cpu = statistics.median(r["cpu"] for r in got)
        shadow = statistics.median(r["shadow"] for r in got)
        print(
            f"   {label:<9} (compiled active: {got[0]['compiled']}) judge {cpu:.2f} s CPU, shadow {shadow:.2f} s "
            f"({100 * shadow / cpu:.0f} %), {got[0]['ops']:,} requests, bytedmd@2 {got[0]['bytedmd']:,.0f}, "
            f"ok={all(r['ok'] for r in got)}"
        )
    assert {r["bytedmd"] for rs in runs.values() for r in rs} == {runs["pure"][0]["bytedmd"]}, "prices differ"


_STEPS = """
import json, statistics, sys, time
if sys.argv[1] == "pure":
    sys.modules["engine.tracing.tracked_kernel"] = None  # as if the extension were not built
import numpy as np
from engine.sandbox.remote.element_shadow import ELEMENT_OP_S, ElementShadow, estimate_s
rng = np.random.default_rng(0)
x, f = rng.choice(np.array([-1, 1]), size=(200, 20)), rng.random((40, 40))
shadow = ElementShadow([x, f], [1, 2], 1e9, [0.0], [0.0])
xs, fs = shadow.shadow(1, x), shadow.shadow(2, f)
cols, y, ys = xs[:, [3, 7, 11]], x[:, 0].copy(), xs[:, 0].copy()
steps = {  # name: (step, operands, the real result, the request's name), as the session hands them to run()
    "multiply 200x20": (lambda: xs * xs, (xs, xs), x, "multiply"),
    "equal 200": (lambda: cols[:, 0] == ys, (cols[:, 0], ys), y, "equal"),
    "prod axis=1 200x3": (lambda: np.prod(cols, axis=1), (cols,), y, "prod"),
    "all 200": (lambda: ys.all(), (ys,), True, "all"),
    "sum 4000": (lambda: xs.sum(), (xs,), 0, "sum"),
    "abs 200x20": (lambda: abs(xs), (xs,), x, "absolute"),
    "matmul 40x40": (lambda: fs @ fs, (fs, fs), f, "matmul"),
    "sort 40x40": (lambda: np.sort(fs, axis=1), (fs,), f, "sort"),
    "exp 40x40 (fallback)": (lambda: np.exp(fs), (fs,), np.exp(f), "exp"),
    "take columns 200x3": (lambda: xs[:, [3, 7, 11]], (xs,), x[:, :3], "getitem"),
}
out = {}
for name, (step, operands, real, op) in steps.items():
    elements = estimate_s(operands, real, op) / ELEMENT_OP_S
    times = []
    for _ in range(int(sys.argv[2])):
        start = time.process_time()
        shadow.run(step, operands, real, op)
        times.append(time.process_time() - start)
    out[name] = statistics.median(times) / elements
print(json.dumps({"per_element": out, "element_op_s": ELEMENT_OP_S}))
"""


def per_element(repeat: int) -> None:
    print(
        f"\n1. CPU per element of shadow steps (ElementShadow.run), as estimate_s counts elements "
        f"(median of {repeat}, in us)"
    )
    for label in ("compiled", "pure"):
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        out = subprocess.run(
            [sys.executable, "-c", _STEPS, label, str(repeat)], capture_output=True, text=True, env=env, cwd=ROOT
        )
        got = json.loads(out.stdout.strip().splitlines()[-1])
        seen = got["per_element"]
        worst = max(seen, key=seen.get)
        print(
            f"   {label:<9} ELEMENT_OP_S {got['element_op_s'] * 1e6:.2f}; worst {seen[worst] * 1e6:.3f} ({worst}); "
            + ", ".join(f"{name} {v * 1e6:.3f}" for name, v in seen.items())
        )


def main() -> None:
    quick = "--quick" in sys.argv
    print(machine_line())
    print(load_line())
    per_element(5 if quick else 15)
    judge_share(1 if quick else 3)
    print(load_line())


if __name__ == "__main__":
    main()
