"""Sweeps over n and k: typed rows in grid order, refused points become rows with the reason, the largest n solved,
grid limits in one line. Oracle: the solvers' known behaviour (km_min solves any n; fourier's scan limit is
C(n, k) ≤ 100,000, so n=64, k=5 is refused), the training cap n ≤ 64, and grids enumerated by hand."""

from __future__ import annotations

import pytest

from engine.errors import BadParameter, UnknownName
from engine.methods.sweep import MAX_POINTS, Grid, largest_solved, sweep, sweep_grid


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
    capped = sweep("sgd", [100], [3], params={"epochs": "5"})[0]  # its own parameter named: past the reach rule
    assert not capped.ok and "n=100 is above sgd's limit of n ≤ 64" in capped.note
    beyond = sweep("sgd", [50], [3])[0]  # at the defaults: refused by the reach rule, with an n that passes
    assert not beyond.ok and "sgd's defaults do not solve n=50 k=3" in beyond.note and "set n=20" in beyond.note


def test_grid_limits_and_unknown_names():
    with pytest.raises(BadParameter) as err:
        sweep("km", list(range(2, 100)), [1, 2, 3])
    assert f"the limit is {MAX_POINTS}" in err.value.one_line()
    with pytest.raises(BadParameter):
        sweep("km", [], [3])
    with pytest.raises(UnknownName) as unknown:
        sweep("kmm", [20], [3])
    assert "did you mean 'km'" in unknown.value.one_line()


def test_a_grid_sweeps_the_keys_given_several_values_in_order():
    grid = Grid.parse({"lr": "0.03,0.1,0.3", "n": "20", "seeds": "0,1", "k": "3,3"})
    assert grid.axes == (("lr", ("0.03", "0.1", "0.3")), ("seed", ("0", "1")))  # k=3,3 is one value: fixed
    assert grid.fixed == (("n", "20"), ("k", "3")) and grid.size == 6 and grid.keys == ("lr", "seed")
    points = grid.points()  # the product by hand, the last axis fastest
    assert [(p["lr"], p["seed"]) for p in points] == [
        ("0.03", "0"),
        ("0.03", "1"),
        ("0.1", "0"),
        ("0.1", "1"),
        ("0.3", "0"),
        ("0.3", "1"),
    ]
    assert all(p["n"] == "20" and p["k"] == "3" for p in points)
    assert Grid.parse({"n": "20"}).size == 1 and Grid.parse({}).points() == [{}]


def test_grid_values_and_size_are_checked_in_one_line():
    with pytest.raises(BadParameter) as empty:
        Grid.parse({"n": "20,,30"})
    assert "n=20,,30 has an empty value" in empty.value.one_line()
    grid = Grid.parse({"n": ",".join(str(n) for n in range(2, 22)), "k": "1,2"})
    grid.check(40)
    with pytest.raises(BadParameter) as over:
        grid.check(39)
    assert "the sweep grid has 40 points (20 n × 2 k) — the limit is 39" in over.value.one_line()


def test_sweep_grid_rows_carry_their_coordinates():
    rows = sweep_grid("gf2", Grid.parse({"n": "12", "seed": "1,2"}))
    assert [r.point for r in rows] == [(("seed", "1"),), (("seed", "2"),)]
    assert [(r.n, r.k, r.seed) for r in rows] == [(12, 3, 1), (12, 3, 2)] and all(r.ok for r in rows)
