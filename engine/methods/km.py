"""``km``: bit-flip influence with membership queries, 5 samples per bit (Kushilevitz–Mansour style).

Idea: for each bit i, query the labels of random inputs and of the same inputs with bit i flipped; the fraction of
label changes estimates the influence of bit i, which is 1 for a secret bit of a parity and 0 otherwise. The k most
influential bits are the secret. The same holds, with smaller influence, for the other clean tasks of the family
(sum, AND, majority, threshold), as in the group's harness.
Source: cybertronai/sparse-parity-challenge harness ``_run_km`` (influence_samples=5); cybertronai/SutroYaro
``src/harness.py`` ``_run_sum_km``/``_run_and_km``.
"""

from __future__ import annotations

import numpy as np

from engine.challenges.sparse_tasks import CLEAN_TASKS
from engine.methods.method import Method, Outcome, Problem


def influence_top_k(problem: Problem, samples: int, answers: list[float] | None = None) -> list[int]:
    """The k bits whose flip changes the oracle's label most often (``samples`` queries per bit).

    ``answers``: when given, the oracle's labels are appended to it as plain numbers, bit by bit, each sample's
    label then its flipped label (what an element-level solve reads).
    """
    n, k = problem.n, problem.k
    influence = np.zeros(n)
    for i in range(n):
        xq = problem.rng.choice([-1.0, 1.0], size=(samples, n))
        flipped = xq.copy()
        flipped[:, i] *= -1.0
        y, y_flipped = problem.oracle(xq), problem.oracle(flipped)
        influence[i] = np.mean(y != y_flipped)
        if answers is not None:
            for a, b in zip(np.asarray(y).tolist(), np.asarray(y_flipped).tolist(), strict=True):
                answers += [a, b]
    return sorted(int(i) for i in np.argsort(np.asarray(influence), kind="stable")[-k:])


def run(problem: Problem) -> Outcome:
    return Outcome(secret=influence_top_k(problem, samples=5))


METHOD = Method(
    name="km",
    summary="Bit-flip influence via membership queries, 5 samples per bit",
    kind="solver",
    run=run,
    oracle=True,
    defaults={},
    tasks=CLEAN_TASKS,
)
