"""``smt``: enumerate (k−1)-subsets; the last secret bit is then determined.

Idea: for a candidate (k−1)-subset P, the residual y·Π_{i∈P} x_i must equal one remaining column x_j exactly;
checking all columns at once turns a C(n, k) search into C(n, k−1) vector comparisons.
Source: cybertronai/sparse-parity-challenge harness ``_run_smt`` ("SMT Backtracking").
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from engine.methods.method import Method, Outcome, Problem
from engine.methods.params import check_subsets

METHOD_NAME = "smt"


def run(problem: Problem) -> Outcome:
    check_subsets(METHOD_NAME, problem.n, problem.k - 1, k_minus_r=1)
    x, y = problem.x, problem.y
    for partial in combinations(range(problem.n), problem.k - 1):
        residual = y * np.prod(x[:, list(partial)], axis=1) if partial else y
        matches = np.all(x == residual[:, None], axis=0)
        for j in np.flatnonzero(matches):
            if int(j) not in partial:
                return Outcome(secret=sorted([*partial, int(j)]))
    return Outcome(secret=[], note="no subset explains the rows")


METHOD = Method(
    name=METHOD_NAME,
    summary="Enumerate (k-1)-subsets; the last bit is determined by the residual",
    kind="solver",
    run=run,
    defaults={"m": 20},
)
