"""The sparse-parity family of numpy-track tasks: the same ±1 inputs and hidden k-subset, different label rules.

The group studies how methods fare when the label is not the parity of the secret bits (cybertronai/SutroYaro
``src/sparse_parity/eval/default_registry.py``; ``src/harness.py`` ``measure_sparse_sum``/``measure_sparse_and``;
``src/sparse_parity/challenges/``). Each task here keeps the group's definition and default configuration (n=20,
k=3, 1,000 training rows), with binary labels written as ±1:

- ``sparse_parity``: y = Π x[secret] (the original).
- ``sparse_sum``: y = Σ x[secret], in [−k, k]; first-order structure (each secret bit adds independently).
- ``sparse_and``: y = +1 iff every secret bit is +1, else −1 (the group's 1/0); P(y = +1) = 2^−k.
- ``majority_vote``: y = sign(Σ x[secret]), a tie (even k) counted as +1.
- ``threshold``: y = +1 iff Σ x[secret] ≥ t, else −1 (parameter t, default 2 = k − 1 at k = 3; t ≤ −k gives a
  constant, t = k is sparse_and).
- ``noisy_parity``: the parity, with each *training* label flipped independently at ``noise_rate`` (default 0.1);
  test labels are clean (the LPN regime).

Rows come from the group's stream (``RandomState(seed)``: secret, training rows, then test rows); label flips of
``noisy_parity`` come from ``RandomState(seed + 7)`` so the inputs match the clean task exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from engine.challenges.sparse_parity import STANDARD_INSTANCE, FloatArray, SparseParityData, make_instance
from engine.registry import Registry

Labeller = Callable[[FloatArray, Mapping[str, int | float]], FloatArray]
"""Labels of rows given only the secret columns (rows × k, ±1) and the run's parameters."""

GROUP_ROWS = 1000
"""Training rows of every variant's default configuration (the group's n_train; it overrides a method's own m)."""

NOISE_STREAM_OFFSET = 7
"""The label flips of ``noisy_parity`` come from ``RandomState(seed + NOISE_STREAM_OFFSET)``."""


def parity(bits: FloatArray, values: Mapping[str, int | float]) -> FloatArray:
    return np.asarray(np.prod(bits, axis=1), dtype=np.float64)


def total(bits: FloatArray, values: Mapping[str, int | float]) -> FloatArray:
    return np.asarray(np.sum(bits, axis=1), dtype=np.float64)


def conjunction(bits: FloatArray, values: Mapping[str, int | float]) -> FloatArray:
    return np.where(np.all(bits > 0, axis=1), 1.0, -1.0)


def majority(bits: FloatArray, values: Mapping[str, int | float]) -> FloatArray:
    return np.where(np.sum(bits, axis=1) >= 0, 1.0, -1.0)


def at_least(bits: FloatArray, values: Mapping[str, int | float]) -> FloatArray:
    return np.where(np.sum(bits, axis=1) >= values["t"], 1.0, -1.0)


@dataclass(frozen=True)
class SparseTask:
    """A task of the family and its challenge-registry entry (numpy track, primary metric ``dmc@1``).

    labels: the label rule on the secret columns. defaults: the task's own parameters. first_order: each secret
    bit correlates with the label on its own (correlation solvers apply). noise_key: the parameter giving the
    training-label flip rate, if any. problem_keys: the task's own parameters that change the problem (threshold's
    ``t``, noisy_parity's ``noise_rate``; not ``m``, which is how much data a method uses). default_method: the
    method ``run TASK`` uses (fourier solves every variant: degree-1 correlations on the first-order ones, Walsh
    correlation on the parities).
    """

    name: str
    summary: str
    labels: Labeller
    defaults: Mapping[str, int | float] = field(default_factory=dict)
    first_order: bool = False
    noise_key: str | None = None
    problem_keys: tuple[str, ...] = ()
    default_method: str = "fourier"
    track: str = "numpy"
    primary_metric: str = "dmc@1"
    retired: str | None = None

    @property
    def instance_params(self) -> dict[str, int | float]:
        """The parameters that define a problem instance of this task, at their defaults: n and k (the group's
        standard, n=20 k=3) and the task's own :attr:`problem_keys`."""
        return {**STANDARD_INSTANCE, **{key: self.defaults[key] for key in self.problem_keys}}

    def instance(self, values: Mapping[str, int | float], *, secret_among: int | None = None) -> SparseParityData:
        """Training and test rows of this task for the validated parameters (n, k, m, seed and the task's own)."""
        n, k, m, seed = int(values["n"]), int(values["k"]), int(values.get("m", 100)), int(values["seed"])
        base = make_instance(n, k, m, seed, secret_among=secret_among)
        y_train = self.labels(base.x_train[:, base.secret], values)
        if self.noise_key is not None:
            flips = np.random.RandomState(seed + NOISE_STREAM_OFFSET).rand(m) < float(values[self.noise_key])
            y_train = np.where(flips, -y_train, y_train)
        return SparseParityData(
            x_train=base.x_train,
            y_train=y_train,
            x_test=base.x_test,
            y_test=self.labels(base.x_test[:, base.secret], values),
            secret=base.secret,
        )

    def accuracy_of(self, found: list[int], data: SparseParityData, values: Mapping[str, int | float]) -> float:
        """Test accuracy of a found subset: its labels under this task's rule against the true test labels."""
        if len(found) != len(data.secret):
            return 0.0
        return float(np.mean(self.labels(data.x_test[:, found], values) == data.y_test))


SPARSE_PARITY_TASK = SparseTask("sparse_parity", "y = product of the k secret bits", parity, default_method="sgd")
TASKS: Registry[SparseTask] = Registry("task")
for _task in (
    SPARSE_PARITY_TASK,
    SparseTask(
        "sparse_sum",
        "Sparse sum: y = sum of the k secret bits, in [-k, k] (first-order structure); n=20, k=3",
        total,
        defaults={"m": GROUP_ROWS},
        first_order=True,
    ),
    SparseTask(
        "sparse_and",
        "Sparse AND: y = +1 only when all k secret bits are +1 (P = 2^-k); n=20, k=3",
        conjunction,
        defaults={"m": GROUP_ROWS},
        first_order=True,
    ),
    SparseTask(
        "majority_vote",
        "Majority vote: y = sign of the sum of the k secret bits; n=20, k=3",
        majority,
        defaults={"m": GROUP_ROWS},
        first_order=True,
    ),
    SparseTask(
        "threshold",
        "Threshold: y = +1 iff the sum of the k secret bits is >= t (t=2 default); n=20, k=3",
        at_least,
        defaults={"t": 2, "m": GROUP_ROWS},
        first_order=True,
        problem_keys=("t",),
    ),
    SparseTask(
        "noisy_parity",
        "Noisy parity: training labels flipped at noise_rate (0.1 default), test labels clean; n=20, k=3",
        parity,
        defaults={"noise_rate": 0.1, "m": GROUP_ROWS},
        noise_key="noise_rate",
        problem_keys=("noise_rate",),
    ),
):
    TASKS.register(_task.name, _task)

BINARY_TASKS = ("sparse_parity", "noisy_parity", "sparse_and", "majority_vote", "threshold")
"""Tasks with ±1 labels: what a classifier (the training methods) can learn."""
CLEAN_TASKS = ("sparse_parity", "sparse_sum", "sparse_and", "majority_vote", "threshold")
"""Tasks whose training labels are exact (membership-query methods ask a clean oracle, so noise would not apply)."""
PARITY_TASKS = ("sparse_parity", "noisy_parity")
"""Tasks whose label is a Walsh character (the methods that score k-subset parities)."""
