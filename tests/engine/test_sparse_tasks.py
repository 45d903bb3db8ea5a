"""The sparse-parity family of tasks (engine/challenges/sparse_tasks.py): label rules by hand, the parity task equal
to the original instance, noisy parity flips only training labels, methods refuse tasks they do not solve in one line
listing those that do; the group's first-order solver (degree-1 Fourier) and sgd solve the binary variants."""

from __future__ import annotations

import numpy as np
import pytest

from engine.challenges import CHALLENGES
from engine.challenges.sparse_parity import make_instance
from engine.challenges.sparse_tasks import TASKS
from engine.errors import BadParameter, UnknownName
from engine.methods import run_method

BITS = np.array([[1.0, 1.0, 1.0], [1.0, -1.0, 1.0], [-1.0, -1.0, -1.0], [1.0, -1.0, -1.0]])


@pytest.mark.parametrize(
    ("task", "values", "expected"),
    [
        ("sparse_parity", {}, [1, -1, -1, 1]),
        ("sparse_sum", {}, [3, 1, -3, -1]),
        ("sparse_and", {}, [1, -1, -1, -1]),
        ("majority_vote", {}, [1, 1, -1, -1]),
        ("threshold", {"t": 2}, [1, -1, -1, -1]),  # sums 3, 1, -3, -1
        ("threshold", {"t": 1}, [1, 1, -1, -1]),
        ("threshold", {"t": -3}, [1, 1, 1, 1]),
        ("noisy_parity", {}, [1, -1, -1, 1]),
    ],
)
def test_label_rules_by_hand(task, values, expected):
    assert TASKS.get(task).labels(BITS, values).tolist() == expected


def test_parity_task_is_the_original_instance_and_noise_touches_training_labels_only():
    values = {"n": 20, "k": 3, "m": 1000, "seed": 5, "noise_rate": 0.1}
    clean = make_instance(20, 3, 1000, 5)
    parity = TASKS.get("sparse_parity").instance(values)
    assert np.array_equal(parity.x_train, clean.x_train) and np.array_equal(parity.y_train, clean.y_train)
    noisy = TASKS.get("noisy_parity").instance(values)
    assert np.array_equal(noisy.x_train, clean.x_train) and np.array_equal(noisy.y_test, clean.y_test)
    flipped = np.mean(noisy.y_train != clean.y_train)
    expected = np.mean(np.random.RandomState(5 + 7).rand(1000) < 0.1)
    assert flipped == expected and 0.07 < flipped < 0.13


def test_variants_are_registered_challenges():
    for name in ("sparse_sum", "sparse_and", "majority_vote", "threshold", "noisy_parity"):
        entry = CHALLENGES.get(name)
        assert entry.track == "numpy" and entry.primary_metric == "dmc@1" and entry.summary


@pytest.mark.parametrize("task", ["sparse_sum", "sparse_and", "majority_vote", "threshold", "noisy_parity"])
def test_fourier_solves_every_variant(task):
    # The group's harness: degree-1 correlations find the secret of sum and AND; Walsh correlation survives noise.
    for seed in (0, 1):
        result = run_method("fourier", {"task": task, "seed": str(seed)})
        assert result.ok and result.accuracy == 1.0 and result.found == result.secret, seed
        assert result.challenge == task and result.params["task"] == task


def test_sgd_learns_sparse_and_and_mdl_survives_noise():
    result = run_method("sgd", {"task": "sparse_and", "seed": "1"})
    assert result.ok and result.accuracy >= 0.95
    noisy = run_method("mdl", {"task": "noisy_parity", "seed": "2"})
    assert noisy.ok and noisy.found == noisy.secret
    assert not noisy.note.startswith("shortest description: 0.0 bits")  # the flipped labels cost bits


def test_refusals_are_one_line_with_what_works():
    with pytest.raises(BadParameter) as err:
        run_method("sgd", {"task": "sparse_sum"})
    assert err.value.one_line() == "sgd does not solve sparse_sum — methods for sparse_sum: km, fourier"
    with pytest.raises(UnknownName) as unknown:
        run_method("fourier", {"task": "sparse_summ"})
    assert "did you mean 'sparse_sum'" in unknown.value.one_line()
    with pytest.raises(UnknownName) as key:
        run_method("fourier", {"t": "2"})  # t belongs to the threshold task only
    assert "unknown parameter 't'" in key.value.one_line()
