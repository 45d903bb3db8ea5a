"""Re-scored attributions: the per-buffer tables and histograms that explain a run's value of one metric version,
stored when that version was re-scored (``run_attributions``). Keyword-only, like the other queries.
"""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, select

from storage.tables import RunAttribution


def put_attribution(session: Session, *, run_id: int, metric: str, body: dict[str, Any]) -> None:
    """Store (or replace) run ``run_id``'s attribution for ``metric``; committed."""
    row = session.exec(
        select(RunAttribution).where(RunAttribution.run_id == run_id, RunAttribution.metric == metric)
    ).first()
    if row is None:
        session.add(RunAttribution(run_id=run_id, metric=metric, body=body))
    else:
        row.body = body  # reassigned, never mutated in place (JSON column)
        session.add(row)
    session.commit()


def attribution_body(session: Session, *, run_id: int, metric: str) -> dict[str, Any] | None:
    """The stored re-scored attribution of run ``run_id`` for ``metric``, or None."""
    row = session.exec(
        select(RunAttribution).where(RunAttribution.run_id == run_id, RunAttribution.metric == metric)
    ).first()
    return None if row is None else dict(row.body)
