"""``fourier``: Walsh correlation over all k-subsets.

Idea: the label is the Walsh character χ_S(x) = Π_{i∈S} x_i of the secret S, so its empirical correlation
mean(y·χ_S) is 1 for S = secret and near 0 for every other subset; scan all C(n, k) subsets and keep the best.
On the first-order tasks of the family (sum, AND, majority, threshold) each secret bit correlates with the label on
its own, so the degree-1 coefficients mean(y·x_i) suffice: keep the k largest, as the group's harness does.
Source: cybertronai/sparse-parity-challenge harness ``_run_fourier``; cybertronai/SutroYaro ``src/harness.py``
``_run_sum_fourier``/``_run_and_fourier``.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from engine.challenges.sparse_tasks import TASKS
from engine.methods.method import Method, Outcome, Problem
from engine.methods.params import check_subsets

METHOD_NAME = "fourier"


def first_order(problem: Problem) -> Outcome:
    """The k bits with the largest |mean(y·x_i)|."""
    corr = np.abs(np.asarray((problem.x * problem.y[:, None]).sum(axis=0), dtype=np.float64))
    return Outcome(secret=sorted(int(i) for i in np.argsort(corr, kind="stable")[-problem.k :]))


def run(problem: Problem) -> Outcome:
    if problem.task.first_order:
        return first_order(problem)
    check_subsets(METHOD_NAME, problem.n, problem.k)
    x, y = problem.x, problem.y
    best, best_subset = -1.0, []
    for subset in combinations(range(problem.n), problem.k):
        corr = abs(float(np.mean(y * np.prod(x[:, list(subset)], axis=1))))
        if corr > best:
            best, best_subset = corr, list(subset)
    return Outcome(secret=best_subset)


METHOD = Method(
    name=METHOD_NAME,
    summary="Walsh correlation of the labels with every k-subset of bits",
    kind="solver",
    run=run,
    defaults={"m": 100},
    tasks=tuple(TASKS.names()),
)
