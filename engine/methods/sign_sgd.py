"""``sign_sgd``: the ``sgd`` network trained with the sign of the gradient, a fixed step per weight.

Idea: replace ``w -= lr·(g + wd·w)`` by ``w -= lr·(sign(g) + wd·w)``: every weight moves by exactly ``lr`` in the
direction that lowers the batch loss (weight decay stays outside the sign). Kou et al. (2024) argue sign updates need
about n^(k−1) samples for a k-sparse parity instead of n^k; the group found sign SGD reaches 90 % test accuracy in
about half the epochs of plain SGD at k=5 (n=20, 5,000 samples: 7 epochs against 14) and solves n=20, k=3 at
lr 0.01 (99.7 % best, 3/3 seeds).

Parameters: the ``sgd`` ones (hidden units, lr in weight units per step, wd per step, batch rows, epochs, m rows);
lr defaults to 0.01 as in the group's experiment (a sign step of 0.1 overshoots). The rest is the group's n=20, k=3
configuration too (hidden 200, wd 0.01, batch 32, at most 200 epochs) except the training rows: 2,000, not the
group's 1,000, with which seed 123 of the default seeds ends at 91.5 % test accuracy; with 2,000 seeds 0, 42, 123
and 456 pass at n=20, k=3 (39–77 epochs) and 42, 123, 456 at n=20, k=5 (docs/challenges.md#defaults-at-other-sizes).

Stopping: the shared rule of :mod:`engine.methods.mlp` (every training row at margin ≥ 0.8). The group stops at 100 %
test accuracy on 500 held-out rows instead, and skips a batch with no margin violation (weight decay included); at
n=20, k=3 their runs stopped at epochs 200, 200 and 72 (two never reached 100 %). With the group's 1,000 rows seed 0
stops here after 169 epochs (seeds 1 and 2: 137 and 162; with the group's skip: 200, 101, 132), against about 51 for
``sgd``: at k=3 a fixed step of 0.01 converges slowly near the end, and the published 2× speed-up is a k=5 result.
Source: cybertronai/SutroYaro ``SutroYaro:docs/findings/exp_sign_sgd.md`` (experiment ``exp_sign_sgd``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.challenges.sparse_tasks import BINARY_TASKS
from engine.methods.method import Method, Outcome, Problem
from engine.methods.mlp import Params, gradients, train
from engine.methods.sgd import DEFAULTS as SGD_DEFAULTS

DEFAULTS = {**SGD_DEFAULTS, "lr": 0.01, "m": 2000}


def sign_step(x: Any, y: Any, p: Params, lr: float, wd: float) -> None:
    """One step: the ``sgd`` backward pass, then each parameter moves by ``lr`` against its gradient's sign."""
    w1, b1, w2, b2 = p
    dw1, db1, dw2, db2 = gradients(x, y, p)
    w2 -= lr * (np.sign(dw2) + wd * w2)
    b2 -= lr * (np.sign(db2) + wd * b2)
    w1 -= lr * (np.sign(dw1) + wd * w1)
    b1 -= lr * (np.sign(db1) + wd * b1)


def run(problem: Problem) -> Outcome:
    return train(problem, sign_step)


METHOD = Method(
    name="sign_sgd",
    summary="The sgd network updated by the sign of each gradient (fixed step lr, default 0.01)",
    kind="training",
    run=run,
    defaults=DEFAULTS,
    tasks=BINARY_TASKS,
)
