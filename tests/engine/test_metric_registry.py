"""The metric registry says what each kind of run computes; the engine's runs compute exactly that."""

from __future__ import annotations

import pytest

from engine.challenges import CHALLENGES
from engine.methods import run_method
from engine.metrics.registry import REGISTRY, metrics_for, track_metrics
from engine.scoring.ir import score_ir


def test_an_ir_program_is_priced_in_the_registered_metric() -> None:
    result = score_ir("matmul_1x1", "1,2\nmul 3,1,2\n3", seeds=(0,))
    assert tuple(result.metrics) == metrics_for("ir", "ir") == ("dally@1",)
    assert result.metrics["dally@1"] == 1 + 2 + 2  # reads of 1 and 2 (⌈√1⌉ + ⌈√2⌉), output 3 read once (⌈√3⌉)


def test_a_training_method_computes_every_registered_method_metric() -> None:
    result = run_method("sgd", {"n": "12", "k": "3", "seed": "1", "epochs": "2"})
    assert set(result.metrics) == set(metrics_for("numpy", "method"))


def test_every_challenge_primary_metric_is_one_its_track_computes() -> None:
    for challenge in CHALLENGES:
        assert challenge.primary_metric in track_metrics(challenge.track), challenge.name


def test_unknown_pairs_are_refused() -> None:
    with pytest.raises(KeyError):
        metrics_for("ir", "method")
    assert {(e.track, e.kind) for e in REGISTRY} == {
        ("ir", "ir"),
        ("ir", "generate"),
        ("numpy", "method"),
        ("numpy", "solve"),
    }
