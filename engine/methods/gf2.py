"""``gf2``: Gaussian elimination over GF(2) on n+1 rows.

Idea: with bits b = (1 − x)/2 and label bit c = (1 − y)/2, the parity is linear over GF(2): ``B s = c`` where s is
the indicator of the secret. Eliminate the augmented matrix [B | c] (XOR row operations) and read s off the pivots;
if the rows do not determine s (rank < n) or s fails on those rows, take the next n+1 rows and retry.
Source: the group's GF(2) solver (cybertronai/sparse-parity-challenge harness ``_run_gf2``; leaderboard entries
"GF(2) Ultra-Minimal (n+1 samples, retry)").
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.errors import BadParameter
from engine.methods.method import Method, Outcome, Problem


def eliminate(aug: Any, n: int) -> list[int] | None:
    """Reduce ``aug`` (uint8, rows × (n+1)) in place; the solution's support, or None if rank < n."""
    rows = aug.shape[0]
    for r in range(min(n, rows)):  # column r gets its pivot in row r
        pivots = np.flatnonzero(aug[r:, r])
        if pivots.size == 0:
            return None
        p = r + int(pivots[0])
        if p != r:
            aug[[r, p]] = aug[[p, r]]
        hits = np.flatnonzero(aug[:, r])
        others = hits[hits != r]
        if others.size:
            aug[others] ^= aug[r]
    solution = aug[:n, n]
    return [int(i) for i in np.flatnonzero(solution)]


def run(problem: Problem) -> Outcome:
    n = problem.n
    x, y = problem.x, problem.y
    if x.shape[0] < n + 1:
        raise BadParameter(
            f"gf2 needs at least n+1 = {n + 1} training rows, m={x.shape[0]}",
            hint=f"use m={4 * (n + 1)} or more (each block of n+1 rows is full rank with probability ~0.6-0.8)",
        )
    for start in range(0, x.shape[0] - n, n + 1):  # every full block of n+1 rows
        xs, ys = x[start : start + n + 1], y[start : start + n + 1]
        aug = np.hstack([(1.0 - xs) / 2.0, ((1.0 - ys) / 2.0)[:, None]]).astype(np.uint8)
        support = eliminate(aug, n)
        if support and np.all(np.prod(xs[:, support], axis=1) == ys):
            return Outcome(secret=support)
    return Outcome(secret=[], note="no determined system in the available rows")


METHOD = Method(
    name="gf2",
    summary="Gaussian elimination over GF(2) on n+1 rows (retry on rank deficiency)",
    kind="solver",
    run=run,
    defaults={"m": 200},
)
