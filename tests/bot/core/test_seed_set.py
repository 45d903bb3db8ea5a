"""Seed sets: the combination rule (hand-worked means and spreads), the request's seed handling and its one-line
refusals, and a set run end to end through the dispatcher in parallel child processes.

Oracles: hand arithmetic for the combination; for the end-to-end run, the invariant that each seed's value in the
set equals the same method run alone on that seed in this process (the runs are deterministic given the seed).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.commands import command_named
from bot.commands.base import Caller, Invocation, Reply
from bot.context import AppContext
from bot.core.method_request import MethodRequest
from bot.core.recording import store_result
from bot.core.seed_set import SeedTask, combine, run_here, run_tasks
from bot.dispatch import execute
from bot.settings import Settings
from engine.errors import BadParameter
from engine.result import FailureKind, RunResult
from storage.runs import count_runs, get_run
from tools.errors import ToolError
from tools.run_detail import COUNTING_NOTE

ANN = Caller(name="ann")
TINY = {"n": "8", "epochs": "20"}
"""Small enough for a fast test, large enough that sgd and local_update pass on seeds 3 and 4 (checked)."""


def _result(seed: int, dmc: float, *, ok: bool = True, accuracy: float = 1.0) -> RunResult:
    return RunResult(
        challenge="sparse_parity",
        subject="sgd",
        kind="method",
        ok=ok,
        seeds=[seed],
        accuracy=accuracy,
        metrics={"dmc@1": dmc, "ard@1": 2.0 * seed},
        per_step={"dmc@1 (run mean)": dmc / 10},
        failure=None if ok else "accuracy 0.500 < 0.95",
        failure_kind=None if ok else FailureKind.WRONG_ANSWER,
    )


def test_a_set_is_the_mean_with_each_seeds_value_kept() -> None:
    results = [_result(42, 98.0), _result(123, 100.0), _result(456, 102.0)]
    combined = combine(results, params={"n": 20, "seeds": [42, 123, 456]}, wall_s=3.0)
    assert combined.seeds == [42, 123, 456] and combined.ok and combined.accuracy == 1.0
    assert combined.metrics == {"dmc@1": 100.0, "ard@1": 2.0 * (42 + 123 + 456) / 3}
    assert combined.seed_metrics["dmc@1"] == [98.0, 100.0, 102.0]
    assert combined.per_step == {"dmc@1 (run mean)": 10.0}
    assert combined.params == {"n": 20, "seeds": [42, 123, 456]}


def test_one_failing_seed_fails_the_set_and_says_which() -> None:
    results = [_result(1, 10.0), _result(2, 12.0, ok=False, accuracy=0.5)]
    combined = combine(results, params={}, wall_s=1.0)
    assert not combined.ok and combined.failure == "seed 2: accuracy 0.500 < 0.95"
    assert combined.failure_kind is FailureKind.WRONG_ANSWER and combined.accuracy == 0.75


def test_seeds_are_named_once_and_stored_under_their_own_key() -> None:
    one = MethodRequest.parse("sgd", {"seed": "7"})
    assert one.seeds == (7,) and one.params["seed"] == 7 and "seeds" not in one.params and one.seeds_named
    three = MethodRequest.parse("sgd", {"seeds": "0, 1,2"})
    assert three.seeds == (0, 1, 2) and three.params["seeds"] == [0, 1, 2] and "seed" not in three.params
    assert [t.params["seed"] for t in three.tasks] == [0, 1, 2]
    assert len({one.stored.key, three.stored.key, MethodRequest.parse("sgd", {"seeds": "0,1"}).stored.key}) == 3
    unnamed = MethodRequest.parse("sgd", {})
    assert (
        not unnamed.seeds_named
        and unnamed.with_seeds([42, 123, 456]).stored.key
        == MethodRequest.parse("sgd", {"seeds": "42,123,456"}).stored.key
    )
    assert MethodRequest.parse("sgd", {"seeds": "5"}).stored.key == MethodRequest.parse("sgd", {"seed": "5"}).stored.key


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"seeds": "1,x"}, "seeds=1,x: must be comma-separated whole-number seeds"),
        ({"seeds": "1,1"}, "each seed may appear once"),
        ({"seeds": "1", "seed": "2"}, "name seed= or seeds=, not both"),
        ({"seeds": str(2**32)}, "seeds go from 0 to 4294967295"),
    ],
)
def test_a_bad_seed_list_is_one_line(params: dict[str, str], message: str) -> None:
    with pytest.raises(BadParameter) as err:
        MethodRequest.parse("sgd", params)
    assert message in err.value.one_line() and "\n" not in err.value.one_line()


def test_a_set_over_the_admins_cap_is_refused() -> None:
    request = MethodRequest.parse("sgd", {"seeds": ",".join(map(str, range(11)))})
    with pytest.raises(ToolError, match="11 seeds is over this group's limit of 10"):
        request.check_cap(10)


@pytest.fixture
def ctx(tmp_path: Path, migrated_data_dir: Callable[[Path], Path]) -> AppContext:
    data_dir = migrated_data_dir(tmp_path / "data")
    return AppContext(settings=Settings(_env_file=None, data_dir=data_dir, job_workers=2))  # type: ignore[call-arg]


def call(ctx: AppContext, name: str, *args: str, **options: str) -> tuple[Reply, int]:
    command = command_named(name)
    assert command is not None
    return execute(ctx, command, Invocation(command=name, args=list(args), options=options, caller=ANN))


@pytest.mark.slow  # 0.5 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
def test_child_processes_give_the_same_result_as_this_process() -> None:
    tasks = [SeedTask("gf2", {"n": 12, "seed": s}) for s in (1, 2)]
    parallel = run_tasks(tasks, workers=2)
    assert [r.metrics for r in parallel] == [run_here(t).metrics for t in tasks]
    assert [r.seeds for r in parallel] == [[1], [2]]


@pytest.mark.slow
def test_a_seed_set_runs_end_to_end_with_its_baseline_on_the_same_seeds(ctx: AppContext) -> None:
    reply, status = call(ctx, "run", "local_update", seeds="3,4", **TINY)
    data = reply.data
    assert data is not None and data["seeds"] == [3, 4], reply.text
    alone = [run_here(SeedTask("local_update", {**TINY, "seed": s})) for s in (3, 4)]
    assert data["seed_metrics"]["dmc@1"] == [r.metrics["dmc@1"] for r in alone]  # exactly: dmc's sum is exact
    assert data["metrics"]["dmc@1"] == pytest.approx(sum(data["seed_metrics"]["dmc@1"]) / 2, rel=1e-12)
    assert ", 2 seeds: " in reply.text.splitlines()[0]  # the card names the set; show ID has each seed's value
    with ctx.sessions()() as session:
        base = get_run(session, run_id=data["baseline"]["run_id"])
        assert (base.subject, base.seeds, base.role, base.member.name) == ("sgd", [3, 4], "baseline", "(system)")
    assert data["vs_sgd"]["dmc@1"]["verdict"] in ("WIN", "LOSS", "INCONCLUSIVE")
    log = "".join(p.read_text() for p in ctx.settings.data_dir.rglob("*.md"))
    # the baseline has no entry of its own: the run's headline names it with its run id
    assert f"local_update vs sgd (#{base.id}), n=8 k=3, 2 seeds:" in log and "sparse_parity / sgd" not in log
    # a phone-sized card: the verdict first, a headline and at most six lines of 40 characters, no tables
    head, *rest = reply.text.splitlines()
    assert len(rest) <= 6 and all(len(line) <= 40 for line in rest) and not reply.tables, reply.text
    assert head.startswith("local_update vs sgd, n=8 k=3, 2 seeds: ByteDMD ") and "; DMC " in head
    shown, _ = call(ctx, "show", str(data["run_id"]))
    assert f"(change vs sgd (#{base.id})):" in shown.text  # /show's summary names the baseline run
    assert COUNTING_NOTE in shown.text  # not SutroYaro's hand counts: said in the details, the card stays short
    assert shown.data is not None and shown.data["run"]["seed_metrics"]["dmc@1"] == data["seed_metrics"]["dmc@1"]
    assert json.dumps(shown.data)  # serialisable
    again, _ = call(ctx, "run", "local_update", seeds="3,4", **TINY)
    assert again.data is not None and again.data["reused"] and again.data["baseline"] == data["baseline"]


def test_a_seed_list_over_the_cap_stores_nothing(ctx: AppContext) -> None:
    reply, status = call(ctx, "run", "gf2", seeds=",".join(map(str, range(11))))
    assert status == 2 and reply.text.startswith("11 seeds is over this group's limit of 10") and "\n" not in reply.text
    with ctx.sessions()() as session:
        assert count_runs(session) == 0


def _stored_set(ctx: AppContext, seeds: list[int], dmc: list[float]) -> int:
    request = MethodRequest.parse("sgd", {"seeds": ",".join(map(str, seeds))})
    result = RunResult(
        challenge="sparse_parity",
        subject="sgd",
        kind="method",
        ok=True,
        seeds=seeds,
        params=request.params,
        metrics={"dmc@1": sum(dmc) / len(dmc)},
        seed_metrics={"dmc@1": dmc},
    )
    return store_result(ctx, result, request=request.stored, member="ann").id


def test_compare_judges_over_the_seed_values_and_names_differing_seeds(ctx: AppContext) -> None:
    # docs/verdicts.md's worked example: 98, 100, 102 (s = 2) against 104, 105, 106 (s = 1): change 5 > margin 2
    a = _stored_set(ctx, [1, 2, 3], [104.0, 105.0, 106.0])
    b = _stored_set(ctx, [4, 5, 6], [98.0, 100.0, 102.0])
    c = _stored_set(ctx, [7, 8, 9], [90.0, 100.0, 110.0])  # the same mean, s = 10: inside the margin
    reply, status = call(ctx, "compare", str(a), str(b))
    assert status == 0 and reply.text.startswith(f"#{b} sgd vs #{a} sgd: DMC −4.8 % (WIN)")  # 100 vs 105
    assert "not like for like: seeds 1,2,3 vs 4,5,6" in reply.text.splitlines()
    reply, _ = call(ctx, "compare", str(a), str(c))
    assert "DMC −4.8 %, inconclusive — seed spread" in reply.text
