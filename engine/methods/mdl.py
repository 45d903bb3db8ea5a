"""``mdl``: minimum description length — the k-subset whose parity leaves the shortest code for the labels.

Idea: a hypothesis S explains the labels up to its residual (the rows where χ_S(x) ≠ y, at rate r); sending the
labels given S costs about m·H(r) bits, H the binary entropy. The secret costs 0 bits on clean data and every
other subset about m bits (the group: 0 against ~499.3 of 500), so keep the subset with the shortest description.
Under label noise at rate ρ the secret still costs only m·H(ρ) (~143 bits of 500 at 5 %), which is the point of
the method: it degrades gracefully where exact solvers (GF(2)) break.

Parameters: m (training rows, 500 as in the group's experiment); n and k bound the scan of C(n, k) subsets. The
description length is reported on the card, in bits.
Source: cybertronai/SutroYaro ``src/sparse_parity/experiments/exp_mdl.py`` and ``SutroYaro:docs/findings/exp_mdl.md``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.challenges.sparse_tasks import PARITY_TASKS
from engine.methods.method import Method, Outcome, Problem
from engine.methods.subsets import all_characters

METHOD_NAME = "mdl"


def description_bits(chi: Any, y: Any) -> Any:
    """m·H(r) in bits for each column of ``chi``, r its rate of disagreement with ``y``."""
    rows = y.shape[0]
    r = (chi != y[:, None]).sum(axis=0) / rows
    with np.errstate(divide="ignore", invalid="ignore"):
        h = -(r * np.log2(r) + (1.0 - r) * np.log2(1.0 - r))
    return rows * np.where((r > 0) & (r < 1), h, 0.0)


def run(problem: Problem) -> Outcome:
    best, best_subset = float("inf"), []
    for table, chi in all_characters(METHOD_NAME, problem.x, problem.n, problem.k):
        bits = description_bits(chi, problem.y)
        i = int(np.argmin(bits))
        if float(bits[i]) < best:
            best, best_subset = float(bits[i]), [int(b) for b in table[i]]
    return Outcome(secret=best_subset, note=f"shortest description: {best:.1f} bits for {problem.x.shape[0]} labels")


METHOD = Method(
    name=METHOD_NAME,
    summary="Minimum description length: the k-subset whose residual labels cost fewest bits (m·H(r))",
    kind="solver",
    run=run,
    defaults={"m": 500},
    tasks=PARITY_TASKS,
)
