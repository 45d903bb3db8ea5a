"""Sweeps over n and k: typed rows in grid order, refused points become rows with the reason, the largest n solved,
grid limits in one line. Oracle: the solvers' known behaviour (km_min solves any n; fourier's scan limit is
C(n, k) ≤ 100,000, so n=64, k=5 is refused) and the training cap n ≤ 64."""

from __future__ import annotations

import pytest

from engine.errors import BadParameter, UnknownName
from engine.methods.sweep import MAX_POINTS, largest_solved, sweep


def test_rows_in_grid_order_with_metrics():
    rows = sweep("km_min", [20, 50, 100], [3, 5], seeds=[0, 1])
    assert [(r.n, r.k, r.seed) for r in rows][:4] == [(20, 3, 0), (20, 3, 1), (20, 5, 0), (20, 5, 1)]
    assert len(rows) == 12 and all(r.ok and r.accuracy == 1.0 and r.dmc and r.dmc > 0 for r in rows)
    assert largest_solved(rows, 3) == 100 and largest_solved(rows, 5) == 100


def test_refused_points_are_rows_that_say_why():
    rows = sweep("fourier", [10, 64], [5])
    assert rows[0].ok and rows[0].accuracy == 1.0
    refused = rows[1]
    assert not refused.ok and refused.accuracy is None and "C(64,5) = 7,624,512 subsets" in refused.note
    assert largest_solved(rows, 5) == 10
    capped = sweep("sgd", [100], [3])[0]
    assert not capped.ok and "n=100 is above sgd's limit of n ≤ 64" in capped.note


def test_grid_limits_and_unknown_names():
    with pytest.raises(BadParameter) as err:
        sweep("km", list(range(2, 100)), [1, 2, 3])
    assert f"the limit is {MAX_POINTS}" in err.value.one_line()
    with pytest.raises(BadParameter):
        sweep("km", [], [3])
    with pytest.raises(UnknownName) as unknown:
        sweep("kmm", [20], [3])
    assert "did you mean 'km'" in unknown.value.one_line()
