"""Leaderboard: the best valid result per (member, method) for one challenge and one metric version (pure).

Lower is better for every stored metric (energy/distance costs). Values of deterministic metrics tie exactly;
on a tie the earlier run ranks first (then the lower run id), both when choosing a pair's best run and when
ordering the pairs. Ranks are 1, 2, 3 … in that order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from storage.scores import ScoredRun
from tools.board import Board
from tools.metric_format import format_value
from tools.param_diff import method_label


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    best: ScoredRun


def _order(score: ScoredRun) -> tuple[float, object, int]:
    return (score.value, score.created_at, score.run_id)


def rank_best(scores: Sequence[ScoredRun]) -> list[LeaderboardRow]:
    """Pick each (member, method as run)'s best run and rank the picks: a method at other parameters than its
    defaults (``sgd lr=0.5``) is a row of its own, named so (:func:`tools.param_diff.method_label`), never passed
    off as the method at its defaults."""
    best: dict[tuple[str, str], ScoredRun] = {}
    for score in scores:
        key = (score.member, method_label(score.kind, score.subject, score.params))
        if key not in best or _order(score) < _order(best[key]):
            best[key] = score
    ordered = sorted(best.values(), key=_order)
    return [LeaderboardRow(rank=i + 1, best=s) for i, s in enumerate(ordered)]


TRAINING_MEASURE = "energy to reach the target accuracy"
"""What a training board ranks: a training run stops once it fits its training rows, and only runs that reach the
pass accuracy are on a board, so its whole-run figure is the energy of getting there."""


def board_title(board: Board) -> str:
    """The board's title, saying what a training board ranks: ``sparse_parity n=20 k=3 · training · dmc@1 (energy
    to reach the target accuracy)``."""
    return board.title + (f" ({TRAINING_MEASURE})" if board.track == "training" else "")


LEADERBOARD_HEADERS = ["#", "member", "method", "metric", "value", "run", "when (UTC)"]


def leaderboard_cells(rows: Sequence[LeaderboardRow]) -> list[list[str]]:
    """Table cells in :data:`LEADERBOARD_HEADERS` order; every value carries its metric name and version."""
    return [
        [
            str(r.rank),
            r.best.member,
            method_label(r.best.kind, r.best.subject, r.best.params),
            r.best.metric,
            format_value(r.best.value),
            f"#{r.best.run_id}",
            f"{r.best.created_at:%Y-%m-%d %H:%M}",
        ]
        for r in rows
    ]
