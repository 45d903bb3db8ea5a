"""The core's recording rules: each value stored once, old rows still read, a limit failure superseded, its own
verdict reused."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot.context import AppContext
from bot.core.recording import record_once, result_of, store_result
from bot.core.stored_result import COLUMNS
from bot.settings import Settings
from engine.result import FailureKind, Provenance, RunResult
from storage.runs import get_run
from storage.tables import Run
from tools.run_request import NormalisedRequest


@pytest.fixture
def ctx(tmp_path: Path, migrated_data_dir: Callable[[Path], Path]) -> AppContext:
    return AppContext(settings=Settings(_env_file=None, data_dir=migrated_data_dir(tmp_path / "data")))  # type: ignore[call-arg]


def _full_result() -> RunResult:
    return RunResult(
        challenge="sparse_parity",
        subject="local_update",
        kind="method",
        ok=False,
        params={"n": 20, "k": 3},
        seeds=[7],
        accuracy=0.5,
        failure="accuracy 0.500 < 0.95",
        failure_kind=FailureKind.WRONG_ANSWER,
        metrics={"dmc@1": 12.5, "bytedmd@1": 40.0},
        metric_scopes={"dmc@1": "whole run", "bytedmd@1": "one step"},
        wall_s=0.25,
        counts={"events": 10, "steps": 2, "epochs": 1},
        per_step={"ard@1 (one step)": 3.5},
        secret=[1, 4, 9],
        found=[1, 4, 8],
        method_kind="training",
        note="stopped early",
        provenance=Provenance(judged_by="method", sandbox="engine code"),
    )


def test_each_value_is_stored_once_and_reads_back_whole(ctx: AppContext) -> None:
    result = _full_result()
    request = NormalisedRequest("sparse_parity", "method", "local_update", {"n": 20, "k": 3}, None, ("dmc@1",))
    stored = store_result(ctx, result, request=request, member="ann")
    with ctx.sessions()() as session:
        run = get_run(session, run_id=stored.id)
    assert not set(run.result) & set(COLUMNS)  # the JSON detail repeats no column
    assert run.accuracy == 0.5 and run.failure == "accuracy 0.500 < 0.95"  # the columns hold those
    assert result_of(run) == result  # and the whole result comes back (round trip)


def test_a_row_of_the_old_shape_still_reads() -> None:
    """Rows stored before the typed fields: the full result dict, the detail in ``extra``, no failure kind."""
    old = {
        "challenge": "matmul_4x4",
        "subject": "mine",
        "kind": "generate",
        "ok": False,
        "failure": "your generate() failed: CPU time limit (5 s) exceeded",
        "metrics": {},
        "metric_scopes": {},
        "extra": {"sandbox_tier": "B", "sandbox": "bubblewrap + rlimits", "review_flags": ["uses eval"]},
    }
    run = Run(
        challenge="matmul_4x4",
        kind="generate",
        subject="mine",
        ok=False,
        failure=old["failure"],
        engine_version="0.0.9",
        result=old,
        request_key="k",
        member_id=1,
    )
    result = result_of(run)
    assert result.failure_kind is FailureKind.LIMIT
    assert result.provenance == Provenance(
        judged_by="generate", sandbox_tier="B", sandbox="bubblewrap + rlimits", review_flags=["uses eval"]
    )
    assert result.engine_version == "0.0.9"  # the column wins over the code's current version
    method_row = {"ok": True, "extra": {"per_step": {"dmc@1 (run mean)": 2.0}, "secret": [0, 1], "found": [0, 1]}}
    method = RunResult.from_dict({"challenge": "sparse_parity", "subject": "sgd", "kind": "method", **method_row})
    assert method.per_step == {"dmc@1 (run mean)": 2.0} and method.found == method.secret == [0, 1]


@pytest.mark.parametrize(
    ("kind", "computed_again"),
    [(FailureKind.LIMIT, True), (FailureKind.WRONG_ANSWER, False), (FailureKind.ERROR, False)],
)
def test_only_a_limit_failure_is_judged_again(ctx: AppContext, kind: FailureKind, computed_again: bool) -> None:
    request = NormalisedRequest("matmul_4x4", "ir", "mine", {}, "1,2\nmul 3,1,2\n3", ("dally@1",))
    calls: list[int] = []

    def failing() -> RunResult:
        calls.append(1)
        # the same English for every kind: the decision must follow the kind, not the words
        return RunResult(
            challenge="matmul_4x4",
            subject="mine",
            kind="ir",
            ok=False,
            failure="limit (5 s) exceeded",
            failure_kind=kind,
        )

    first = record_once(ctx, request, failing, member="ann")
    second = record_once(ctx, request, failing, member="ann")
    assert len(calls) == (2 if computed_again else 1)
    assert second.stored.reused is not computed_again
    if computed_again:
        with ctx.sessions()() as session:
            assert get_run(session, run_id=first.stored.id).status == "superseded"
            assert get_run(session, run_id=second.stored.id).status == "active"


def test_a_run_stored_under_bytedmd_1_keeps_its_version_and_is_not_reused_as_bytedmd_2(ctx: AppContext) -> None:
    """After the bytedmd@1 → @2 bump (docs/metrics.md#bytedmd-versions) a stored run still reads back under the name
    and value it was stored with, and today's request for the same method run has another identity (so it is run
    again under @2 rather than served the @1 figure)."""
    from bot.core.run_method import METHOD_METRICS

    old_versions = tuple("bytedmd@1" if m == "bytedmd@2" else m for m in METHOD_METRICS)
    assert old_versions != METHOD_METRICS  # the registry asks for @2 now
    old = NormalisedRequest("sparse_parity", "method", "local_update", {"n": 20, "k": 3}, None, old_versions)
    stored = store_result(ctx, _full_result(), request=old, member="ann")
    with ctx.sessions()() as session:
        back = result_of(get_run(session, run_id=stored.id))
    assert back.metrics["bytedmd@1"] == 40.0 and "bytedmd@2" not in back.metrics
    assert back.metric_scopes["bytedmd@1"] == "one step"
    today = NormalisedRequest("sparse_parity", "method", "local_update", {"n": 20, "k": 3}, None, METHOD_METRICS)
    assert today.key != old.key
