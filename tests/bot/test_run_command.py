"""``sutro run``: JSON shape, one-line errors, and the sparse-parity-challenge compatibility mode."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from bot.cli import main

FOURIER_SOLVE = """
from itertools import combinations

def solve(x, y, n_bits, k_sparse):
    best, best_s = -1.0, []
    for s in combinations(range(n_bits), k_sparse):
        c = abs(float(np.mean(y[:100] * np.prod(x[:100, list(s)], axis=1))))
        if c > best:
            best, best_s = c, list(s)
    return best_s
"""


def test_run_gf2_json():
    result = CliRunner().invoke(main, ["run", "gf2", "n=20", "k=3", "seed=7", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["method"] == "gf2" and data["seed"] == 7 and data["accuracy"] == 1.0
    assert data["params"]["n"] == 20 and data["engine_version"]
    assert set(data["metrics"]) == {"ard@1", "ard_per_read@1", "dmc@1"}
    assert data["wall_s"] > 0


def test_training_method_card_compares_with_sgd():
    result = CliRunner().invoke(main, ["run", "local_update", "epochs=2", "--json"])
    data = json.loads(result.output)
    assert data["metric_scopes"]["bytedmd@1"] == "one step"
    assert data["vs_sgd"]["ard@1"]["sgd"] > 0
    assert data["per_step"]["ard@1 (one step)"] < data["sgd_per_step"]["ard@1 (one step)"]


def test_errors_are_one_line():
    for args, fragment in (
        (["run", "sgdd"], "did you mean 'sgd'"),
        (["run", "gf2", "n=abc"], "n: int in [2, 64]"),
        (["run"], "which method?"),
        (["run", "gf2", "colour=red"], "valid keys"),
    ):
        result = CliRunner().invoke(main, args)
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert result.exit_code == 2 and "Traceback" not in result.output
        assert fragment in " ".join(lines)


def test_compat_spc_passes_a_correct_solver(tmp_path: Path):
    path = tmp_path / "solve.py"
    path.write_text(FOURIER_SOLVE)
    result = CliRunner().invoke(main, ["run", f"solve={path}", "--compat", "spc", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["passed"] and data["accuracy"] == 1.0 and data["seeds"] == [42, 123, 456]
    assert [r["seed"] for r in data["per_seed"]] == [42, 123, 456]
    assert all(r["found"] == r["secret"] for r in data["per_seed"])
    assert data["dmc"] > 0


def test_compat_spc_fails_a_wrong_solver_and_reports_errors(tmp_path: Path):
    path = tmp_path / "solve.py"
    path.write_text("def solve(x, y, n_bits, k_sparse):\n    return [0, 1, 2]\n")
    data = json.loads(CliRunner().invoke(main, ["run", f"solve={path}", "--compat", "spc", "--json"]).output)
    assert not data["passed"] and data["accuracy"] < 0.95
    path.write_text("def solve(x, y, n_bits, k_sparse):\n    raise ValueError('boom')\n")
    data = json.loads(CliRunner().invoke(main, ["run", f"solve={path}", "--compat", "spc", "--json"]).output)
    assert data["accuracy"] == 0.0 and "boom" in data["per_seed"][0]["error"]


def test_compat_missing_file_is_one_line(tmp_path: Path):
    result = CliRunner().invoke(main, ["run", f"solve={tmp_path / 'nope.py'}", "--compat", "spc"])
    assert result.exit_code == 2 and "no such file" in result.output


def test_progress_is_reported_through_the_invocation():
    from bot.app import build_context
    from bot.commands.base import Invocation
    from bot.commands.run import run

    seen = []
    inv = Invocation(
        command="run",
        args=["local_update"],
        options={"epochs": "1"},
        progress=lambda message, fraction=None: seen.append(message),
    )
    reply = run(build_context(), inv)
    assert reply.data["method"] == "local_update"
    assert any("running local_update" in m for m in seen) and any("sgd" in m for m in seen)
