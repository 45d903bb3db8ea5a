"""``local_update``: the ``sgd`` network, but each layer is updated right after its own gradient.

Idea: the group's "fused layer-wise update" — during the backward pass, layer 2's update is applied as soon as its
gradient exists (after the signal for layer 1 has been taken from the old weights), then layer 1's (bias first, so
the large W1 is written last and is closest to the next forward pass), so gradient buffers are consumed while hot
and the reuse distance drops. The arithmetic is identical to ``sgd`` (same weights
after every step); only the order of memory traffic changes. Source: cybertronai/sutro (fused layer-wise updates,
per-read ARD 9,715.92 → 8,174.38) and docs/challenges.md#built-in-methods.
"""

from __future__ import annotations

from typing import Any

from engine.challenges.sparse_tasks import BINARY_TASKS
from engine.methods.method import Method, Outcome, Problem
from engine.methods.mlp import Params, forward, hinge_grad_out, train
from engine.methods.sgd import DEFAULTS


def local_step(x: Any, y: Any, p: Params, lr: float, wd: float) -> None:
    """One step with layer-local updates (in place)."""
    w1, b1, w2, b2 = p
    h_pre, h, out = forward(x, p)
    g = hinge_grad_out(out, y)
    dw2 = (g @ h).reshape(1, -1)
    db2 = g.sum(keepdims=True)
    dh = g[:, None] * w2
    w2 -= lr * (dw2 + wd * w2)
    b2 -= lr * (db2 + wd * b2)
    dh_pre = dh * (h_pre > 0.0)
    db1 = dh_pre.sum(axis=0)
    b1 -= lr * (db1 + wd * b1)
    dw1 = dh_pre.T @ x
    w1 -= lr * (dw1 + wd * w1)


def run(problem: Problem) -> Outcome:
    return train(problem, local_step)


METHOD = Method(
    name="local_update",
    summary="The sgd network with each layer updated right after its gradient",
    kind="training",
    run=run,
    defaults=DEFAULTS,
    tasks=BINARY_TASKS,
)
