"""bytedmd@2 of a solver's whole solve (scope "whole run"): km_min, gf2 and fourier redo their solve element by
element on the values they read, and the run prices that solve.

Oracles: the element-level solve answers exactly what the numpy solver answered (invariant, several seeds); a
km_min solve worked by hand under the ByteDMD rules of docs/metrics.md#bytedmd; the split by argument adds up to the
total; solvers without an element-level solve report no bytedmd rather than a made-up one.
"""

from __future__ import annotations

import numpy as np
import pytest

from engine.challenges.sparse_parity import make_instance
from engine.methods import run_method
from engine.methods.fourier import scan_elements
from engine.methods.gf2 import eliminate_elements
from engine.methods.km_min import flips_that_change
from engine.metrics.bytedmd import bytedmd


def test_km_min_solve_by_hand():
    # flips_that_change(labels=[1, -1, 1, -1], n=2, k=1). Live values on the stack at the start (first argument on
    # top; labels[2], labels[3] are never read, so they take no place): l1 1, l0 2, n 3, k 4.
    # range(n) reads n at 3 (cost 2); l0 != l1 reads l0 at 2 (2) and l1 at 1 (1) and pushes r; `if r` reads r at
    # 1 (1); bit 0 found, len(found) == k reads k at 1 (1) and pushes e; `if e` reads e at 1 (1). Total 8.
    assert flips_that_change([1.0, -1.0, 1.0, -1.0], 2, 1) == [0]
    assert bytedmd(flips_that_change, ([1.0, -1.0, 1.0, -1.0], 2, 1)) == 8
    # Secret bit 1 instead: all four labels are read. Start l3 1, l2 2, l1 3, l0 4, n 5, k 6. n at 5 (3); l0 at 4 (2),
    # l1 at 3 (2); r at 1 (1); l2 at 2 (2), l3 at 1 (1); r2 at 1 (1); k at 1 (1); e at 1 (1). Total 14.
    assert bytedmd(flips_that_change, ([1.0, 1.0, 1.0, -1.0], 2, 1)) == 14


@pytest.mark.parametrize("seed", range(6))
def test_the_element_solves_answer_what_the_numpy_solvers_answer(seed: int):
    for name, params in (("km_min", {}), ("gf2", {"m": "60"}), ("fourier", {"n": "10", "m": "40"})):
        result = run_method(name, {"seed": str(seed), **params})
        assert result.metric_scopes["bytedmd@2"] == "whole run" and result.metrics["bytedmd@2"] > 0, name
        assert result.buffer_attribution is not None
        split = result.buffer_attribution.element_scope("bytedmd@2")
        assert split is not None and split.scope == "whole run"
        assert sum(row.cost for row in split.rows) == split.total == result.metrics["bytedmd@2"]
    data = make_instance(10, 3, 40, seed)
    found = run_method("fourier", {"seed": str(seed), "n": "10", "m": "40"}).found
    assert scan_elements(data.x_train.tolist(), data.y_train.tolist(), 10, 3) == found
    bits = np.hstack([(1 - data.x_train[:11]) / 2, ((1 - data.y_train[:11]) / 2)[:, None]]).astype(int).tolist()
    solved = eliminate_elements([bits], 10)
    assert solved in ([], data.secret)  # one block: the secret, or rank-deficient (then the numpy solver retries)


@pytest.mark.slow  # 1.2 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
def test_solvers_without_an_element_solve_report_none():
    result = run_method("lasso", {})
    assert "bytedmd@2" not in result.metrics and "bytedmd@2" not in result.metric_scopes


def test_a_solve_over_the_element_budget_says_it_was_not_priced():
    # gf2 at n=200 eliminates blocks of 201 rows: ~201³ = 8,120,601 element operations a block, over the budget.
    result = run_method("gf2", {"n": "200", "m": "1000", "k": "3", "seed": "5"})
    assert result.ok and "bytedmd@2" not in result.metrics
    assert result.note is not None and "bytedmd@2 not priced" in result.note and "(limit 300,000)" in result.note
