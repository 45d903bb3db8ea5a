"""Defaults one size up (issue 28): every built-in method, at n ∈ {20, 50, 100} and k ∈ {3, 5}, either takes a run with
its defaults (scaled to the instance by the stated rule) or is refused before it runs in one line that names n or k
and a value that passes. Oracles: the counts C(n, r) worked by hand for the scan limits; the scaling rule's stated
formula; the measured table (bench/defaults_reach.py), re-checked here by running each method once at its largest
claimed passing instance (slow)."""

from __future__ import annotations

import math
import re

import pytest

from engine.challenges.sparse_tasks import TASKS
from engine.errors import BadParameter
from engine.methods import METHODS, method_defaults, method_values, run_method
from engine.methods.params import MAX_SUBSETS, fitting_sizes
from engine.methods.reach import FAILS_AT, PASSES_AT, scaled_defaults

MATRIX = [(n, k) for n in (20, 50, 100) for k in (3, 5)]
SEED = 42  # the first of the default seeds (42, 123, 456)


def _refusal(name: str, params: dict[str, str]) -> str | None:
    """The one-line refusal of a run of ``name`` with ``params`` at request time, or None when it is taken."""
    try:
        method_values(name, params)
    except BadParameter as err:
        return err.one_line()
    return None


def test_every_method_at_every_size_is_taken_or_refused_in_one_line_naming_what_passes() -> None:
    for method in METHODS:
        for n, k in MATRIX:
            line = _refusal(method.name, {"n": str(n), "k": str(k)})
            dominated = any(n >= a and k >= b for a, b in FAILS_AT.get(method.name, ()))
            if line is None:
                assert not dominated, (method.name, n, k)
                continue
            assert "\n" not in line, line
            if dominated:
                # the reach rule: names n and/or k with a value measured to pass, and how to run it anyway
                suggested = re.search(r"set (n=(\d+))? ?(k=(\d+))? \(passes with the defaults\)", line)
                assert suggested is not None, line
                a = int(suggested.group(2)) if suggested.group(2) else n
                b = int(suggested.group(4)) if suggested.group(4) else k
                assert (a, b) in PASSES_AT[method.name], line
                assert f"name {method.name}'s own parameters" in line
            else:  # the method's own cap on n, which names the largest n it takes
                assert f"above {method.name}'s limit of n ≤ {method.n_limit}" in line, line


def test_the_table_is_consistent() -> None:
    for name in {*FAILS_AT, *PASSES_AT}:
        assert name in METHODS, name
        for a, b in PASSES_AT[name]:  # nothing claimed to pass is at least as large as a measured failure
            assert not any(a >= c and b >= d for c, d in FAILS_AT[name]), (name, a, b)


def test_gf2_rows_scale_with_n_and_stay_the_groups_at_the_standard_instance() -> None:
    # the rule: m = max(200, 8·(n+1)) — eight blocks of n+1 rows
    assert method_values("gf2", {})[1]["m"] == 200  # n=20: 8·21 = 168 < 200
    assert method_values("gf2", {"n": "50"})[1]["m"] == 408
    assert method_values("gf2", {"n": "100", "k": "5"})[1]["m"] == 808
    assert method_values("gf2", {"n": "100", "m": "300"})[1]["m"] == 300  # a member's m is kept
    assert scaled_defaults("gf2", 100, 3) == {"m": 808} and scaled_defaults("sgd", 100, 3) == {}
    assert method_defaults("gf2", {"n": 100}) == method_values("gf2", {"n": "100"})[1]
    sparse_sum = TASKS.get("sparse_sum")  # a task's own rows (the group's 1,000) are not replaced
    assert "m" in sparse_sum.defaults


def test_naming_a_parameter_of_its_own_or_another_task_runs_as_asked() -> None:
    assert _refusal("sgd", {"n": "50"}) is not None
    assert _refusal("sgd", {"n": "50", "epochs": "400"}) is None  # a deliberate experiment
    assert _refusal("sgd", {"n": "50", "task": "sparse_and"}) is None  # the table was measured on sparse parity
    assert _refusal("forward_forward", {"seed": "3"}) is not None  # its defaults fail at the standard instance
    assert "set n=3 (passes with the defaults)" in (_refusal("forward_forward", {}) or "")
    assert method_defaults("sgd", {"n": 50})["m"] == 1000  # what "not at its default" is measured against


def test_scan_limits_name_the_n_and_k_that_fit() -> None:
    # C(85,3) = 98,770 ≤ 100,000 < C(86,3) = 102,340; C(100,2) = 4,950; C(28,5) = 98,280 < C(29,5) = 118,755
    assert math.comb(85, 3) == 98_770 and math.comb(86, 3) == 102_340 and math.comb(29, 5) == 118_755
    assert fitting_sizes(100, 3, MAX_SUBSETS) == "set n=85 (at k=3) or k=2 (at n=100)"
    assert fitting_sizes(50, 5, MAX_SUBSETS) == "set n=28 (at k=5) or k=3 (at n=50)"
    # smt scans (k−1)-subsets: C(40,4) = 91,390 ≤ 100,000 < C(41,4) = 101,270
    assert fitting_sizes(50, 4, MAX_SUBSETS, k_minus_r=1) == "set n=40 (at k=5) or k=4 (at n=50)"
    for name, n, k, words in (
        ("fourier", 100, 3, "set n=85 (at k=3) or k=2 (at n=100)"),
        ("smt", 100, 5, "set n=40 (at k=5) or k=3 (at n=100)"),
        ("lasso", 100, 3, "the limit is 20,000: set n=50 (at k=3) or k=2 (at n=100)"),
    ):
        with pytest.raises(BadParameter) as err:
            run_method(name, {"n": str(n), "k": str(k), "seed": str(SEED)}, attribution=False)
        assert words in err.value.one_line() and "\n" not in err.value.one_line()


def _claimed_passes(name: str) -> list[tuple[int, int]]:
    """The instances of the matrix a method's defaults are claimed to pass, largest first: its table entry, else
    every instance taken at request time (those its scan limit refuses are refused when they run)."""
    if name in PASSES_AT:
        return sorted((p for p in PASSES_AT[name] if p in MATRIX), reverse=True) or [PASSES_AT[name][0]]
    return sorted(((n, k) for n, k in MATRIX if _refusal(name, {"n": str(n), "k": str(k)}) is None), reverse=True)


@pytest.mark.slow
@pytest.mark.parametrize("name", METHODS.names())
def test_each_method_passes_at_its_largest_claimed_instance(name: str) -> None:
    """Seed 42, the largest claimed instance that is not over the method's scan limit (each over it is refused in
    one line naming an n that fits)."""
    for n, k in _claimed_passes(name):
        try:
            result = run_method(name, {"n": str(n), "k": str(k), "seed": str(SEED)}, attribution=False)
        except BadParameter as err:
            line = err.one_line()
            assert "the limit is" in line and "set n=" in line and "\n" not in line, line
            continue
        assert result.ok and result.accuracy >= 0.95, (name, n, k, result.accuracy)
        return
    pytest.fail(f"{name}: no instance of the matrix runs")
