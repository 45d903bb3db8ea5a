"""A judged solve() against the best built-in solver on the same hidden instances, run and stored by the system.

Oracles: the rule run exhaustively (every solver on every instance, then the lowest mean among those that solve
all) against the pruned search; each solver's figures traced directly on the instances rebuilt from the recorded
seeds; the verdict rule of docs/verdicts.md worked by hand on hand-set per-instance values (a tenth of the
baseline's on every instance is a WIN, the same values INCONCLUSIVE: a change of zero).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from bot.context import AppContext
from bot.core.baselines import SOLVE_METRICS, ranking_metric, solve_baseline_request
from bot.core.comparison import compare
from bot.core.judging import Submission, judge
from bot.core.recording import store_result
from bot.core.solve_baseline import ensure_solve_baseline
from bot.core.verdict import Outcome
from bot.settings import Settings
from engine.methods import METHODS, on_instances
from engine.methods.on_instances import best_solver, solver_on_instances
from engine.result import RunResult
from engine.sandbox.judge import HIDDEN_INSTANCES, hidden_instance, instance_data
from engine.sandbox.tier import probe_tier
from storage.runs import count_runs, get_run
from tests.engine.sandbox.conftest import submission
from tools.run_request import NormalisedRequest

SEEDS = [f"{s:032x}" for s in (11, 12, 13)]
SHAPE = {"n_bits": 20, "k_sparse": 3, "instances": 3, "n_train": 200, "n_test": 1000}


def test_a_recorded_seed_rebuilds_the_judged_instance() -> None:
    judged = hidden_instance(20, 3, 200, 1000, int(SEEDS[0], 16))
    rebuilt = instance_data(SEEDS[0], 20, 3, 200, 1000)
    assert rebuilt.secret == judged["secret"] and len(set(rebuilt.secret)) == 3
    assert np.array_equal(rebuilt.x_train, judged["x_train"]) and np.array_equal(rebuilt.y_test, judged["y_test"])
    assert np.array_equal(rebuilt.y_train, np.prod(rebuilt.x_train[:, rebuilt.secret], axis=1))  # the parity
    assert instance_data(SEEDS[1], 20, 3, 200, 1000).x_train.tolist() != rebuilt.x_train.tolist()


@pytest.mark.parametrize("primary", [*SOLVE_METRICS, "dally@1", None])
def test_the_solvers_are_ranked_by_a_metric_their_runs_hold(primary: str | None) -> None:
    # a solve() also reports bytedmd@2 and dmd@1; the solvers on its instances hold only what their traced runs give
    held = solver_on_instances(METHODS, "gf2", [instance_data(SEEDS[0], 20, 3, 200, 1000)], 20, 3).metrics[0]
    metric = ranking_metric(primary)
    assert metric in held
    assert metric == (primary if primary in held else "dmc@1")


@pytest.mark.slow
@pytest.mark.parametrize("metric", ["dmc@1", "ard@1"])
def test_the_pruned_search_picks_what_running_every_solver_picks(metric: str, monkeypatch: pytest.MonkeyPatch) -> None:
    instances = [instance_data(s, 20, 3, 200, 1000) for s in SEEDS]
    rankings = []
    # the defaults; 1.0: most solvers set aside on the first instance and run again, after scouting rounds from a
    # cap of 1; no first cap: the first solver in the registry's order sets the caps
    for scout, first_cap in ((on_instances.SCOUT_FACTOR, on_instances.FIRST_SCOUT_DMC), (1.0, 1.0), (8.0, math.inf)):
        monkeypatch.setattr(on_instances, "SCOUT_FACTOR", scout)
        monkeypatch.setattr(on_instances, "FIRST_SCOUT_DMC", first_cap)
        on_instances._TRACED.clear()  # the process's memory of traced runs: none of these may come from it
        rankings.append(best_solver(METHODS, instances, 20, 3, metric))
    everything = [solver_on_instances(METHODS, m.name, instances, 20, 3) for m in METHODS if m.kind == "solver"]
    solving = [r for r in everything if r.solves]
    expected = min(solving, key=lambda r: r.mean(metric))
    for ranked in rankings:
        got = ranked.best
        assert got is not None and (got.method, got.metrics) == (expected.method, expected.metrics)
        for run in ranked.tried:  # whoever the search stopped short would have cost more than the winner in the end
            full = next(r for r in everything if r.method == run.method)
            if full.solves and (run.stopped_over is not None or len(run.metrics) < len(instances)):
                assert full.mean(metric) > expected.mean(metric)
    # ranked by dmc@1 with a tight first-instance cap, runs are stopped inside an instance too
    assert any(run.stopped_over is not None for run in rankings[1].tried) == (metric == "dmc@1")
    refused = {r.method for r in everything if r.refused}
    assert refused == {"km", "km_min"}  # they ask membership queries, which a solve() cannot
    assert {r.method for r in solving} <= {m.name for m in METHODS if m.kind == "solver"} - refused


@pytest.fixture
def ctx(tmp_path: Path) -> AppContext:
    return AppContext(settings=Settings(_env_file=None, data_dir=tmp_path / "data"))  # type: ignore[call-arg]


def _stored_solve(ctx: AppContext, per_instance: list[float]) -> int:
    """A passing judged solve() as the judge stores it (its instances' seeds recorded), with these dmc values."""
    result = RunResult(
        challenge="sparse_parity",
        subject="mine",
        kind="solve",
        ok=True,
        params={**SHAPE, HIDDEN_INSTANCES: SEEDS},
        accuracy=1.0,
        metrics={"dmc@1": sum(per_instance) / len(per_instance)},
        per_instance_metrics=[{"dmc@1": v} for v in per_instance],
    )
    request = NormalisedRequest("sparse_parity", "solve", "mine", dict(SHAPE), f"x = {per_instance}", ("dmc@1",))
    base_id = ensure_solve_baseline(ctx, result, "dmc@1")
    assert base_id is not None
    return store_result(ctx, result, request=request, member="ann").id


@pytest.mark.slow
def test_the_baseline_is_the_systems_run_reused_and_judged_instance_by_instance(ctx: AppContext) -> None:
    instances = [instance_data(s, 20, 3, 200, 1000) for s in SEEDS]
    oracle = best_solver(METHODS, instances, 20, 3, "dmc@1").best
    assert oracle is not None
    direct = [m["dmc@1"] for m in solver_on_instances(METHODS, oracle.method, instances, 20, 3).metrics]
    cheaper = _stored_solve(ctx, [v / 10 for v in direct])
    with ctx.sessions()() as session:
        runs = count_runs(session)
    same = _stored_solve(ctx, direct)  # the same instances: the stored baseline is found, nothing runs again
    with ctx.sessions()() as session:
        assert count_runs(session) == runs + 1  # only the second submission was added
        request = solve_baseline_request({**SHAPE, HIDDEN_INSTANCES: SEEDS}, "dmc@1")
        assert request is not None
        [base] = [r for r in [get_run(session, run_id=i) for i in range(1, runs + 2)] if r.request_key == request.key]
        assert (base.subject, base.role, base.member.name) == (oracle.method, "baseline", "(system)")
        assert base.result["seed_metrics"]["dmc@1"] == direct  # the per-instance values, traced directly
        win = compare(session, get_run(session, run_id=cheaper), primary="dmc@1")
        tie = compare(session, get_run(session, run_id=same), primary="dmc@1")
    assert win.baseline is not None and win.baseline.label == f"best built-in solver {oracle.method} (#{base.id})"
    # docs/verdicts.md by hand, on log costs: the same instances on both sides, so the values pair instance by
    # instance; each per-instance log-ratio is ln(v / (v / 10)) = ln 10 = 2.302585, their spread 0, so the margin is
    # the minimum relative size ln 1.01 and the change ln 10 exceeds it
    assert win.versus_baseline is not None and win.versus_baseline.outcome is Outcome.WIN
    assert win.versus_baseline.paired
    assert win.versus_baseline.change == pytest.approx(2.302585, abs=1e-6)
    assert win.versus_baseline.margin == pytest.approx(math.log(1.01), rel=1e-12)
    assert tie.versus_baseline is not None and tie.versus_baseline.outcome is Outcome.INCONCLUSIVE


@pytest.mark.slow
def test_a_judged_solve_names_its_baseline_on_the_card_and_in_the_log(ctx: AppContext) -> None:
    if not probe_tier().runs_submissions:
        pytest.skip("this machine cannot run submissions")
    recorded = judge(ctx, Submission(code=submission("gf2_solve"), label="gf2 mine"), member="alice")
    assert recorded.result.ok and len(recorded.result.params[HIDDEN_INSTANCES]) == 3
    baseline = recorded.comparison.baseline
    assert baseline is not None and baseline.name.startswith("best built-in solver ")
    with ctx.sessions()() as session:
        stored = get_run(session, run_id=baseline.run_id)
        assert (stored.role, stored.member.name) == ("baseline", "(system)")
    from bot.commands.submission_card import submission_card

    card = submission_card(recorded, "gf2 mine").text
    assert f"vs {baseline.label}: DMC " in card, card
    log = "".join(p.read_text() for p in ctx.settings.data_dir.rglob("*.md"))
    assert baseline.label in log and f"sparse_parity / {stored.subject}" not in log  # no entry of its own
