"""``fourier``: Walsh correlation over all k-subsets.

Idea: the label is the Walsh character χ_S(x) = Π_{i∈S} x_i of the secret S, so its empirical correlation
mean(y·χ_S) is 1 for S = secret and near 0 for every other subset; scan all C(n, k) subsets and keep the best.
On the first-order tasks of the family (sum, AND, majority, threshold) each secret bit correlates with the label on
its own, so the degree-1 coefficients mean(y·x_i) suffice: keep the k largest, as the group's harness does.
``bytedmd@2`` (whole run, k-subset scan only) prices :func:`scan_elements`, the same scan on plain lists, as the group
prices its pure-Python Walsh solve (5,156,954 at n=20, k=3 on its own 50 rows).
Source: cybertronai/sparse-parity-challenge harness ``_run_fourier``; SutroYaro ``exp_bytedmd_floor_gap``;
cybertronai/SutroYaro ``src/harness.py`` ``_run_sum_fourier``/``_run_and_fourier``.
"""

from __future__ import annotations

from itertools import combinations
from math import comb
from typing import Any

import numpy as np

from engine.challenges.sparse_tasks import TASKS
from engine.methods.method import Method, Outcome, Problem, priced_solve
from engine.methods.params import check_subsets

METHOD_NAME = "fourier"


def first_order(problem: Problem) -> Outcome:
    """The k bits with the largest |mean(y·x_i)|."""
    corr = np.abs(np.asarray((problem.x * problem.y[:, None]).sum(axis=0), dtype=np.float64))
    return Outcome(secret=sorted(int(i) for i in np.argsort(corr, kind="stable")[-problem.k :]))


def scan_elements(x: list[list[float]], y: list[float], n: int, k: int) -> list[int]:
    """The element-level solve: the same scan on plain lists, subsets in the same (lexicographic) order, each
    subset's correlation Σ_j y_j·Π_{i∈S} x_j[i] built from its prefix's products (a depth-first walk keeps one
    product column per depth), the first largest |correlation| kept."""
    best: list[Any] = [-1.0, []]

    def extend(products: list[Any], subset: list[int]) -> None:
        for i in range(subset[-1] + 1 if subset else 0, n):
            column = [p * row[i] for p, row in zip(products, x, strict=True)]
            if len(subset) + 1 < k:
                extend(column, [*subset, i])
                continue
            total = column[0]
            for value in column[1:]:
                total = total + value
            if abs(total) > best[0]:
                best[0], best[1] = abs(total), [*subset, i]

    extend(list(y), [])
    return list(best[1])


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
    plain = (np.asarray(x).tolist(), np.asarray(y).tolist(), problem.n, problem.k)
    operations = len(plain[1]) * sum(comb(problem.n, d) for d in range(1, problem.k + 1))
    priced, note = priced_solve(scan_elements, plain, operations)
    return Outcome(secret=best_subset, whole_solve=priced, note=note)


METHOD = Method(
    name=METHOD_NAME,
    summary="Walsh correlation of the labels with every k-subset of bits",
    kind="solver",
    run=run,
    defaults={"m": 100},
    tasks=tuple(TASKS.names()),
)
