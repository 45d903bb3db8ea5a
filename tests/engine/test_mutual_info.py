"""mutual_info: hand-computed information of 2×2 tables; finds the secret at n=20, k=3 as the group reports
(cybertronai/SutroYaro:docs/findings/exp_mutual_info.md: 3/3 seeds, true-subset MI ≈ 0.69 nats = ln 2)."""

from __future__ import annotations

import math

import numpy as np

from engine.methods import run_method
from engine.methods.mutual_info import mutual_information
from tests.engine.method_checks import check_docstring


def test_information_of_hand_tables():
    y = np.array([1.0, -1.0, 1.0, -1.0])
    chi = np.array([[1.0, 1.0, 1.0], [-1.0, 1.0, 1.0], [1.0, -1.0, 1.0], [-1.0, -1.0, -1.0]])
    info = mutual_information(chi, y)
    assert math.isclose(info[0], math.log(2))  # χ = y: I = H(y) = ln 2
    assert math.isclose(info[1], 0.0, abs_tol=1e-12)  # independent of y
    # column 2 = (1,1,1,-1): joint p(+,+)=1/2, p(+,-)=1/4, p(-,-)=1/4, p(-,+)=0; p(χ=+)=3/4, p(y=+)=1/2
    expected = 0.5 * math.log(0.5 / 0.375) + 0.25 * math.log(0.25 / 0.375) + 0.25 * math.log(0.25 / 0.125)
    assert math.isclose(info[2], expected)


def test_finds_the_secret_at_n20_k3():
    for seed in range(3):
        result = run_method("mutual_info", {"seed": str(seed)})
        assert result.accuracy == 1.0 and result.found == result.secret, seed
        assert result.metrics["dmc@1"] > 0
    check_docstring("mutual_info")
