"""``forward_forward``: Hinton's Forward-Forward algorithm — two forward passes, a local objective per layer.

Idea: no backward pass. The label (±1) is prepended to the input; a *positive* pass with the true label and a
*negative* pass with the wrong one run through two ReLU layers (layer 2 sees layer 1's activity scaled to unit
length). Each layer's goodness is the sum of its squared activations; a layer whose positive goodness is below the
threshold, or whose negative goodness is above it, takes a gradient step on its own weights only (hinge on the
goodness, gradient 2·h ⊗ input), right after its own forward pass. A row is classified by running both labels and
keeping the one with the larger total goodness. The group's result is negative: Forward-Forward solves 3-bit parity
(n=3, k=3) in a few epochs but does not learn n=20, k=3 (58.5 % test accuracy) and has about 25× the weighted ARD of
backprop per step. This method reproduces that failure at n=20: the run reports FAIL with its accuracy, as published.

Parameters: hidden (units of each of the two layers, default 100), lr (per step, 0.01 as the group's), batch (rows
averaged per step, default 10), epochs (default 20), m (training rows, 500 as the group's). The goodness threshold
is 2.0, the group's tuned value. The group's n=20 run used 500 units, one row per step, and stopped at its 60 s time
guard after about 2 epochs (58.5 % test accuracy); that configuration (``hidden=500 batch=1 epochs=2``) gives 58 %
here too but costs about 6 CPU s traced, so the defaults are the smaller network, which fails the same way (57.5 %
at seed 0, 20 epochs, under 1 s traced).
Source: G. Hinton, "The Forward-Forward Algorithm: Some Preliminary Investigations" (2022); cybertronai/SutroYaro
``src/sparse_parity/experiments/exp_e_forward_forward.py`` and ``SutroYaro:docs/findings/exp_e_forward_forward.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from engine.challenges.sparse_tasks import BINARY_TASKS
from engine.methods.method import Method, Outcome, Problem

THRESHOLD = 2.0
"""Goodness threshold: positive rows are pushed above it, negative rows below (the group's tuned value)."""

DEFAULTS = {"hidden": 100, "lr": 0.01, "batch": 10, "epochs": 20, "m": 500}

Layers = list[Any]  # [W1, b1, W2, b2]


def layer_forward(z: Any, w: Any, b: Any) -> Any:
    """ReLU activity of one layer for a batch of inputs."""
    return np.maximum(z @ w.T + b, 0.0)


def unit_rows(h: Any) -> Any:
    """Each row scaled to unit length (the next layer sees the direction of the activity, not its size)."""
    return h / ((h * h).sum(axis=1, keepdims=True) + 1e-8) ** 0.5


def layer_update(z: Any, h: Any, w: Any, b: Any, lr: float, positive: bool) -> Any:
    """One local step on a layer's own hinge-on-goodness objective; returns the goodness of each row."""
    good = (h * h).sum(axis=1)
    active = good < THRESHOLD if positive else good > THRESHOLD
    direction = 1.0 if positive else -1.0
    g = (2.0 * direction / z.shape[0]) * (h * active[:, None])
    w += lr * (g.T @ z)
    b += lr * g.sum(axis=0)
    return good


def ff_step(x: Any, y: Any, p: Layers, lr: float) -> None:
    """Positive pass (true label) then negative pass (wrong label); each layer updated after its own forward."""
    w1, b1, w2, b2 = p
    for label, positive in ((y, True), (-y, False)):
        z = np.hstack([label[:, None], x])
        h1 = layer_forward(z, w1, b1)
        layer_update(z, h1, w1, b1, lr, positive)
        z2 = unit_rows(h1)
        h2 = layer_forward(z2, w2, b2)
        layer_update(z2, h2, w2, b2, lr, positive)


def total_goodness(x: Any, label: float, p: Layers) -> Any:
    """Goodness of both layers for every row with ``label`` embedded."""
    w1, b1, w2, b2 = p
    z = np.hstack([np.full((x.shape[0], 1), label), x])
    h1 = layer_forward(z, w1, b1)
    h2 = layer_forward(unit_rows(h1), w2, b2)
    return (h1 * h1).sum(axis=1) + (h2 * h2).sum(axis=1)


def predictor(p: Layers) -> Callable[[np.ndarray], np.ndarray]:
    plain = [np.asarray(a, dtype=np.float64).copy() for a in p]

    def predict(x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, dtype=np.float64)
        return np.where(total_goodness(x, 1.0, plain) >= total_goodness(x, -1.0, plain), 1.0, -1.0)

    return predict


def run(problem: Problem) -> Outcome:
    prm = problem.params
    hidden, lr, batch, epochs = int(prm["hidden"]), float(prm["lr"]), int(prm["batch"]), int(prm["epochs"])
    x, y, m = problem.x, problem.y, problem.x.shape[0]
    rng = problem.rng
    p = [
        rng.randn(hidden, problem.n + 1) * np.sqrt(2.0 / (problem.n + 1)),
        np.zeros(hidden),
        rng.randn(hidden, hidden) * np.sqrt(2.0 / hidden),
        np.zeros(hidden),
    ]
    first = [np.asarray(a).copy() for a in p]
    steps = done = 0
    for epoch in range(1, epochs + 1):
        done = epoch
        order = rng.permutation(m)
        for b in range(0, m, batch):
            rows = order[b : b + batch]
            ff_step(x[rows], y[rows], p, lr)
            steps += 1
            if steps == 1:
                first = [np.asarray(a).copy() for a in p]
        guess = np.where(total_goodness(x, 1.0, p) >= total_goodness(x, -1.0, p), 1.0, -1.0)
        if np.all(guess == y):  # every training row right: stop
            break
    x1, y1 = np.asarray(x[0:1]).copy(), np.asarray(y[0:1]).copy()
    return Outcome(
        predict=predictor(p),
        steps=steps,
        epochs=done,
        one_step=(_one_step, (x1, y1, first, lr, 0.0)),
    )


def _one_step(x: Any, y: Any, p: Layers, lr: float, wd: float) -> None:
    """The training step in the runner's one-step signature (Forward-Forward uses no weight decay)."""
    ff_step(x, y, p, lr)


METHOD = Method(
    name="forward_forward",
    summary="Hinton's Forward-Forward: two forward passes, local goodness objective per layer (fails at n=20)",
    kind="training",
    run=run,
    defaults=DEFAULTS,
    tasks=BINARY_TASKS,
)
