"""The baseline behind "vs baseline": the built-in baseline program of an IR challenge (values:
docs/challenges.md#published-figures), sgd run with the same parameters for a sparse-parity method, nothing for anything
else."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.context import AppContext
from bot.core.baselines import baseline_metrics, builtin_baseline_metrics
from bot.core.recording import store_result
from bot.settings import Settings
from engine.result import RunResult
from storage.runs import get_run
from tools.run_request import NormalisedRequest


@pytest.mark.parametrize(
    ("challenge", "published"),
    [("matmul_4x4", 1316), ("matmul_16x16", 340704), ("sparse_parity_small", 6918), ("sparse_parity_medium", 816251)],
)
def test_ir_baselines_are_the_published_baseline_costs(challenge: str, published: int) -> None:
    assert builtin_baseline_metrics(challenge) == {"dally@1": float(published)}  # docs/challenges.md#published-figures


def test_the_numpy_track_has_no_builtin_program() -> None:
    assert builtin_baseline_metrics("sparse_parity") == {}


@pytest.fixture
def ctx(tmp_path: Path) -> AppContext:
    return AppContext(settings=Settings(_env_file=None, data_dir=tmp_path / "data"))  # type: ignore[call-arg]


def _store(ctx: AppContext, subject: str, params: dict[str, int], dmc: float, *, kind: str = "method") -> int:
    result = RunResult(
        challenge="sparse_parity", subject=subject, kind=kind, ok=True, metrics={"dmc@1": dmc}, params=params
    )
    request = NormalisedRequest("sparse_parity", kind, subject, params, None, ("dmc@1",))
    return store_result(ctx, result, request=request, member="ann").id


def test_a_method_is_compared_with_sgd_run_with_the_same_parameters(ctx: AppContext) -> None:
    _store(ctx, "sgd", {"n": 20, "k": 3, "seed": 0}, 1000.0)
    _store(ctx, "sgd", {"n": 30, "k": 3, "seed": 0}, 5000.0)
    same = _store(ctx, "local_update", {"n": 20, "k": 3, "seed": 0}, 900.0)
    other_seed = _store(ctx, "local_update", {"n": 20, "k": 3, "seed": 1}, 950.0)
    solve = _store(ctx, "my solve", {"n": 20, "k": 3, "seed": 0}, 10.0, kind="solve")
    sgd_itself = _store(ctx, "sgd", {"n": 20, "k": 3, "seed": 0, "lr": 1}, 990.0)
    with ctx.sessions()() as session:
        assert baseline_metrics(session, get_run(session, run_id=same)) == {"dmc@1": 1000.0}
        assert baseline_metrics(session, get_run(session, run_id=other_seed)) == {}  # sgd never ran on seed 1
        assert baseline_metrics(session, get_run(session, run_id=solve)) == {}
        assert baseline_metrics(session, get_run(session, run_id=sgd_itself)) == {}
