"""Keyword-only queries over metric values: the scored runs behind leaderboards and record histories, and adding a
re-scored value when a metric's version changes.

Lower is better for every metric we store (Dally cost, ByteDMD, ARD, DMC are all energy/distance costs). Only
valid members' results count: ``ok`` runs that are the active answer for their request and were asked for by a
member (a baseline the system ran by itself is no one's entry on a board).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import func
from sqlalchemy import select as select_columns
from sqlmodel import Session, col, select

from storage.tables import ROLE_MEMBER, RUN_ACTIVE, Member, MetricValue, Run


@dataclass(frozen=True)
class ScoredRun:
    """One valid run's value for one metric: the unit leaderboards and records are computed from.

    ``kind`` and ``params`` place it on its board (tools/board.py); ``source`` is empty for stored runs and the
    link of a published entry (tools/published, ``run_id`` 0).
    """

    run_id: int
    member: str
    subject: str
    metric: str
    value: float
    created_at: datetime
    kind: str = ""
    params: dict[str, Any] = field(default_factory=dict, compare=False)
    source: str = ""

    @property
    def published(self) -> bool:
        return bool(self.source)


def _valid_scores(challenge: str, metric: str) -> Any:  # a Select of the ScoredRun columns
    return (
        select_columns(
            col(Run.id),
            col(Member.name),
            col(Run.subject),
            col(MetricValue.metric),
            col(MetricValue.value),
            col(Run.created_at),
            col(Run.kind),
            col(Run.params),
        )
        .join(MetricValue, col(MetricValue.run_id) == col(Run.id))
        .join(Member, col(Member.id) == col(Run.member_id))
        .where(col(Run.challenge) == challenge, col(MetricValue.metric) == metric, col(Run.ok).is_(True))
        .where(col(Run.status) == RUN_ACTIVE, col(Run.role) == ROLE_MEMBER)
    )


def scored_runs(session: Session, *, challenge: str, metric: str) -> list[ScoredRun]:
    """Every valid run of ``challenge`` with a value for ``metric``, oldest first (ties by id)."""
    query = _valid_scores(challenge, metric).order_by(col(Run.created_at), col(Run.id))
    return [ScoredRun(*row) for row in session.execute(query).all()]


def best_per_member_method(session: Session, *, challenge: str, metric: str) -> list[ScoredRun]:
    """The best valid run per (member, subject) for ``metric``, best first; equal values: the earliest run wins.

    Computed in SQL with ``row_number()`` over each (member, subject) partition (SQLite ≥ 3.25 and PostgreSQL).
    """
    ranked = (
        _valid_scores(challenge, metric)
        .add_columns(
            func.row_number()
            .over(
                partition_by=(col(Run.member_id), col(Run.subject)),
                order_by=(col(MetricValue.value), col(Run.created_at), col(Run.id)),
            )
            .label("position")
        )
        .subquery()
    )
    query = (
        select_columns(
            ranked.c.id,
            ranked.c.name,
            ranked.c.subject,
            ranked.c.metric,
            ranked.c.value,
            ranked.c.created_at,
            ranked.c.kind,
            ranked.c.params,
        )
        .where(ranked.c.position == 1)
        .order_by(ranked.c.value, ranked.c.created_at, ranked.c.id)
    )
    return [ScoredRun(*row) for row in session.execute(query).all()]


def add_metric_value(session: Session, *, run_id: int, metric: str, value: float) -> None:
    """Store a re-scored ``metric`` value for run ``run_id`` next to the old ones (both kept) and commit."""
    run = session.get(Run, run_id)
    if run is None:
        raise ValueError(f"no run #{run_id}")
    existing = session.exec(
        select(MetricValue).where(MetricValue.run_id == run_id, MetricValue.metric == metric)
    ).first()
    if existing is None:
        session.add(MetricValue(run_id=run_id, metric=metric, value=float(value), source="rescore"))
    else:
        existing.value = float(value)
    run.metrics = {**run.metrics, metric: float(value)}  # reassign: in-place JSON changes are not tracked
    session.commit()


def runs_with_metric_named(session: Session, *, name: str) -> list[Run]:
    """Active runs that have some version of metric ``name`` (the ``name@…`` keys), oldest first."""
    query = (
        select(Run)
        .join(MetricValue, col(MetricValue.run_id) == col(Run.id))
        .where(col(MetricValue.metric).startswith(f"{name}@"), Run.status == RUN_ACTIVE)
        .order_by(col(Run.id))
    )
    return list(session.exec(query).unique().all())
