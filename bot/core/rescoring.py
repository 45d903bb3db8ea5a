"""Re-score stored runs when a metric's version changes: keep both values, report what re-ranked.

The re-scorer is passed in (wired by the composition root under the metric it computes): it gets a stored run and
returns the new metric's value — or a :class:`Rescored`, the value with the attribution computed with it (per-buffer
tables and reuse histograms, or an IR run's rings), stored beside the value (``run_attributions``) so the run is
explained under the new version too — or None when the run cannot be re-scored (no stored code). :func:`ir_rescorer` is
the IR scorer's: it prices a stored IR / generate() run again from its stored code — IR text by the trusted scorer
in a resource-limited child, a member's ``generate()`` run again in the sandbox and its text scored the same way.
A run without code, a solve() or a method run, or code that no longer produces IR, is skipped (None).
:func:`method_rescorer` traces a stored method run again from its stored parameters (its seed among them, so the
run is the same) and gives the metric with the run's new per-buffer tables and reuse histograms; a solve() run is
skipped (its hidden instances are not kept).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine.attribution import Attribution
from engine.errors import EngineError
from engine.scoring import METRIC
from storage.attributions import put_attribution
from storage.database import SessionFactory
from storage.scores import add_metric_value, runs_with_metric_named, scored_runs
from storage.tables import Run
from tools.errors import ToolError
from tools.leaderboard import rank_best


@dataclass(frozen=True)
class Rescored:
    """A re-scored value and the attribution the re-scoring computed with it (None when it computed none)."""

    value: float
    attribution: Attribution | None = None


Rescorer = Callable[[Run], "float | Rescored | None"]


@dataclass(frozen=True)
class RankChange:
    challenge: str
    member: str
    subject: str
    old_rank: int | None
    new_rank: int | None


@dataclass
class RescoreReport:
    old_metric: str
    new_metric: str
    rescored: int = 0
    attributed: int = 0
    skipped: list[int] = field(default_factory=list)
    rank_changes: list[RankChange] = field(default_factory=list)


def _split(metric: str) -> tuple[str, str]:
    name, at, version = metric.partition("@")
    if not at or not name or not version:
        raise ToolError(f"metric {metric!r} has no version", hint="write metrics as name@version, e.g. dally@2")
    return name, version


def _ranks(sessions: SessionFactory, challenge: str, metric: str) -> dict[tuple[str, str], int]:
    with sessions() as session:
        board = rank_best(scored_runs(session, challenge=challenge, metric=metric))
    return {(row.best.member, row.best.subject): row.rank for row in board}


def rescore(sessions: SessionFactory, *, old_metric: str, new_metric: str, rescorer: Rescorer) -> RescoreReport:
    """Add ``new_metric`` to every active run that has ``old_metric`` and lacks it; report rank changes."""
    old_name, _ = _split(old_metric)
    new_name, _ = _split(new_metric)
    if old_name != new_name or old_metric == new_metric:
        raise ToolError(
            f"cannot re-score {old_metric} as {new_metric}",
            hint="give two versions of the same metric, e.g. rescore dally@1 dally@2",
        )
    report = RescoreReport(old_metric=old_metric, new_metric=new_metric)
    with sessions() as session:
        runs = [r for r in runs_with_metric_named(session, name=old_name) if old_metric in r.metrics]
        for run in runs:
            if new_metric in run.metrics:
                continue
            outcome = rescorer(run)
            if outcome is None:
                report.skipped.append(run.id)  # type: ignore[arg-type]
                continue
            rescored = outcome if isinstance(outcome, Rescored) else Rescored(float(outcome))
            add_metric_value(session, run_id=run.id, metric=new_metric, value=rescored.value)  # type: ignore[arg-type]
            if rescored.attribution is not None:
                body = rescored.attribution.to_dict()
                put_attribution(session, run_id=run.id, metric=new_metric, body=body)  # type: ignore[arg-type]
                report.attributed += 1
            report.rescored += 1
    for challenge in sorted({r.challenge for r in runs}):
        before, after = _ranks(sessions, challenge, old_metric), _ranks(sessions, challenge, new_metric)
        for member, subject in sorted(set(before) | set(after)):
            old_rank, new_rank = before.get((member, subject)), after.get((member, subject))
            if old_rank != new_rank:
                report.rank_changes.append(RankChange(challenge, member, subject, old_rank, new_rank))
    return report


IR_KINDS = ("ir", "generate")


def ir_rescorer(*, dev_override: bool = False) -> Rescorer:
    """A re-scorer giving a stored IR/generate run's current ``dally@N`` from its stored code, with its attribution
    by address ring, or None."""

    def rescore_run(run: Run) -> Rescored | None:
        from bot.core.judging import score_ir_limited  # the sandbox is loaded only when re-scoring
        from engine.sandbox import detect_kind, run_generate

        if run.kind not in IR_KINDS or not run.code:
            return None
        try:
            kind = detect_kind(run.code)
            if kind == "generate":
                generated = run_generate(run.code, dev_override=dev_override)
                text = generated.text
            else:
                text = run.code if kind == "ir" else None
        except EngineError:
            return None
        if text is None:
            return None
        result = score_ir_limited(run.challenge, text, label=run.subject)
        value = result.metrics.get(METRIC)
        return None if value is None else Rescored(float(value), result.buffer_attribution)

    return rescore_run


def method_rescorer(metric: str) -> Rescorer:
    """A re-scorer giving a stored method run's ``metric`` (as the engine computes it now) by tracing the method
    again with the stored parameters, with the per-buffer tables and histograms of that trace; None for any other
    kind of run, a method or parameter the engine no longer knows, or a metric the trace does not give."""

    def rescore_run(run: Run) -> Rescored | None:
        from engine.methods import run_method  # the tracer is loaded only when re-scoring

        if run.kind != "method":
            return None
        try:
            result = run_method(run.subject, run.params)
        except EngineError:
            return None
        value = result.metrics.get(metric)
        return None if value is None else Rescored(float(value), result.buffer_attribution)

    return rescore_run
