"""Shared checks for the method tests: a method run on plain (untracked) arrays, for the invariant that tracing
changes no numbers, and the metric panel every traced training run must carry."""

from __future__ import annotations

import math

import numpy as np

from engine.challenges.sparse_parity import SparseParityData, make_instance
from engine.methods import METHODS, run_method
from engine.methods.method import Outcome, Problem
from engine.methods.params import parse_params
from engine.result import RunResult
from engine.tracing import EventLog, TrackedRandom


def instance_of(name: str, params: dict[str, int]) -> tuple[dict[str, int | float], SparseParityData]:
    """The validated parameters and the instance the runner builds for them."""
    method = METHODS.get(name)
    values = parse_params({k: str(v) for k, v in params.items()}, method.defaults)
    if method.instance is not None:
        return values, method.instance(values)
    n, k, m, seed = int(values["n"]), int(values["k"]), int(values.get("m", 100)), int(values["seed"])
    return values, make_instance(n, k, m, seed)


def plain_outcome(name: str, params: dict[str, int]) -> tuple[Outcome, SparseParityData]:
    """The method run on untracked arrays (its random draws from ``seed + 1``, as the runner seeds them), and the
    instance it ran on."""
    values, data = instance_of(name, params)
    log = EventLog()
    problem = Problem(
        x=data.x_train.copy(),
        y=data.y_train.copy(),
        n=int(values["n"]),
        k=int(values["k"]),
        params=values,
        rng=TrackedRandom(int(values["seed"]) + 1, log),
        log=log,
        secret=data.secret,
    )
    return METHODS.get(name).run(problem), data


def plain_run(name: str, params: dict[str, int]) -> tuple[int, np.ndarray]:
    """The method on untracked arrays: (steps, predictions on the instance's test rows)."""
    outcome, data = plain_outcome(name, params)
    assert outcome.predict is not None
    return outcome.steps, outcome.predict(data.x_test)


def check_metrics(result: RunResult) -> None:
    """ard, ard per read, dmc, dmd (whole run) and bytedmd (one step) are finite and positive; dmd of one step
    stands beside them."""
    for key in ("ard@1", "ard_per_read@1", "dmc@1", "bytedmd@2", "dmd@1"):
        value = result.metrics[key]
        assert math.isfinite(value) and value > 0, (key, value)
    assert result.metric_scopes["bytedmd@2"] == "one step"
    assert result.metric_scopes["dmc@1"] == result.metric_scopes["dmd@1"] == "whole run"
    assert result.per_step["dmd@1 (one step)"] > 0


def check_tracing_changes_nothing(name: str, params: dict[str, int]) -> RunResult:
    """The traced run and the plain run take the same steps and score the same test accuracy."""
    traced = run_method(name, {k: str(v) for k, v in params.items()})
    steps, predictions = plain_run(name, params)
    _, data = instance_of(name, params)
    assert traced.counts["steps"] == steps
    assert traced.accuracy == float(np.mean(predictions == data.y_test))
    check_metrics(traced)
    return traced


def check_docstring(name: str) -> None:
    """The module docstring states the idea, the parameters and the source."""
    module = __import__(f"engine.methods.{name}", fromlist=["METHOD"])
    doc = module.__doc__ or ""
    assert "Idea:" in doc and "Parameters:" in doc and "Source:" in doc, name
