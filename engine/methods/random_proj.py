"""``random_proj``: Monte Carlo Fourier subsampling — test random k-subsets until one correlates with the label.

Idea: instead of scanning all C(n, k) Walsh characters (``fourier``), draw k-subsets at random (without repeats)
and stop at the first whose correlation |mean(y·χ_S)| reaches 0.9. The secret gives 1 and others about
1/√m, so the first hit is the secret; the expected number of draws is about half of C(n, k) (the group measured
565 tries of 1,140 at n=20, k=3, and 32-62 % of C(n, k) up to n=200). It trades the full scan for a random stopping
time, which is why its data movement varies from seed to seed.

Parameters: m (training rows, 500 as in the group's experiment). Draws stop at the threshold or after every
subset has been tried (so a run is bounded by C(n, k), refused above the scan limit).
Source: cybertronai/SutroYaro ``src/sparse_parity/experiments/exp_random_proj.py`` and
``SutroYaro:docs/findings/exp_random_proj.md``.
"""

from __future__ import annotations

import math

import numpy as np

from engine.methods.method import Method, Outcome, Problem
from engine.methods.params import check_subsets

METHOD_NAME = "random_proj"
THRESHOLD = 0.9
"""Correlation at which a draw is accepted (the group's early-stopping threshold)."""


def run(problem: Problem) -> Outcome:
    n, k = problem.n, problem.k
    check_subsets(METHOD_NAME, n, k)
    x, y = problem.x, problem.y
    seen: set[tuple[int, ...]] = set()
    total = math.comb(n, k)
    while len(seen) < total:
        draw = tuple(sorted(int(i) for i in problem.rng.choice(n, k, replace=False)))
        if draw in seen:
            continue
        seen.add(draw)
        corr = abs(float(np.mean(y * np.prod(x[:, list(draw)], axis=1))))
        if corr >= THRESHOLD:
            return Outcome(secret=list(draw), note=f"accepted after {len(seen):,} of {total:,} subsets")
    return Outcome(secret=[], note=f"no subset reached correlation {THRESHOLD} in all {total:,}")


METHOD = Method(
    name=METHOD_NAME,
    summary="Random k-subsets tested one by one until one correlates with the label (≥ 0.9)",
    kind="solver",
    run=run,
    defaults={"m": 500},
)
