"""Compare a stored run with its baseline and with the challenge's record — computed once per answer.

The same :class:`Comparison` feeds the sprint-log entry's results table and the result card. Lower is better for
every stored metric (energy and distance costs).

- Per metric: the value, its baseline (:mod:`bot.core.baselines`) and the record *when the run was stored* (the best
  valid value on the run's board stored before it) — what the sprint-log entry shows.
- The standing: the challenge's primary metric (the admins' ``metric.primary.<challenge>``) against the *current*
  record of the run's board (the best other valid stored run, earlier or later, or the group's published record),
  with its verdict (:mod:`bot.core.verdict`): "new record" only on a WIN.

Records only come from the same board (:mod:`tools.board`: challenge, instance, track, metric), so a solver on
n=6 is never compared with training runs on n=20.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session

from bot.core.baselines import baseline_metrics
from bot.core.verdict import DEFAULT_RULE, Outcome, Verdict, VerdictRule, judge
from storage.scores import ScoredRun, scored_runs
from storage.tables import Run
from tools.board import Board, board_of, on_board
from tools.metric_format import format_change, format_value
from tools.published.records import published_scores


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
    """The primary metric of a passing run against the current record of its board (None: first result).

    ``record_by`` names a published record's author (empty: a stored run's); ``verdict`` decides "new record".
    """

    challenge: str
    metric: str
    value: float
    record: float | None
    board: Board | None = None
    record_by: str = ""
    rule: VerdictRule = DEFAULT_RULE

    @property
    def verdict(self) -> Verdict | None:
        """The run against the record by the admins' rule (one value each side: exact, minimum size only)."""
        return None if self.record is None else judge([self.value], [self.record], rule=self.rule)

    @property
    def is_new_record(self) -> bool:
        verdict = self.verdict
        return verdict is not None and verdict.outcome is Outcome.WIN


@dataclass(frozen=True)
class Comparison:
    """A stored run against its baseline and the record (rows sorted by metric name)."""

    rows: tuple[MetricComparison, ...] = ()
    standing: Standing | None = None

    @property
    def has_reference(self) -> bool:
        """Whether any row has a baseline or an earlier record to compare with."""
        return any(r.baseline is not None or r.record_then is not None for r in self.rows)


def _rivals(session: Session, run: Run, metric: str) -> list[ScoredRun]:
    """The other entries on ``run``'s board for ``metric``: stored runs and published records."""
    board = board_of(run.challenge, run.kind, run.subject, run.params, metric)
    entries = [*published_scores(run.challenge, metric), *scored_runs(session, challenge=run.challenge, metric=metric)]
    return [s for s in on_board(run.challenge, entries, board) if s.run_id != run.id]


def compare(session: Session, run: Run, *, primary: str | None, rule: VerdictRule = DEFAULT_RULE) -> Comparison:
    """The comparison of the stored ``run`` (one query per metric; the primary metric's reused for the standing)."""
    assert run.id is not None
    baseline = baseline_metrics(session, run)
    others: dict[str, list[ScoredRun]] = {}
    rows = []
    for metric, value in sorted(run.metrics.items()):
        others[metric] = _rivals(session, run, metric)
        before = [s for s in others[metric] if (s.created_at, s.run_id) < (run.created_at, run.id)]
        record = min((s.value for s in before), default=None)
        rows.append(MetricComparison(metric, float(value), baseline.get(metric), record))
    standing = None
    if run.ok and primary is not None and primary in run.metrics:
        if primary not in others:
            others[primary] = _rivals(session, run, primary)
        best = min(others[primary], key=lambda s: (s.value, s.created_at, s.run_id), default=None)
        standing = Standing(
            run.challenge,
            primary,
            float(run.metrics[primary]),
            None if best is None else best.value,
            board=board_of(run.challenge, run.kind, run.subject, run.params, primary),
            record_by="" if best is None or not best.published else best.member,
            rule=rule,
        )
    return Comparison(rows=tuple(rows), standing=standing)
