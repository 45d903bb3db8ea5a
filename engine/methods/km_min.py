"""``km_min``: bit-flip influence with a single query pair per bit.

Idea: for a parity, flipping bit i changes the label exactly when i is secret, so one pair of queries per bit
decides it; this is the group's data-movement leader among influence methods ("KM-min (1 sample)").
``bytedmd@2`` (whole run) prices :func:`flips_that_change` on the query labels, as the group's ByteDMD survey prices
its pure-Python KM-min solve (268 at n=20, k=3 on its own instance).
Source: cybertronai/sparse-parity-challenge CLAUDE.md "Current best methods"; SutroYaro KM experiments and
``exp_bytedmd_floor_gap``.
"""

from __future__ import annotations

from engine.methods.km import influence_top_k
from engine.methods.method import Method, Outcome, Problem


def flips_that_change(labels: list[float], n: int, k: int) -> list[int]:
    """The element-level solve: bit i is secret when its pair of labels (``labels[2i]``, ``labels[2i+1]``) differ;
    read the pairs in bit order and stop at the k-th secret bit (the group's ByteDMD solve reads only these labels)."""
    found: list[int] = []
    for i in range(n):
        if labels[2 * i] != labels[2 * i + 1]:
            found.append(i)
            if len(found) == k:
                break
    return found


def run(problem: Problem) -> Outcome:
    answers: list[float] = []
    secret = influence_top_k(problem, samples=1, answers=answers)
    return Outcome(secret=secret, whole_solve=(flips_that_change, (answers, problem.n, problem.k)))


METHOD = Method(
    name="km_min",
    summary="Bit-flip influence via membership queries, 1 sample per bit",
    kind="solver",
    run=run,
    oracle=True,
    defaults={},
)
