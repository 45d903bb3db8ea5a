"""mdl: hand-computed description lengths (m·H(r) bits); finds the secret at n=20, k=3 with a 0-bit description,
as the group reports (cybertronai/SutroYaro:docs/findings/exp_mdl.md: true subset 0.0 bits, 3/3 seeds)."""

from __future__ import annotations

import math

import numpy as np

from engine.methods import run_method
from engine.methods.mdl import description_bits
from tests.engine.method_checks import check_docstring


def test_description_lengths_by_hand():
    y = np.array([1.0, -1.0, 1.0, -1.0])
    chi = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
    bits = description_bits(chi, y)
    assert bits[0] == 0.0
    h = -(0.25 * math.log2(0.25) + 0.75 * math.log2(0.75))  # one disagreement in four rows
    assert math.isclose(bits[1], 4 * h)


def test_finds_the_secret_with_a_zero_bit_description():
    for seed in range(3):
        result = run_method("mdl", {"seed": str(seed)})
        assert result.accuracy == 1.0 and result.found == result.secret, seed
        assert result.note.startswith("shortest description: 0.0 bits for 500 labels")
    check_docstring("mdl")
