"""Board rows name the parameters that differ from the method's defaults (tools/param_diff.py): a sweep point at
lr = 0.5 is ranked as ``sgd lr=0.5``, a row of its own, never as "sgd". Oracle: sgd's defaults in
engine/methods/sgd.py (lr 0.1, epochs 200); the instance and seeds are the board's, never repeated in a row."""

from __future__ import annotations

from datetime import UTC, datetime

from storage.scores import ScoredRun
from tools.board import Board
from tools.leaderboard import board_title, leaderboard_cells, rank_best
from tools.param_diff import changed_params, method_label

T = datetime(2026, 11, 20, tzinfo=UTC)


def _score(run_id: int, value: float, params: dict[str, object]) -> ScoredRun:
    return ScoredRun(run_id, "ann", "sgd", "dmc@1", value, T, kind="method", params=params)


def test_only_real_non_defaults_are_named() -> None:
    at_defaults = {"n": 20, "k": 3, "seeds": [42, 123, 456], "lr": 0.1, "epochs": 200}
    assert changed_params("method", "sgd", at_defaults) == {}
    assert method_label("method", "sgd", {**at_defaults, "lr": 0.5}) == "sgd lr=0.5"
    assert method_label("method", "sgd", {"lr": 0.5, "epochs": 50, "n": 30}) == "sgd epochs=50 lr=0.5"
    assert method_label("ir", "tiled", {"lr": 0.5}) == "tiled"  # not a method run: nothing to compare with
    assert method_label("method", "no_such_method", {"lr": 0.5}) == "no_such_method"


def test_a_sweep_point_is_its_own_row_named_by_its_parameters() -> None:
    rows = rank_best([_score(1, 5.9e10, {"lr": 0.1}), _score(2, 2.7e10, {"lr": 0.5}), _score(3, 6.1e10, {})])
    cells = leaderboard_cells(rows)
    # run 3 (defaults written out or not) and run 1 are one method as run: its best (#1) is one row
    assert [(c[2], c[5]) for c in cells] == [("sgd lr=0.5", "#2"), ("sgd", "#1")]
    board = Board("sparse_parity", (("n", 20), ("k", 3)), "training", "dmc@1")
    assert board_title(board) == "sparse_parity n=20 k=3 · training · dmc@1 (energy to reach the target accuracy)"
    assert board_title(Board("sparse_parity", (("n", 20), ("k", 3)), "solver", "dmc@1")).endswith("· dmc@1")
