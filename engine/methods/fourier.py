"""``fourier``: Walsh correlation over all k-subsets.

Idea: the label is the Walsh character χ_S(x) = Π_{i∈S} x_i of the secret S, so its empirical correlation
mean(y·χ_S) is 1 for S = secret and near 0 for every other subset; scan all C(n, k) subsets and keep the best.
Source: cybertronai/sparse-parity-challenge harness ``_run_fourier``.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from engine.methods.method import Method, Outcome, Problem
from engine.methods.params import check_subsets

METHOD_NAME = "fourier"


def run(problem: Problem) -> Outcome:
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
)
