"""Evaluate a ``solve(x, y, n_bits, k_sparse)`` exactly as cybertronai/sparse-parity-challenge ``bin/evaluate`` does.

Protocol: n=20, k=3; seeds 42, 123, 456; 500 training rows from ``RandomState(seed)`` and 500 test rows from
``RandomState(seed + 1000)`` labelled with the training instance's secret; ``solve`` receives tracked x and y (the
TrackedArray event mapping of docs/metrics.md#trackedarray-convention, ``np.zeros/ones/empty`` tracked inside); accuracy
= fraction of test labels matched by the product of the returned bits; the run passes at mean accuracy ≥ 0.95; ``dmc``
per seed is rounded to 0.1 as the leaderboard prints it, and the mean is taken over seeds that did not raise.

The file is run in-process: this is for a member's own code on their own machine, not for untrusted submissions.
Asked with ``attribute=True``, each seed also says where its cost went: the per-buffer table of
:mod:`engine.attribution`, buffers named after the variables of the member's file (its source is registered with
``linecache`` under the file's name for that).
"""

from __future__ import annotations

import linecache
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.attribution import WHOLE_RUN, NamingEventLog, ScopeAttribution, attribute_log
from engine.challenges.sparse_parity import make_rows, subset_accuracy
from engine.errors import EngineError
from engine.metrics.clock import clock_metrics
from engine.tracing import EventLog, tracing, track

SEEDS = (42, 123, 456)
N_BITS, K_SPARSE, N_TRAIN, N_TEST = 20, 3, 500, 500
ACCURACY_GATE = 0.95


@dataclass
class SeedResult:
    seed: int
    accuracy: float
    found: list[int] = field(default_factory=list)
    secret: list[int] = field(default_factory=list)
    dmc: float | None = None
    ard: float | None = None
    wall_s: float = 0.0
    reads: int = 0
    writes: int = 0
    error: str | None = None
    attribution: ScopeAttribution | None = None


def load_solve(source: str, name: str = "solve.py") -> Callable[..., Any]:
    """Execute ``source`` (with ``np``/``numpy`` predefined, as the evaluator does) and return its ``solve``."""
    namespace: dict[str, Any] = {"np": np, "numpy": np, "__name__": "submission"}
    linecache.cache[name] = (len(source), None, source.splitlines(keepends=True), name)  # names for attribution
    try:
        exec(compile(source, name, "exec"), namespace)  # noqa: S102 - the member's own file, run locally
    except Exception as exc:  # noqa: BLE001 - any failure of their file is reported in one line
        raise EngineError(
            f"{name} failed to load: {type(exc).__name__}: {exc}", hint="fix the file and retry"
        ) from None
    solve = namespace.get("solve")
    if not callable(solve):
        raise EngineError(f"{name} defines no solve() function", hint="define solve(x, y, n_bits, k_sparse)")
    found: Callable[..., Any] = solve
    return found


def evaluate_seed(solve: Callable[..., Any], seed: int, *, attribute: bool = False) -> SeedResult:
    x_train, y_train, secret = make_rows(N_BITS, K_SPARSE, N_TRAIN, seed)
    x_test, _, _ = make_rows(N_BITS, K_SPARSE, N_TEST, seed + 1000)
    y_test = np.prod(x_test[:, secret], axis=1)
    log = NamingEventLog() if attribute else EventLog()
    start = time.perf_counter()
    try:
        with tracing(log):
            found = solve(track(x_train, log, "x_train"), track(y_train, log, "y_train"), N_BITS, K_SPARSE)
        wall = time.perf_counter() - start
        if found is None:
            return SeedResult(seed=seed, accuracy=0.0, secret=secret, error="returned None")
        chosen = sorted(int(i) for i in found)
    except Exception as exc:  # noqa: BLE001 - the evaluator records a failing seed and goes on
        return SeedResult(seed=seed, accuracy=0.0, secret=secret, error=f"{type(exc).__name__}: {exc}")
    metrics = clock_metrics(*log.arrays())
    counts = log.counts()
    return SeedResult(
        seed=seed,
        accuracy=subset_accuracy(x_test, y_test, chosen),
        found=chosen,
        secret=secret,
        dmc=round(metrics["dmc@1"], 1),
        ard=metrics["ard@1"],
        wall_s=wall,
        reads=counts["reads"],
        writes=counts["writes"],
        attribution=attribute_log(log, WHOLE_RUN) if isinstance(log, NamingEventLog) else None,
    )


def evaluate(solve: Callable[..., Any], *, attribute: bool = False) -> tuple[list[SeedResult], dict[str, Any]]:
    """Per-seed results and the summary (mean accuracy, mean dmc, mean wall, passed); ``attribute``: see above."""
    results = [evaluate_seed(solve, seed, attribute=attribute) for seed in SEEDS]
    dmcs = [r.dmc for r in results if r.dmc is not None]
    walls = [r.wall_s for r in results if r.error is None]
    mean_acc = float(np.mean([r.accuracy for r in results]))
    summary = {
        "accuracy": mean_acc,
        "dmc": float(np.mean(dmcs)) if dmcs else None,
        "wall_s": float(np.mean(walls)) if walls else None,
        "passed": mean_acc >= ACCURACY_GATE,
        "seeds": list(SEEDS),
    }
    return results, summary
