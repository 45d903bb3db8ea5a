"""``lasso``: L1-regularised linear regression on all k-way interaction features; the one feature it keeps is the
secret.

Idea: the label is one of the C(n, k) interaction features χ_S(x) = Π_{i∈S} x_i, so a sparse linear model over all
of them, ``min_w ½·mean((y − F w)²) + α‖w‖₁``, should put all its weight on the secret's feature (the group: exactly
one non-zero coefficient in 9/9 runs, 0.9 at α = 0.1, the L1 shrinkage). Solved here by proximal gradient descent
(ISTA: a gradient step on the squared error, then soft-thresholding by α/L, L the largest eigenvalue of FᵀF/m
estimated by power iteration); the secret is the subset with the largest |w|.

Parameters: m (training rows, 500 as in the group's experiment), wd (the L1 weight α, 0.1 as in the group's
experiment), epochs (ISTA iterations, 100). The feature matrix holds m × C(n, k) values, bounded by
:data:`MAX_FEATURES`.
Source: cybertronai/SutroYaro ``src/sparse_parity/experiments/exp_lasso.py`` (which uses scikit-learn's Lasso) and
``SutroYaro:docs/findings/exp_lasso.md``; ISTA: Beck & Teboulle (2009).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine.challenges.sparse_tasks import PARITY_TASKS
from engine.errors import BadParameter
from engine.methods.method import Method, Outcome, Problem
from engine.methods.params import fitting_sizes
from engine.methods.subsets import characters, subset_chunks

METHOD_NAME = "lasso"
MAX_FEATURES = 20_000
"""Largest number of interaction features (C(n, k)) the design matrix may hold (n=50, k=3 has 19,600)."""
POWER_STEPS = 20


def largest_eigenvalue(f: Any, rows: int, rng: Any) -> float:
    """λ_max(FᵀF / rows) by power iteration (an upper bound after scaling by 1.1 keeps ISTA's step safe)."""
    v = rng.randn(f.shape[1])
    v = v / np.sqrt((v * v).sum())
    value = 1.0
    for _ in range(POWER_STEPS):
        w = (f.T @ (f @ v)) / rows
        value = float(np.sqrt((w * w).sum()))
        v = w / value
    return 1.1 * value


def run(problem: Problem) -> Outcome:
    n, k = problem.n, problem.k
    count = math.comb(n, k)
    if count > MAX_FEATURES:
        raise BadParameter(
            f"lasso would build C({n},{k}) = {count:,} interaction features",
            hint=f"the limit is {MAX_FEATURES:,}: {fitting_sizes(n, k, MAX_FEATURES)}",
        )
    x, y, rows = problem.x, problem.y, problem.x.shape[0]
    table = np.vstack(list(subset_chunks(n, k)))
    f = characters(x, table)
    alpha, iterations = float(problem.params["wd"]), int(problem.params["epochs"])
    step = 1.0 / largest_eigenvalue(f, rows, problem.rng)
    w = np.zeros(count)
    for _ in range(iterations):
        z = w + step * (f.T @ (y - f @ w)) / rows
        w = np.sign(z) * np.maximum(np.abs(z) - step * alpha, 0.0)
    weights = np.abs(np.asarray(w, dtype=np.float64))
    best = int(np.argmax(weights))
    kept = int(np.count_nonzero(weights))
    return Outcome(
        secret=[int(i) for i in table[best]],
        note=f"{kept} non-zero coefficient(s); largest {float(w[best]):.3f} (α = {alpha})",
    )


METHOD = Method(
    name=METHOD_NAME,
    summary="L1-regularised regression on all k-way interaction features (ISTA); the kept feature is the secret",
    kind="solver",
    run=run,
    defaults={"m": 500, "wd": 0.1, "epochs": 100},
    tasks=PARITY_TASKS,
)
