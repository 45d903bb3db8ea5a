"""``km_min``: bit-flip influence with a single query pair per bit.

Idea: for a parity, flipping bit i changes the label exactly when i is secret, so one pair of queries per bit
decides it; this is the group's data-movement leader among influence methods ("KM-min (1 sample)").
Source: cybertronai/sparse-parity-challenge CLAUDE.md "Current best methods"; SutroYaro KM experiments.
"""

from __future__ import annotations

from engine.methods.km import influence_top_k
from engine.methods.method import Method, Outcome, Problem


def run(problem: Problem) -> Outcome:
    return Outcome(secret=influence_top_k(problem, samples=1))


METHOD = Method(
    name="km_min",
    summary="Bit-flip influence via membership queries, 1 sample per bit",
    kind="solver",
    run=run,
    defaults={},
)
