"""Compare a stored run with its baseline and with the challenge's record — computed once per answer.

The same :class:`Comparison` feeds the sprint-log entry's results table and the result card. Lower is better for
every stored metric (energy and distance costs).

- Per metric: the value, its baseline (:mod:`bot.core.baselines`, named: ``sgd (#12)``) and the record *when the
  run was stored* (the best valid value on the run's board stored before it) — what the sprint-log entry shows.
- The verdict against the baseline on the primary metric, over both sides' seed values.
- The standing: the challenge's primary metric (the admins' ``metric.primary.<challenge>``) against the *current*
  record of the run's board (the best other valid stored run, earlier or later, or the group's published record),
  with its verdict (:mod:`bot.core.verdict`) over both sides' seed values: "new record" only on a WIN. A tier
  the group retired (tools/published) has a frozen board: no standing, so no record is announced on it.

Records only come from the same board (:mod:`tools.board`: challenge, instance, track, metric), so a solver on
n=6 is never compared with training runs on n=20.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlmodel import Session

from bot.core.baselines import DEFAULT_REFERENCE, Baseline, baseline_of, chosen_baseline, value_keys
from bot.core.judgement import Judgement, baseline_choice, judgement_data, judgement_from
from bot.core.verdict import DEFAULT_RULE, Outcome, Verdict, VerdictRule, is_paired, judge
from storage.runs import get_run
from storage.scores import ScoredRun, scored_runs
from storage.tables import Run
from storage.verdicts import put_verdict, verdict_body
from tools.board import Board, Setting, board_of, on_board, setting_of, what_differs
from tools.metric_format import format_change, format_value
from tools.published.records import current_snapshot, published_scores


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
    ``values`` / ``record_values``: the per-seed values of each side (empty: the one value, exact).
    """

    challenge: str
    metric: str
    value: float
    record: float | None
    board: Board | None = None
    record_by: str = ""
    rule: VerdictRule = DEFAULT_RULE
    values: tuple[float, ...] = ()
    record_values: tuple[float, ...] = ()
    differs: str = ""
    record_run: int | None = None
    paired: bool = False
    """Both sides' values are on the same seeds (or hidden instances), in order: the verdict reads the per-seed
    ratios."""

    @property
    def record_label(self) -> str:
        """Whose the record is: ``@sjbaebae (published)``, ``#12`` (a stored run), "" when there is none."""
        if self.record_by:
            return self.record_by
        return "" if self.record_run is None else f"#{self.record_run}"

    @property
    def verdict(self) -> Verdict | None:
        """The run against the record by the admins' rule, over each side's seed values."""
        if self.record is None:
            return None
        return judge(
            self.values or [self.value], self.record_values or [self.record], rule=self.rule, paired=self.paired
        )

    @property
    def is_new_record(self) -> bool:
        verdict = self.verdict
        return verdict is not None and verdict.outcome is Outcome.WIN


@dataclass(frozen=True)
class Comparison:
    """A stored run against its baseline and the record (rows sorted by metric name); ``baseline`` names what the
    "vs baseline" column compares with (None: nothing), ``versus_baseline`` the primary metric's verdict.
    ``judgement``: the run's one verdict (:mod:`bot.core.judgement`), what every rendering states; None when the
    board has no primary metric."""

    rows: tuple[MetricComparison, ...] = ()
    standing: Standing | None = None
    baseline: Baseline | None = None
    versus_baseline: Verdict | None = None
    judgement: Judgement | None = None

    @property
    def has_reference(self) -> bool:
        """Whether any row has a baseline or an earlier record to compare with."""
        return any(r.baseline is not None or r.record_then is not None for r in self.rows)


def _rivals(session: Session, run: Run, metric: str) -> list[ScoredRun]:
    """The other entries on ``run``'s board for ``metric``: stored runs and published records."""
    board = board_of(run.challenge, run.kind, run.subject, run.params, metric)
    entries = [
        *published_scores(run.challenge, metric, session),
        *scored_runs(session, challenge=run.challenge, metric=metric),
    ]
    return [s for s in on_board(run.challenge, entries, board) if s.run_id != run.id]


def _setting(run: Run) -> Setting:
    return setting_of(run.challenge, run.kind, run.subject, run.params, run.seeds, run.metrics)


def seed_values(run: Run, metric: str) -> tuple[float, ...]:
    """The per-seed values of ``metric`` stored with ``run`` (empty for a single-seed or deterministic run)."""
    stored = run.result.get("seed_metrics") if isinstance(run.result, dict) else None
    return tuple(float(v) for v in (stored or {}).get(metric, ()))


def instance_values(run: Run, metric: str) -> tuple[float, ...]:
    """A judged solve()'s value of ``metric`` on each hidden instance (empty for other runs): what its verdict
    against the best built-in solver on the same instances reads, instance by instance."""
    stored = run.result.get("per_instance_metrics") if isinstance(run.result, dict) else None
    values = [m.get(metric) for m in stored or ()]
    return tuple(float(v) for v in values) if values and all(v is not None for v in values) else ()


