"""evolutionary: finds the secret at n=20, k=3 within the generation limit on every seed tried (the group: 5/5
seeds, 18 generations on average; cybertronai/SutroYaro:docs/findings/exp_evolutionary.md)."""

from __future__ import annotations

import numpy as np

from engine.methods import run_method
from engine.methods.evolutionary import child, fitness
from tests.engine.method_checks import check_docstring


def test_fitness_and_children():
    x = np.array([[1.0, 1.0, 1.0], [1.0, -1.0, 1.0], [-1.0, 1.0, 1.0], [-1.0, -1.0, -1.0]])
    y = x[:, 0] * x[:, 1]  # (1, -1, -1, 1)
    fit = fitness(x, y, np.array([[0, 1], [0, 2], [1, 2]]))
    assert fit.tolist() == [1.0, 0.5, 0.5]  # by hand: y·x0x2 = (1, -1, 1, 1), y·x1x2 = (1, 1, -1, 1)
    rng = np.random.RandomState(0)
    for _ in range(50):
        c = child(np.array([0, 1]), np.array([2, 3]), 6, rng)
        assert len(set(c.tolist())) == 2 and c.tolist() == sorted(c.tolist()) and max(c) < 6


def test_finds_the_secret_at_n20_k3():
    for seed in (1, 2):
        result = run_method("evolutionary", {"seed": str(seed)})
        assert result.accuracy == 1.0 and result.found == result.secret, seed
        assert result.note.startswith("found in generation")
    check_docstring("evolutionary")
