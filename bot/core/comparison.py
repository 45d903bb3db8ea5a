"""Compare a stored run with its baseline and with the challenge's record — computed once per answer.

The same :class:`Comparison` feeds the sprint-log entry's results table and the result card. Lower is better for
every stored metric (energy and distance costs).

- Per metric: the value, its baseline (:mod:`bot.core.baselines`) and the record *when the run was stored* (the best
  valid value among the challenge's runs stored before it) — what the sprint-log entry shows.
- The standing: the challenge's primary metric (the admins' ``metric.primary.<challenge>``) against the *current*
  record (the best other valid stored run, earlier or later).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session

from bot.core.baselines import baseline_metrics
from storage.scores import ScoredRun, scored_runs
from storage.tables import Run
from tools.metric_format import format_change, format_value


@dataclass(frozen=True)
class MetricComparison:
    """One metric of a stored run: its value, the baseline's and the record's when the run was stored (None: none)."""

    metric: str
    value: float
    baseline: float | None
    record_then: float | None

    def cells(self) -> tuple[str, str, str, str]:
        """(metric, value, change vs baseline, change vs record), formatted for a table."""
        return (
            self.metric,
            format_value(self.value),
            format_change(self.value, self.baseline),
            format_change(self.value, self.record_then),
        )


@dataclass(frozen=True)
class Standing:
    """The primary metric of a passing run against the current record of its challenge (None: first result)."""

    challenge: str
    metric: str
    value: float
    record: float | None

    @property
    def is_new_record(self) -> bool:
        return self.record is not None and self.value < self.record


@dataclass(frozen=True)
class Comparison:
    """A stored run against its baseline and the record (rows sorted by metric name)."""

    rows: tuple[MetricComparison, ...] = ()
    standing: Standing | None = None

    @property
    def has_reference(self) -> bool:
        """Whether any row has a baseline or an earlier record to compare with."""
        return any(r.baseline is not None or r.record_then is not None for r in self.rows)


def compare(session: Session, run: Run, *, primary: str | None) -> Comparison:
    """The comparison of the stored ``run`` (one query per metric; the primary metric's reused for the standing)."""
    assert run.id is not None
    baseline = baseline_metrics(session, run)
    others: dict[str, list[ScoredRun]] = {}
    rows = []
    for metric, value in sorted(run.metrics.items()):
        others[metric] = [s for s in scored_runs(session, challenge=run.challenge, metric=metric) if s.run_id != run.id]
        before = [s for s in others[metric] if (s.created_at, s.run_id) < (run.created_at, run.id)]
        record = min((s.value for s in before), default=None)
        rows.append(MetricComparison(metric, float(value), baseline.get(metric), record))
    standing = None
    if run.ok and primary is not None and primary in run.metrics:
        if primary not in others:
            others[primary] = [
                s for s in scored_runs(session, challenge=run.challenge, metric=primary) if s.run_id != run.id
            ]
        best = min((s.value for s in others[primary]), default=None)
        standing = Standing(run.challenge, primary, float(run.metrics[primary]), best)
    return Comparison(rows=tuple(rows), standing=standing)
