"""Sparse-parity methods: every built-in solves n=20, k=3 on seeds 0–4; parameter errors are one line with the
valid range; local_update moves less data per step than sgd on the same seed (docs/challenges.md#built-in-methods)."""

from __future__ import annotations

import pytest

from engine.errors import BadParameter, UnknownName
from engine.methods import METHODS, run_method

SOLVERS = ["gf2", "km", "km_min", "fourier", "smt"]


@pytest.mark.slow
@pytest.mark.parametrize("name", SOLVERS)
def test_solvers_reach_full_accuracy(name):
    for seed in range(5):
        result = run_method(name, {"n": "20", "k": "3", "seed": str(seed)})
        assert result.accuracy == 1.0, (name, seed)
        assert result.found == result.secret
        assert result.metrics["dmc@1"] > 0 and result.metric_scopes["dmc@1"] == "whole run"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["sgd", "local_update"])
def test_training_methods_reach_full_accuracy(name):
    for seed in range(5):
        result = run_method(name, {"seed": seed})
        assert result.accuracy == 1.0, (name, seed)


@pytest.mark.slow
def test_local_update_moves_less_per_step_than_sgd_and_same_arithmetic():
    sgd = run_method("sgd", {"seed": 1, "epochs": 3})
    local = run_method("local_update", {"seed": 1, "epochs": 3})
    assert local.accuracy == sgd.accuracy  # identical arithmetic, only the memory order differs
    assert local.per_step["ard@1 (one step)"] < sgd.per_step["ard@1 (one step)"]
    assert local.metrics["ard@1"] < sgd.metrics["ard@1"]  # whole run too (same number of steps)
    assert local.metrics["dmc@1"] < sgd.metrics["dmc@1"]
    assert local.metric_scopes["bytedmd@2"] == "one step"
    assert local.metrics["bytedmd@2"] < sgd.metrics["bytedmd@2"]


def test_registry_and_docstrings():
    assert {"sgd", "local_update", "gf2", "km", "km_min", "fourier", "smt"} <= set(METHODS.names())
    for name in METHODS.names():
        module = __import__(f"engine.methods.{name}", fromlist=["METHOD"])
        doc = (module.__doc__ or "").lower()
        assert "source" in doc and "idea" in doc


@pytest.mark.parametrize(
    ("params", "fragment"),
    [
        ({"n": "abc"}, "n: int in [2, 256]"),
        ({"k": "0"}, "k: int in [1, 8]"),
        ({"n": "10000"}, "n: int in [2, 256]"),
        ({"n": "300"}, "n: int in [2, 256]"),
        ({"n": "4", "k": "5"}, "k must lie in [1, min(8, n=4)]"),
    ],
)
def test_bad_values_are_one_line_with_range(params, fragment):
    with pytest.raises(BadParameter) as err:
        run_method("gf2", params)
    line = err.value.one_line()
    assert "\n" not in line and fragment in line


def test_unknown_method_and_key_suggest():
    with pytest.raises(UnknownName) as err:
        run_method("sgdd", {})
    assert "did you mean 'sgd'" in err.value.one_line()
    with pytest.raises(UnknownName) as err:
        run_method("sgd", {"hiden": "10"})
    line = err.value.one_line()
    assert "did you mean 'hidden'" in line and "valid keys:" in line and "epochs" in line


def test_enumerations_too_large_are_refused_before_running():
    for name in ("fourier", "smt"):
        with pytest.raises(BadParameter) as err:
            run_method(name, {"n": "64", "k": "8"})
        line = err.value.one_line()
        assert "subsets" in line and "limit is 100,000" in line


def test_solvers_scale_past_64_bits_and_training_methods_say_their_cap():
    # The solvers' work grows gently with n: gf2 (blocks of n+1 rows, each full rank with probability ~0.6-0.8)
    # and km_min (2 queries per bit) solve n=200.
    for name, params in (("gf2", {"n": "200", "m": "1000"}), ("km_min", {"n": "200"})):
        result = run_method(name, {**params, "k": "3", "seed": "5"})
        assert result.accuracy == 1.0 and result.found == result.secret, name
    with pytest.raises(BadParameter) as err:
        run_method("gf2", {"n": "200", "m": "200"})  # its default m scales with n (8 blocks: 1,608 rows here)
    assert "gf2 needs at least n+1 = 201 training rows, m=200" in err.value.one_line()
    with pytest.raises(BadParameter) as err:
        run_method("sgd", {"n": "100", "epochs": "5"})  # a parameter of its own named: past the reach rule
    line = err.value.one_line()
    assert "n=100 is above sgd's limit of n ≤ 64" in line and "gf2" in line
