"""``sgd``: 2-layer ReLU MLP, hinge loss, mini-batch SGD with weight decay — all gradients, then all updates.

Idea: the group's neural baseline for sparse parity (lr 0.1, batch 32, hidden 200, wd 0.01). Source:
cybertronai/SutroYaro ``src/sparse_parity/fast.py`` and the sparse-parity-challenge harness
(docs/challenges.md#built-in-methods).
"""

from __future__ import annotations

from typing import Any

from engine.challenges.sparse_tasks import BINARY_TASKS
from engine.methods.method import Method, Outcome, Problem
from engine.methods.mlp import Params, gradients, train

DEFAULTS = {"hidden": 200, "lr": 0.1, "wd": 0.01, "batch": 32, "epochs": 200, "m": 1000}


def sgd_step(x: Any, y: Any, p: Params, lr: float, wd: float) -> None:
    """One step: the whole backward pass first, then every parameter update (in place)."""
    w1, b1, w2, b2 = p
    dw1, db1, dw2, db2 = gradients(x, y, p)
    w2 -= lr * (dw2 + wd * w2)
    b2 -= lr * (db2 + wd * b2)
    w1 -= lr * (dw1 + wd * w1)
    b1 -= lr * (db1 + wd * b1)


def run(problem: Problem) -> Outcome:
    return train(problem, sgd_step)


METHOD = Method(
    name="sgd",
    summary="2-layer ReLU MLP, hinge loss, SGD: all gradients then all updates",
    kind="training",
    run=run,
    defaults=DEFAULTS,
    tasks=BINARY_TASKS,
)
