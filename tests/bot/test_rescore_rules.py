"""``rescore rules CHALLENGE``: stored runs re-judged under the challenge's current correctness rules.

The oracle is hand-checked: on matmul 1×1 the fixed instance is A = 1, B = 3, so the program that outputs B itself
(cost 2: one read of address 2) passed the one-instance rule of before (rules were not versioned then) but is not
A·B for every input; the honest product (cost 5: reads of addresses 1 and 2, then the output at 3) is.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlmodel import select

from bot.cli import main
from storage.database import DATABASE_FILE, make_engine, session_factory
from storage.tables import Run


def _score(runner: CliRunner, path: Path, text: str, label: str) -> dict:  # type: ignore[type-arg]
    path.write_text(text)
    result = runner.invoke(main, ["score", str(path), "--challenge", "matmul_1x1", "--name", label, "--json"])
    return json.loads(result.output)  # type: ignore[no-any-return]


@pytest.mark.slow  # 0.8 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
def test_a_run_valid_under_the_old_rule_falls_out_under_the_symbolic_one(tmp_path: Path) -> None:
    runner = CliRunner()
    honest = _score(runner, tmp_path / "honest.ir", "1,2\nmul 3,1,2\n3\n", "honest")
    cheat = _score(runner, tmp_path / "cheat.ir", "1,2\n2\n", "cheat")
    assert honest["ok"] and honest["cost"] == 5 and not cheat["ok"] and cheat["cost"] == 2
    # the cheat as it was stored before rules were versioned: judged on the fixed instance only, where B = A·B
    engine = make_engine(f"sqlite:///{tmp_path / 'sutro-data' / DATABASE_FILE}")
    with session_factory(engine)() as session:
        run = session.exec(select(Run).where(Run.id == cheat["run_id"])).one()
        run.ok, run.failure = True, None
        run.result = {k: v for k, v in (run.result or {}).items() if k not in ("rules", "failure_kind")}
        session.add(run)
        session.commit()
    engine.dispose()
    board = json.loads(runner.invoke(main, ["leaderboard", "matmul_1x1", "--json"]).output)["boards"][0]["rows"]
    assert [(r["method"], r["rank"]) for r in board] == [("cheat", 1), ("honest", 2)]

    report = json.loads(runner.invoke(main, ["rescore", "rules", "matmul_1x1", "--json"]).output)
    assert report["rules"] == "matmul rules@2" and report["rejudged"] == 1  # the honest run was judged under @2
    (fell,) = report["fell_out"]
    assert fell["run_id"] == cheat["run_id"] and fell["old_rank"] == 1 and fell["new_rank"] is None
    assert fell["failure"].startswith("output 1 (address 2) is not C[0][0]")
    (moved,) = report["rank_changes"]
    assert (moved["subject"], moved["old_rank"], moved["new_rank"]) == ("honest", 2, 1)
    board = json.loads(runner.invoke(main, ["leaderboard", "matmul_1x1", "--json"]).output)["boards"][0]["rows"]
    assert [(r["method"], r["rank"]) for r in board] == [("honest", 1)]
    # the earlier judgement is kept beside the new one; a second pass has nothing left to re-judge
    engine = make_engine(f"sqlite:///{tmp_path / 'sutro-data' / DATABASE_FILE}")
    with session_factory(engine)() as session:
        run = session.exec(select(Run).where(Run.id == cheat["run_id"])).one()
        assert run.result["rules"] == "matmul rules@2"
        assert run.result["judged_before"] == [{"rules": None, "ok": True, "failure": None}]
    engine.dispose()
    again = json.loads(runner.invoke(main, ["rescore", "rules", "matmul_1x1", "--json"]).output)
    assert again["rejudged"] == 0 and again["fell_out"] == [] and again["rank_changes"] == []


def test_a_challenge_without_versioned_rules_is_refused_in_one_line() -> None:
    result = CliRunner(env={"COLUMNS": "500"}).invoke(main, ["rescore", "rules", "symmetry_six"])
    assert result.exit_code != 0
    assert result.output.strip().splitlines() == [
        "symmetry_six has no versioned rules — rules versions exist where a challenge's rules changed"
    ]
