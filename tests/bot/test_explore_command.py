"""``explore``: a loop on a board from a published program, judged, journalled, stored and logged; every way it
stops; bad input in one line.

Oracles: the group's published figures (tiled_16x16 133,783; the naive 16×16 baseline 340,704; the 66,707 record's
text, whose greedy re-placement is dearer), the scorer re-run on each journalled candidate (claimed cost = judged
cost), and invariants of the journal (steps counted once, the best is the cheapest kept step).
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.cli import main
from bot.commands.explore import explore_stopped
from bot.context import AppContext
from bot.core.explore import ExploreRequest, run_loop
from bot.core.explore_budget import Budget
from bot.core.explore_journal import close_interrupted
from bot.core.explore_start import StartPoint
from bot.invocation import Caller, Invocation
from bot.settings import Settings
from engine.explore.ir_search import IRSearch, Operator
from engine.explore.values import Placed
from engine.ir.instruction_set import Op
from engine.scoring.ir import score_ir
from storage.explore import get_loop, loop_steps, open_loop
from storage.tables import EXPLORE_CANCELLED, EXPLORE_INTERRUPTED
from storage.timestamps import utcnow
from tests.bot.test_json_schemas import documented
from tests.reference_data import REFERENCE

TILED = REFERENCE / "ir" / "matmul__tiled_16x16.ir"
RECORD_66707 = REFERENCE / "ir" / "matmul__weighted_lifetime_copyelim_66707.ir"


def _json(*args: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    result = CliRunner().invoke(main, [*args, "--json"])
    assert "Traceback" not in result.output, result.output
    return result.exit_code, json.loads(result.output)


def _one_line(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code != 0 and "Traceback" not in result.output, result.output
    return " ".join(line.strip() for line in result.output.splitlines() if line.strip())


@pytest.mark.slow
def test_a_loop_from_the_published_tiled_program_lowers_it_and_stores_the_best(
    _isolated_data_dir: Path,
) -> None:
    code, data = _json("explore", "matmul_16x16", "from=published", "tiled_16x16", "budget=60s")
    assert code == 0 and [k for k in data if k != "files"] == documented("explore")  # files: the chart written
    assert data["start_cost"] == 133_783 and data["baseline_cost"] == 340_704  # published figures
    assert data["best_cost"] < 133_783 and data["status"] == "finished"
    kept = [s for s in data["steps"] if s["outcome"] == "kept"]
    assert kept and data["best_cost"] == min(s["cost"] for s in kept)
    # the journal's claims are the scorer's: the best, stored as a run, re-scored from its stored text
    code, shown = _json("show", str(data["run_id"]))
    assert code == 0 and shown["run"]["metrics"]["dally@1"] == data["best_cost"]
    assert score_ir("matmul_16x16", shown["run"]["code"]).metrics["dally@1"] == data["best_cost"]
    assert "found by /explore" in shown["run"]["subject"]
    # read back from the journal: the same loop
    code, again = _json("explore", "show", str(data["loop_id"]))
    assert code == 0 and again["steps"] == data["steps"] and again["best_cost"] == data["best_cost"]
    # one sprint-log entry for the loop (the stored best is told inside it, not in an entry of its own)
    log = (_isolated_data_dir / "sprint-log.md").read_text()
    assert log.count(f"explore #{data['loop_id']} on matmul_16x16") == 1
    assert f"run #{data['run_id']}" in log and "#1)" not in log.replace(f"run #{data['run_id']}", "")


@pytest.mark.slow  # 1.0 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
def test_the_step_budget_stops_the_loop(_isolated_data_dir: Path) -> None:
    code, data = _json("explore", "matmul_16x16", f"from={TILED}", "budget=1")
    assert code == 0 and len(data["steps"]) == 1 and data["stop_reason"] == "its step budget is spent"
    assert data["start"] == "file matmul__tiled_16x16.ir"


@pytest.mark.slow  # 3.7 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
def test_the_circuit_breaker_stops_a_loop_that_finds_nothing(_isolated_data_dir: Path) -> None:
    assert CliRunner().invoke(main, ["config", "set", "explore.stale_steps", "1"]).exit_code == 0
    code, data = _json("explore", "matmul_16x16", f"from={RECORD_66707}")
    # the record's own placement is already tight: the first candidate is dearer, discarded, and the breaker trips
    assert code == 0 and data["start_cost"] == 66_707 and data["best_cost"] == 66_707
    assert [s["outcome"] for s in data["steps"]] == ["discarded"]
    assert data["stop_reason"] == "circuit breaker: 1 candidates in a row were not kept"
    assert data["run_id"] is None


@pytest.fixture
def ctx(tmp_path: Path, migrated_data_dir) -> AppContext:  # type: ignore[no-untyped-def]
    return AppContext(settings=Settings(_env_file=None, data_dir=migrated_data_dir(tmp_path / "data")))  # type: ignore[call-arg]


def _add_becomes_sub(values, placed: Placed) -> Placed:  # type: ignore[no-untyped-def]
    """A broken rewrite: the first add of the program turned into a sub (one product subtracted, not added)."""
    steps = list(placed.program.steps)
    i = next(i for i, s in enumerate(steps) if s.op is Op.ADD)
    steps[i] = replace(steps[i], op=Op.SUB)
    return Placed(program=replace(placed.program, steps=tuple(steps)), address=placed.address)


def test_candidates_that_break_the_rules_are_refused_with_their_reason(ctx: AppContext, monkeypatch) -> None:
    broken = (Operator("add-to-sub", "a sub instead of an add is harmless", _add_becomes_sub),) * 6
    monkeypatch.setattr("bot.core.explore.IRSearch", lambda text, dialect: IRSearch(text, dialect, broken))
    start = StartPoint(label="tiled", text=TILED.read_text())
    request = ExploreRequest(board="matmul_16x16", params={}, start=start, budget=Budget(100, 60.0, 0.0))
    outcome = run_loop(ctx, request, member="ada")
    steps = outcome.loop.steps
    assert [s.outcome for s in steps] == ["invalid"] * 4  # explore.invalid_in_a_row defaults to 4
    assert all(s.reason.startswith("wrong answer on test instance 1/1: output 1") for s in steps)
    assert outcome.loop.stop_reason == "circuit breaker: 4 candidates in a row broke the board's rules"
    assert outcome.recorded is None and outcome.loop.best_cost == 133_783


@pytest.mark.slow  # 0.8 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
def test_a_loop_stopped_mid_way_keeps_its_journal_and_best(ctx: AppContext) -> None:
    seen: list[str] = []

    def stop_after_two(message: str, fraction: float | None = None) -> None:
        seen.append(message)
        if len(seen) == 2:
            raise KeyboardInterrupt

    start = StartPoint(label="tiled", text=TILED.read_text())
    request = ExploreRequest(board="matmul_16x16", params={}, start=start, budget=Budget(100, 60.0, 0.0))
    with pytest.raises(KeyboardInterrupt):
        run_loop(ctx, request, member="ada", progress=stop_after_two)
    with ctx.sessions()() as session:
        (loop,) = [get_loop(session, 1)]
        steps = loop_steps(session, 1)
        assert loop.status == EXPLORE_CANCELLED and len(steps) == loop.steps_done == 2
        assert loop.best_cost == min(s.cost for s in steps if s.outcome == "kept") < 133_783
        assert score_ir("matmul_16x16", loop.best_code).metrics["dally@1"] == loop.best_cost


def test_a_cancelled_job_and_a_restart_close_running_loops_with_their_best(ctx: AppContext) -> None:
    text = TILED.read_text()
    with ctx.sessions()() as session:
        for member in ("ada", "bob"):
            open_loop(
                session,
                member=member,
                board="matmul_16x16",
                params={},
                goal="",
                start_label="tiled",
                start_cost=133_783,
                start_code=text,
                record_cost=None,
                budget={},
            )
    line = explore_stopped(
        ctx, Invocation(command="explore", caller=Caller(name="ada")), utcnow() - timedelta(minutes=1)
    )
    assert line.startswith("explore #1 stopped after 0 steps; best so far 133,783")
    assert close_interrupted(ctx) == [2]  # bob's loop: left running by a process that ended
    with ctx.sessions()() as session:
        assert get_loop(session, 1).status == EXPLORE_CANCELLED
        assert get_loop(session, 2).status == EXPLORE_INTERRUPTED and get_loop(session, 2).best_code == text


@pytest.mark.slow  # 2.3 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
def test_resume_carries_on_from_a_loop_s_best(_isolated_data_dir: Path) -> None:
    code, first = _json("explore", "matmul_16x16", f"from={TILED}", "budget=1")
    code, second = _json("explore", "resume", str(first["loop_id"]), "budget=1")
    assert code == 0 and second["start_cost"] == first["best_cost"]
    assert second["start"].startswith(f"explore #{first['loop_id']}'s best")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["matmul_16x61"], "'matmul_16x61' is not square — did you mean 'matmul_16x16'?"),
        (["sparse_parity"], "challenge 'sparse_parity' is not scored from IR"),
        (["mask_sparse_partiy"], "unknown challenge 'mask_sparse_partiy'"),
        (["sparse_parity_small"], "sparse_parity_small is retired"),
        (["matmul_16x16", "budget=9999s"], "a budget of 9999s is over the admins' cap of 300s"),
        (["matmul_16x16", "budget=soon"], "cannot read the budget 'soon'"),
        (["matmul_16x16", "from=published", "tiled_61x61"], "no published program 'tiled_61x61' on matmul_16x16"),
        (["matmul_16x16", "from=published", "best_63290"], "this product holds no copy of the published best_63290"),
        (["matmul_16x16", "from=99"], "no run #99"),
        (["show", "42"], "no explore loop #42"),
    ],
)
def test_bad_input_is_one_line(args: list[str], expected: str) -> None:
    line = _one_line("explore", *args)
    assert expected in line, line


def test_a_board_the_admins_did_not_allow_is_refused() -> None:
    assert CliRunner().invoke(main, ["config", "set", "explore.boards", "matmul_4x4"]).exit_code == 0
    line = _one_line("explore", "matmul_16x16")
    assert "/explore is not allowed on matmul_16x16 here" in line and "allowed: matmul_4x4" in line


@pytest.mark.slow
def test_a_method_loop_keeps_only_a_win_beyond_the_seeds_noise(_isolated_data_dir: Path) -> None:
    from bot.core.verdict import Outcome, judge

    code, data = _json("explore", "sgd", "budget=2")
    assert code == 0 and data["board"] == "sparse_parity" and data["params"] == {"n": 20, "k": 3}
    assert data["start"] == "sgd at its defaults" and [s["operator"] for s in data["steps"]] == ["lr×0.5", "lr×2"]
    # every candidate is a stored run, like /run sgd lr=… over the default seeds: read them back
    runs = {}
    for lr in ("0.1", "0.05", "0.2"):
        code, shown = _json("run", "sgd", f"lr={lr}")
        assert code in (0, 1) and shown["reused"] is True  # the loop stored it; /run answers from the store
        runs[lr] = shown["seed_metrics"]["dmc@1"]
    for step, lr in zip(data["steps"], ("0.05", "0.2"), strict=True):
        verdict = judge(runs[lr], runs["0.1"])  # the default rule: the admins have not changed it
        assert (step["outcome"] == "kept") == (verdict.outcome is Outcome.WIN), (step, verdict)
        assert step["cost"] == round(sum(runs[lr]) / len(runs[lr]))
    # one sprint-log entry: the loop's (the candidate runs have none of their own)
    log = (_isolated_data_dir / "sprint-log.md").read_text()
    assert log.count("**explore #1 on sparse_parity n=20 k=3") == 1 and "sparse_parity / sgd" not in log


def test_a_loop_stops_by_itself_before_the_job_s_time_limit(ctx: AppContext, monkeypatch) -> None:
    # the loop's wall-clock guard at 0 % of limits.job_wall_s: it stops before its first step, whatever its budget
    monkeypatch.setattr("bot.core.explore.WALL_SHARE", 0.0)
    start = StartPoint(label="tiled", text=TILED.read_text())
    request = ExploreRequest(board="matmul_16x16", params={}, start=start, budget=Budget(100, 300.0, 0.0))
    outcome = run_loop(ctx, request, member="ada")
    assert outcome.loop.stop_reason == "the job's time limit was near (limits.job_wall_s)"
    assert outcome.loop.steps == () and outcome.loop.status == "finished" and outcome.recorded is None
