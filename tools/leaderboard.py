"""Leaderboard: the best valid result per (member, method) for one challenge and one metric version (pure).

Lower is better for every stored metric (energy/distance costs). Values of deterministic metrics tie exactly;
on a tie the earlier run ranks first (then the lower run id), both when choosing a pair's best run and when
ordering the pairs. Ranks are 1, 2, 3 … in that order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from storage.scores import ScoredRun
from tools.metric_format import format_value


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    best: ScoredRun


def _order(score: ScoredRun) -> tuple[float, object, int]:
    return (score.value, score.created_at, score.run_id)


def rank_best(scores: Sequence[ScoredRun]) -> list[LeaderboardRow]:
    """Pick each (member, subject)'s best run and rank the picks."""
    best: dict[tuple[str, str], ScoredRun] = {}
    for score in scores:
        key = (score.member, score.subject)
        if key not in best or _order(score) < _order(best[key]):
            best[key] = score
    ordered = sorted(best.values(), key=_order)
    return [LeaderboardRow(rank=i + 1, best=s) for i, s in enumerate(ordered)]


LEADERBOARD_HEADERS = ["#", "member", "method", "metric", "value", "run", "when (UTC)"]


def leaderboard_cells(rows: Sequence[LeaderboardRow]) -> list[list[str]]:
    """Table cells in :data:`LEADERBOARD_HEADERS` order; every value carries its metric name and version."""
    return [
        [
            str(r.rank),
            r.best.member,
            r.best.subject,
            r.best.metric,
            format_value(r.best.value),
            f"#{r.best.run_id}",
            f"{r.best.created_at:%Y-%m-%d %H:%M}",
        ]
        for r in rows
    ]
