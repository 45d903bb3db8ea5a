"""The 2-layer ReLU network shared by ``sgd`` and ``local_update``: initialisation, forward pass, hinge gradients.

Architecture and hyper-parameters follow the group's numpy baseline (SutroYaro ``fast.py``): ``h = relu(x W1ᵀ + b1)``,
``out = h W2ᵀ + b2``, hinge loss ``max(0, 1 − y·out)`` averaged over the batch, He initialisation from the run's
generator, weight decay ``wd`` added to every gradient. Written as plain numpy so the same code runs on tracked
arrays (buffer-level events) and on object arrays of tracked scalars (element-level ByteDMD of one step).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
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


def gradients(x: Any, y: Any, p: Params) -> tuple[Any, Any, Any, Any]:
    """The whole backward pass of the hinge-loss MLP on batch (x, y): ``(dw1, db1, dw2, db2)``, nothing updated
    (``sgd`` and ``sign_sgd`` differ only in how they apply these)."""
    w1, b1, w2, b2 = p
    h_pre, h, out = forward(x, p)
    g = hinge_grad_out(out, y)
    dw2 = (g @ h).reshape(1, -1)
    db2 = g.sum(keepdims=True)
    dh = g[:, None] * w2
    dh_pre = dh * (h_pre > 0.0)
    dw1 = dh_pre.T @ x
    db1 = dh_pre.sum(axis=0)
    return dw1, db1, dw2, db2


def predictor(p: Params) -> Callable[[np.ndarray], np.ndarray]:
    plain = [np.asarray(a, dtype=np.float64).copy() for a in p]
    return lambda x: np.sign(forward(np.asarray(x), plain)[2])


@dataclass
class Fit:
    """How a :func:`fit` loop ended: optimisation steps, epochs, the weights after step 1 (plain copies), a note."""

    steps: int
    epochs: int
    first: Params
    note: str = ""


def fit(problem: Problem, x: Any, y: Any, p: Params, step: Step, epochs: int, margin: float = STOP_MARGIN) -> Fit:
    """Mini-batch passes of ``step`` over rows (x, y) until every row has margin y·out ≥ ``margin``.

    The row order of each epoch comes from the run's tracked generator; ``epochs`` bounds the passes and
    :data:`TIME_LIMIT_S` the wall time (a run stopped by it says so in the note).
    """
    prm = problem.params
    lr, wd, batch = float(prm["lr"]), float(prm["wd"]), int(prm["batch"])
    m = x.shape[0]
    first = [np.asarray(a).copy() for a in p]
    steps, epoch, note = 0, 0, ""
    start = time.perf_counter()
    for epoch in range(1, epochs + 1):
        order = problem.rng.permutation(m)
        for b in range(0, m, batch):
            rows = order[b : b + batch]
            step(x[rows], y[rows], p, lr, wd)
            steps += 1
            if steps == 1:
                first = [np.asarray(a).copy() for a in p]
            if time.perf_counter() - start > TIME_LIMIT_S:
                note = f"stopped in epoch {epoch} after {steps} steps: time limit of {TIME_LIMIT_S:.0f} s reached"
                break
        if note or np.all(forward(x, p)[2] * y >= margin):
            break
    return Fit(steps=steps, epochs=epoch, first=first, note=note)


def outcome(problem: Problem, p: Params, step: Step, done: Fit) -> Outcome:
    """The outcome of a trained network: its predictor, the step count and one representative step (from the
    weights after step 1, on one training row) for the element-level metrics."""
    prm = problem.params
    x1 = np.asarray(problem.x[0:1]).copy()
    y1 = np.asarray(problem.y[0:1]).copy()
    return Outcome(
        predict=predictor(p),
        steps=done.steps,
        epochs=done.epochs,
        one_step=(step, (x1, y1, done.first, float(prm["lr"]), float(prm["wd"]))),
        note=done.note,
    )


def train(problem: Problem, step: Step, margin: float = STOP_MARGIN) -> Outcome:
    """Train a fresh network with ``step`` on the problem's rows (see :func:`fit`)."""
    p = init(problem.n, int(problem.params["hidden"]), problem.rng)
    done = fit(problem, problem.x, problem.y, p, step, int(problem.params["epochs"]), margin)
    return outcome(problem, p, step, done)
