"""The judge's numpy work priced before it runs (engine/sandbox/remote/work.py): its constants against this machine,
and the issue-29 attacks with the estimate on and off, in one run.

1. Each constant of ``work.py`` beside the worst measured cost it stands for (``time.thread_time``, best of 3, on
   2 Mi-element operands, one BLAS thread): the ratio must stay above 1 on the machine the judge runs on.
2. Each attack of tests/bot/test_submit_judge_work.py (the largest float16 power, argsort, int64 matrix product and
   outer product the budgets allow, repeated) judged on one instance, with the estimate (``after``) and without it
   (``before``: the allowance checked only after each request, as on the landed code). Printed: the numpy work
   charged to the submission (``Limits.parent_cpu_s`` is 1.5 s), the judge's thread CPU for the judgement and the
   verdict.

Run: PYTHONPATH=$PWD python bench/bench_judge_work.py
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from measure import load_line, machine_line

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.blas_threads import ONE_BLAS_THREAD  # noqa: E402
from engine.sandbox import judge  # noqa: E402
from engine.sandbox.remote import work  # noqa: E402
from tests.bot.test_submit_judge_work import _HEAD, ATTACKS  # noqa: E402

N = 1 << 21


def _best_ns(fn: Callable[[], object], units: float) -> float:
    best = math.inf
    for _ in range(3):
        start = time.thread_time()
        fn()
        best = min(best, time.thread_time() - start)
    return best / units * 1e9


def constants() -> None:
    print(f"\nconstants against this machine ({N:,}-element operands; ratio = constant / measured)")
    nlogn = N * math.log2(N)
    with np.errstate(all="ignore"):
        half = (np.arange(N) % 97 + 1).astype(np.float16)
        wide = (np.arange(N) % 97 + 1).astype(np.float64)
        shuffled = np.random.default_rng(0).permutation(wide)
        shuffled_half = np.random.default_rng(0).permutation(half)
        m16, m64 = np.ones((128, 128), np.float16), np.ones((256, 256), np.int64)
        rows = [
            ("HALF_ELEMENT_S", work.HALF_ELEMENT_S, "float16 power", _best_ns(lambda: half**half, 3 * N)),
            ("ELEMENT_S", work.ELEMENT_S, "float64 floor_divide", _best_ns(lambda: wide // (wide + 1), 3 * N)),
            ("ELEMENT_S", work.ELEMENT_S, "float64 median", _best_ns(lambda: np.median(shuffled), 2 * N)),
            ("SORT_S", work.SORT_S, "float64 argsort", _best_ns(lambda: np.argsort(shuffled), nlogn)),
            ("SORT_S", work.SORT_S, "float16 argsort", _best_ns(lambda: np.argsort(shuffled_half), nlogn)),
            ("MAC_S", work.MAC_S, "int64 matmul", _best_ns(lambda: m64 @ m64, 256**3)),
            ("HALF_MAC_S", work.HALF_MAC_S, "float16 matmul", _best_ns(lambda: m16 @ m16, 128**3)),
            ("DRAW_S", work.DRAW_S, "permutation", _best_ns(lambda: np.random.default_rng(1).permutation(N), N)),
        ]
    for name, value, what, measured in rows:
        print(f"  {name:15s} {value * 1e9:6.1f} ns  {what:22s} {measured:7.2f} ns  ratio {value * 1e9 / measured:5.1f}")


def attack(code: str, estimate: bool) -> dict[str, Any]:
    seen: list[list[float]] = []
    real = judge.cpu_allowance

    def recording(limits: Any, spent: list[float], start: float, clock: list[float]) -> Callable[[], tuple[float, str]]:
        seen.append(spent)
        left = real(limits, spent, start, clock)
        return left if estimate else (lambda: (math.inf, ""))

    judge.cpu_allowance = recording  # type: ignore[assignment]
    try:
        start = time.thread_time()
        result = judge.judge_solve(code, instances=1)
        cpu = time.thread_time() - start
    finally:
        judge.cpu_allowance = real  # type: ignore[assignment]
    return {"spent": seen[-1][0] if seen else math.nan, "cpu": cpu, "failure": result.failure or "ok"}


def main() -> None:
    import os

    os.environ.update(ONE_BLAS_THREAD)
    print(machine_line())
    print(f"{load_line()} (start)")
    constants()
    print("\nattacks, one instance each (numpy work charged; Limits.parent_cpu_s = 1.5 s)")
    for name, body in ATTACKS.items():
        for label, on in (("before", False), ("after", True)):
            got = attack(_HEAD + body, on)
            print(
                f"  {name:14s} {label:6s} numpy work {got['spent']:5.2f} s  judge thread CPU {got['cpu']:5.2f} s"
                f"  {got['failure'][:110]}"
            )
    print(f"{load_line()} (end)")


if __name__ == "__main__":
    main()