def run_versus_run(candidate: Run, reference: Run, metric: str, *, rule: VerdictRule = DEFAULT_RULE) -> Verdict:
    """``candidate``'s verdict on ``metric`` against ``reference``'s (``/compare A B``: B against A), over each
    run's per-seed values (paired when both were measured on the same seeds) or its one value."""
    mine = seed_values(candidate, metric) or instance_values(candidate, metric) or (float(candidate.metrics[metric]),)
    theirs = seed_values(reference, metric) or instance_values(reference, metric) or (float(reference.metrics[metric]),)
    paired = is_paired(value_keys(candidate), value_keys(reference), mine, theirs)
    return judge(mine, theirs, candidate_passed=candidate.ok, rule=rule, paired=paired)


def compare(
    session: Session,
    run: Run,
    *,
    primary: str | None,
    rule: VerdictRule = DEFAULT_RULE,
    reference: str = DEFAULT_REFERENCE,
) -> Comparison:
    """The comparison of the stored ``run`` (one query per metric; the primary metric's reused for the standing).
    ``reference``: the solver board's reference method (the admins' ``baseline.reference``). A run judged before
    is compared with the baseline its stored judgement names (read, not chosen again: choosing a solver's
    reference ranks every built-in solver on its seeds)."""
    assert run.id is not None
    choice = baseline_choice(verdict_body(session, run_id=run.id))
    if choice is not None:
        baseline = chosen_baseline(session, run, name=choice.name, run_id=choice.run_id)
    else:
        baseline = baseline_of(session, run, reference=reference, primary=primary)
    base_metrics = {} if baseline is None else baseline.metrics
    others: dict[str, list[ScoredRun]] = {}
    rows = []
    for metric, value in sorted(run.metrics.items()):
        others[metric] = _rivals(session, run, metric)
        before = [s for s in others[metric] if (s.created_at, s.run_id) < (run.created_at, run.id)]
        record = min((s.value for s in before), default=None)
        rows.append(MetricComparison(metric, float(value), base_metrics.get(metric), record))
    versus = None
    if baseline is not None and primary is not None and primary in run.metrics and baseline.values(primary):
        mine = seed_values(run, primary) or instance_values(run, primary) or (float(run.metrics[primary]),)
        theirs = baseline.values(primary)
        paired = is_paired(value_keys(run), baseline.keys, mine, theirs)
        versus = judge(mine, theirs, candidate_passed=run.ok, rule=rule, paired=paired)
    standing = None
    retired = current_snapshot(session).retirement(run.challenge)  # a retired tier's board is frozen
    frozen = "" if retired is None else retired.since.isoformat()
    if run.ok and primary is not None and primary in run.metrics and not frozen:
        if primary not in others:
            others[primary] = _rivals(session, run, primary)
        best = min(others[primary], key=lambda s: (s.value, s.created_at, s.run_id), default=None)
        record_run = None if best is None or best.published else get_run(session, run_id=best.run_id)
        record_values = () if record_run is None else seed_values(record_run, primary)
        differs = "" if record_run is None else what_differs(_setting(record_run), _setting(run))
        values = seed_values(run, primary)
        paired = record_run is not None and is_paired(value_keys(run), value_keys(record_run), values, record_values)
        standing = Standing(
            run.challenge,
            primary,
            float(run.metrics[primary]),
            None if best is None else best.value,
            board=board_of(run.challenge, run.kind, run.subject, run.params, primary),
            record_by="" if best is None or not best.published else best.member,
            rule=rule,
            values=values,
            record_values=record_values,
            differs=differs,
            record_run=None if best is None or best.published else best.run_id,
            paired=paired,
        )
    judgement = None
    if primary is not None:
        measured = run.metrics.get(primary)
        judgement = Judgement(
            metric=primary,
            board=board_of(run.challenge, run.kind, run.subject, run.params, primary).title,
            passed=run.ok,
            value=None if measured is None else float(measured),
            failure=run.failure,
            baseline=None if baseline is None else baseline.label,
            versus_baseline=versus,
            record=None if standing is None else standing.record,
            record_label="" if standing is None else standing.record_label,
            versus_record=None if standing is None else standing.verdict,
            rule=rule,
            baseline_name=None if baseline is None else baseline.name,
            baseline_run=None if baseline is None else baseline.run_id,
            frozen=frozen,
        )
    return Comparison(
        rows=tuple(rows), standing=standing, baseline=baseline, versus_baseline=versus, judgement=judgement
    )


def settled(session: Session, run: Run, comparison: Comparison) -> Comparison:
    """``comparison`` with the verdict ``run`` was given when first judged: stored now when it has none (this is
    its first judgement), else the stored one replaces the one just computed (the record may have moved since; the
    run's verdict does not). Its rows and standing figures stay current (the "vs record" column)."""
    if comparison.judgement is None or run.id is None:
        return comparison
    stored = put_verdict(session, run_id=run.id, body=judgement_data(comparison.judgement))
    return replace(comparison, judgement=judgement_from(stored))
