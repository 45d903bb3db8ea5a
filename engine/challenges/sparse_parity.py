"""Sparse parity, numpy track: find the k secret bits whose product is the label
(docs/challenges.md#sparse-parity-numpy-track).

Data convention of the group (cybertronai/sparse-parity-challenge ``bin/evaluate``, SutroYaro ``fast.py``):
``rng = np.random.RandomState(seed)``; ``secret = sorted(rng.choice(n, k, replace=False))``;
``x = rng.choice([-1.0, 1.0], (m, n))``; ``y = prod(x[:, secret], axis=1)``. Test rows come from the same stream
right after the training rows. Primary metric: ``dmc@1`` over buffer-level events
(docs/metrics.md#reuse-distance-and-dmc).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.metrics.clock import DMC

FloatArray = npt.NDArray[np.float64]

STANDARD_INSTANCE: dict[str, int | float] = {"n": 20, "k": 3}
"""The group's standard instance: n = 20 input bits, k = 3 secret bits (the sparse-parity-challenge protocol and
SutroYaro's default configuration). ``n`` and ``k`` define the problem instance of every sparse task; a run or a
board that names neither is on this one."""


@dataclass(frozen=True)
class SparseParityData:
    """One instance: training rows, held-back test rows and the secret (sorted bit indices)."""

    x_train: FloatArray
    y_train: FloatArray
    x_test: FloatArray
    y_test: FloatArray
    secret: list[int]


def make_rows(n: int, k: int, m: int, seed: int) -> tuple[FloatArray, FloatArray, list[int]]:
    """``(x, y, secret)`` of ``m`` rows from ``RandomState(seed)`` (the group's exact stream)."""
    rng = np.random.RandomState(seed)
    secret = sorted(int(i) for i in rng.choice(n, k, replace=False))
    x = rng.choice([-1.0, 1.0], size=(m, n))
    return x, np.prod(x[:, secret], axis=1), secret


def make_instance(
    n: int, k: int, m: int, seed: int, m_test: int = 200, *, secret_among: int | None = None
) -> SparseParityData:
    """Training and test rows of one instance, both from ``RandomState(seed)`` (test rows drawn after).

    ``secret_among``: draw the secret among the first that many bits (the group's curriculum instances, whose
    secret lies inside the smallest stage); ``None`` or ``n`` gives the group's usual stream.
    """
    rng = np.random.RandomState(seed)
    secret = sorted(int(i) for i in rng.choice(secret_among or n, k, replace=False))
    x = rng.choice([-1.0, 1.0], size=(m, n))
    x_test = rng.choice([-1.0, 1.0], size=(m_test, n))
    return SparseParityData(
        x_train=x,
        y_train=np.prod(x[:, secret], axis=1),
        x_test=x_test,
        y_test=np.prod(x_test[:, secret], axis=1),
        secret=secret,
    )


def subset_accuracy(x: FloatArray, y: FloatArray, subset: list[int]) -> float:
    """Fraction of rows whose label equals the product of the chosen bits (0.0 for an empty subset)."""
    if not subset:
        return 0.0
    return float(np.mean(np.prod(x[:, subset], axis=1) == y))


@dataclass(frozen=True)
class SparseParityChallenge:
    """Registry entry for the numpy track."""

    name: str = "sparse_parity"
    track: str = "numpy"
    summary: str = "Find the k secret bits of a sparse parity from ±1 samples (n=20, k=3); lowest dmc wins"
    primary_metric: str = DMC
    retired: str | None = None

    @property
    def instance_params(self) -> dict[str, int | float]:
        """The parameters that define a problem instance, at the group's standard values (n, k)."""
        return dict(STANDARD_INSTANCE)


SPARSE_PARITY = SparseParityChallenge()
