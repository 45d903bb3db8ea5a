"""The 2-layer ReLU network shared by ``sgd`` and ``local_update``: initialisation, forward pass, hinge gradients.

Architecture and hyper-parameters follow the group's numpy baseline (SutroYaro ``fast.py``): ``h = relu(x W1ᵀ + b1)``,
``out = h W2ᵀ + b2``, hinge loss ``max(0, 1 − y·out)`` averaged over the batch, He initialisation from the run's
generator, weight decay ``wd`` added to every gradient. Written as plain numpy so the same code runs on tracked
arrays (buffer-level events) and on object arrays of tracked scalars (element-level ByteDMD of one step).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from engine.methods.method import Outcome, Problem

STOP_MARGIN = 0.8
"""Training stops once every training row has margin y·out ≥ this (correct sign alone generalises to ~0.98)."""

TIME_LIMIT_S = 60.0
"""Wall-clock limit for training; a run stopped by it says so in its note."""

Params = list[Any]  # [W1, b1, W2, b2]
Step = Callable[[Any, Any, Params, float, float], None]


def init(n: int, hidden: int, rng: Any) -> Params:
    w1 = rng.randn(hidden, n) * np.sqrt(2.0 / n)
    w2 = rng.randn(1, hidden) * np.sqrt(2.0 / hidden)
    b1 = np.zeros(hidden)  # bound to names so that attribution can call these buffers b1 and b2
    b2 = np.zeros(1)
    return [w1, b1, w2, b2]


def forward(x: Any, p: Params) -> tuple[Any, Any, Any]:
    """``(h_pre, h, out)`` for a batch of rows."""
    h_pre = x @ p[0].T + p[1]
    h = np.maximum(h_pre, 0.0)
    out = (h @ p[2].T + p[3]).ravel()
    return h_pre, h, out


def hinge_grad_out(out: Any, y: Any) -> Any:
    """d loss / d out for the batch-mean hinge loss: −y/B where y·out < 1, else 0."""
    violated = out * y < 1.0
    return -(y * violated) / y.shape[0]


def predictor(p: Params) -> Callable[[np.ndarray], np.ndarray]:
    plain = [np.asarray(a, dtype=np.float64).copy() for a in p]
    return lambda x: np.sign(forward(np.asarray(x), plain)[2])


def train(problem: Problem, step: Step) -> Outcome:
    """Mini-batch training with ``step`` until every training row is classified correctly (or ``epochs``)."""
    prm = problem.params
    hidden, lr, wd = int(prm["hidden"]), float(prm["lr"]), float(prm["wd"])
    batch, epochs = int(prm["batch"]), int(prm["epochs"])
    x, y, m = problem.x, problem.y, problem.x.shape[0]
    p = init(problem.n, hidden, problem.rng)
    snapshot = [np.asarray(a).copy() for a in p]
    steps, epoch, note = 0, 0, ""
    start = time.perf_counter()
    for epoch in range(1, epochs + 1):
        order = problem.rng.permutation(m)
        for b in range(0, m, batch):
            rows = order[b : b + batch]
            step(x[rows], y[rows], p, lr, wd)
            steps += 1
            if steps == 1:
                snapshot = [np.asarray(a).copy() for a in p]
            if time.perf_counter() - start > TIME_LIMIT_S:
                note = f"stopped in epoch {epoch} after {steps} steps: time limit of {TIME_LIMIT_S:.0f} s reached"
                break
        if note or np.all(forward(x, p)[2] * y >= STOP_MARGIN):
            break
    x1 = np.asarray(x[0:1]).copy()
    y1 = np.asarray(y[0:1]).copy()
    return Outcome(
        predict=predictor(p),
        steps=steps,
        epochs=epoch,
        one_step=(step, (x1, y1, snapshot, lr, wd)),
        note=note,
    )
