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


def test_bytedmd_is_version_2_the_version_that_prices_scalar_times_array_as_the_reference() -> None:
    """``bytedmd@1`` priced ``c * A`` 12 where the group's tracer charges 8 (docs/metrics.md#bytedmd-versions);
    the metric whose number changed carries the new version. Oracle: the reference tracer's own depths for that
    case, frozen in tests/data/reference_outputs.json."""
    import json
    from pathlib import Path

    from engine.metrics.bytedmd import BYTEDMD, bytedmd, ceil_sqrt
    from tests.engine.differential_cases import BYTEDMD_CASES

    frozen = json.loads((Path(__file__).parents[1] / "data" / "reference_outputs.json").read_text())
    func, make_args = BYTEDMD_CASES["scalar_times_array"]
    assert BYTEDMD == "bytedmd@2"
    assert "bytedmd@2" in metrics_for("numpy", "method") and "bytedmd@1" not in track_metrics("numpy")
    assert bytedmd(func, make_args()) == sum(map(ceil_sqrt, frozen["bytedmd_depths"]["scalar_times_array"])) == 8
