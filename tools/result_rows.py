"""The results table of a run's sprint-log entry and result card: metric, value, change vs baseline, vs record.

Baseline: the values the caller passes (bot/baselines.py: the challenge's built-in baseline program, or the
baseline method run with the same parameters). Record: the best valid value of that metric among the challenge's
other runs stored before this one. Lower is better.
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlmodel import Session

from storage.scores import scored_runs
from storage.tables import Run
from tools.metric_format import format_change, format_value


def result_rows(session: Session, run: Run, *, baseline: Mapping[str, float]) -> list[tuple[str, str, str, str]]:
    """One row per metric of ``run`` (sorted by metric name), values already formatted."""
    rows = []
    for metric, value in sorted(run.metrics.items()):
        earlier = [s for s in scored_runs(session, challenge=run.challenge, metric=metric) if s.run_id != run.id]
        before = [s for s in earlier if (s.created_at, s.run_id) < (run.created_at, run.id or 0)]
        record = min((s.value for s in before), default=None)
        rows.append(
            (metric, format_value(value), format_change(value, baseline.get(metric)), format_change(value, record))
        )
    return rows
