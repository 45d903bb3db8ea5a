"""curriculum: stage widths and W1 widening (invariants); solves n=50, k=3 in far fewer epochs than direct training
fails in, as the group reports (cybertronai/SutroYaro:docs/findings/exp_curriculum.md: 10->30->50 in 20 epochs,
98.5 %; direct 292 epochs); tracing changes no numbers."""

from __future__ import annotations

import numpy as np
import pytest

from engine.errors import BadParameter
from engine.methods import run_method
from engine.methods.curriculum import stages, widen
from tests.engine.method_checks import check_docstring, check_tracing_changes_nothing


def test_tracing_changes_no_numbers():
    params = {"n": 12, "k": 3, "n0": 6, "grow": 3, "m": 200, "hidden": 20, "epochs": 2}
    result = check_tracing_changes_nothing("curriculum", params)
    assert "6→9→12" in result.note
    check_docstring("curriculum")


def test_stages_and_widening_keep_trained_columns():
    assert stages(20, 10, 20) == [10, 20]
    assert stages(50, 10, 20) == [10, 30, 50]  # the group's 10 -> 30 -> 50
    assert stages(10, 10, 20) == [10]
    rng = np.random.RandomState(0)
    w1 = rng.randn(4, 3)
    p = [w1.copy(), np.zeros(4), np.ones((1, 4)), np.zeros(1)]
    widen(p, 2, rng, 5)
    assert p[0].shape == (4, 5) and np.array_equal(p[0][:, :3], w1)
    assert np.abs(p[0][:, 3:]).max() < 5 * 0.1 * np.sqrt(2.0 / 5)  # 0.1 × He scale, within 5 sigma


def test_first_stage_outside_k_to_n_is_refused():
    with pytest.raises(BadParameter) as err:
        run_method("curriculum", {"n": "20", "k": "3", "n0": "2"})
    assert "n0=2 must lie in [k=3, n=20]" in err.value.one_line()


@pytest.mark.slow
def test_curriculum_solves_n50_where_direct_sgd_stalls():
    result = run_method("curriculum", {"n": "50", "seed": "0"})
    assert result.ok and result.accuracy >= 0.95, result.failure
    assert result.counts["epochs"] < 100  # direct sgd: 200 epochs at 53 % on this instance
    assert "10→30→50" in result.note
