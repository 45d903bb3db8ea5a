"""The baseline behind "vs baseline": the built-in baseline program of an IR challenge (values:
docs/challenges.md#published-figures), sgd run with the same parameters for a training method, the reference method
on the same instance and seeds for a solver, nothing for a submission; the system's baseline is its own record."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.context import AppContext
from bot.core.baselines import Baseline, baseline_metrics, baseline_of, baseline_request, builtin_baseline_metrics
from bot.core.method_request import MethodRequest
from bot.core.recording import store_result
from bot.settings import Settings
from engine.result import RunResult
from storage.runs import get_run
from storage.scores import scored_runs
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
def ctx(tmp_path: Path, migrated_data_dir: Callable[[Path], Path]) -> AppContext:
    return AppContext(settings=Settings(_env_file=None, data_dir=migrated_data_dir(tmp_path / "data")))  # type: ignore[call-arg]


def _store(
    ctx: AppContext, subject: str, params: dict[str, Any], dmc: float, *, kind: str = "method", role: str = "member"
) -> int:
    """Store a result of ``subject`` with ``params`` validated and defaulted as a real run's are."""
    if kind == "method":
        request = MethodRequest.parse(subject, params, role=role).stored
    else:
        request = NormalisedRequest("sparse_parity", kind, subject, params, None, ("dmc@1",))
    result = RunResult(
        challenge="sparse_parity", subject=subject, kind=kind, ok=True, metrics={"dmc@1": dmc}, params=request.params
    )
    return store_result(ctx, result, request=request, member="(system)" if role == "baseline" else "ann").id


def _baseline(ctx: AppContext, run_id: int, reference: str = "sgd") -> Baseline | None:
    with ctx.sessions()() as session:
        return baseline_of(session, get_run(session, run_id=run_id), reference=reference)


def test_a_training_method_is_compared_with_sgd_run_with_the_same_parameters(ctx: AppContext) -> None:
    _store(ctx, "sgd", {"n": 20, "k": 3, "seed": 0}, 1000.0)
    _store(ctx, "sgd", {"n": 30, "k": 3, "seed": 0}, 5000.0)
    same = _store(ctx, "local_update", {"n": 20, "k": 3, "seed": 0}, 900.0)
    other_seed = _store(ctx, "local_update", {"n": 20, "k": 3, "seed": 1}, 950.0)
    other_lr = _store(ctx, "local_update", {"n": 20, "k": 3, "seed": 0, "lr": 0.5}, 950.0)
    solve = _store(ctx, "my solve", {"n": 20, "k": 3, "seed": 0}, 10.0, kind="solve")
    sgd_itself = _store(ctx, "sgd", {"n": 20, "k": 3, "seed": 0, "lr": 1}, 990.0)
    with ctx.sessions()() as session:
        assert baseline_metrics(session, get_run(session, run_id=same)) == {"dmc@1": 1000.0}
        assert baseline_metrics(session, get_run(session, run_id=other_seed)) == {}  # sgd never ran on seed 1
        assert baseline_metrics(session, get_run(session, run_id=other_lr)) == {}  # nor with lr=0.5
        assert baseline_metrics(session, get_run(session, run_id=solve)) == {}
        assert baseline_metrics(session, get_run(session, run_id=sgd_itself)) == {}


def test_the_systems_baseline_is_its_own_record_and_is_preferred(ctx: AppContext) -> None:
    member_sgd = _store(ctx, "sgd", {"n": 20, "k": 3, "seed": 0}, 1000.0)
    system_sgd = _store(ctx, "sgd", {"n": 20, "k": 3, "seed": 0}, 1010.0, role="baseline")
    assert system_sgd != member_sgd  # the same request asked by the system is stored apart from the member's
    mine = _store(ctx, "local_update", {"n": 20, "k": 3, "seed": 0}, 900.0)
    baseline = _baseline(ctx, mine)
    assert baseline is not None and (baseline.name, baseline.run_id, baseline.metrics) == (
        "sgd",
        system_sgd,
        {"dmc@1": 1010.0},
    )
    with ctx.sessions()() as session:
        run = get_run(session, run_id=system_sgd)
        assert (run.member.name, run.role) == ("(system)", "baseline")
        board = [s.run_id for s in scored_runs(session, challenge="sparse_parity", metric="dmc@1")]
    assert system_sgd not in board and member_sgd in board  # a baseline is on no board


def test_a_solver_is_compared_with_the_reference_method_on_its_instance_and_seeds(ctx: AppContext) -> None:
    reference = _store(ctx, "sgd", {"n": 20, "k": 3, "seeds": "42,123,456"}, 3000.0, role="baseline")
    _store(ctx, "sgd", {"n": 20, "k": 3, "seed": 42}, 2000.0, role="baseline")  # another seed set: not it
    solver = _store(ctx, "gf2", {"n": 20, "k": 3, "seeds": "42,123,456", "m": 300}, 30.0)
    baseline = _baseline(ctx, solver)
    assert baseline is not None and (baseline.run_id, baseline.metrics) == (reference, {"dmc@1": 3000.0})
    assert _baseline(ctx, solver, reference="local_update") is None  # the admins chose another reference, not run
    assert _baseline(ctx, _store(ctx, "gf2", {"n": 100, "k": 3, "seed": 1}, 5.0)) is None  # sgd stops at n=64


def test_a_solvers_baseline_runs_on_the_same_instance_as_the_registry_defines_it() -> None:
    """threshold's t is part of its instance (engine.challenges.instance_params): the sgd baseline of a solver run
    on threshold at t=1 runs on threshold at t=1, not on another task or at the task's default t=2."""
    params = MethodRequest.parse("fourier", {"task": "threshold", "t": "1", "seed": "4"}).params
    request = baseline_request("threshold", "method", "fourier", params)
    assert request is not None and request.name == "sgd"
    assert (request.challenge, request.params["t"], request.params["n"]) == ("threshold", 1, 20)
    # before: the stored request names its task only as its challenge, and the baseline ran on sparse parity


def test_the_baseline_program_itself_has_no_baseline_but_a_submission_labelled_baseline_has(ctx: AppContext) -> None:
    def stored(params: dict[str, Any]) -> int:
        request = NormalisedRequest("matmul_4x4", "generate", "baseline", params, "text", ("dally@1",))
        result = RunResult(
            challenge="matmul_4x4",
            subject="baseline",
            kind="generate",
            ok=True,
            metrics={"dally@1": 1316.0},
            params=params,
        )
        return store_result(ctx, result, request=request, member="ann").id

    builtin = stored({"generator": "baseline"})  # what `run matmul_4x4 baseline` stores
    member = stored({})  # a member's generate() that happens to be labelled "baseline"
    assert _baseline(ctx, builtin) is None
    assert _baseline(ctx, member) == Baseline("baseline program", {"dally@1": 1316.0})  # published 1,316
