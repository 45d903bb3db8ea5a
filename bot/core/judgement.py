"""The one verdict of a stored result: against its baseline and against its board's record, computed once.

:func:`bot.core.comparison.compare` builds a :class:`Judgement` for every stored run it compares; the result card,
the sprint-log entry (and so the digest, which reads the entry), ``/show`` and ``--json`` all render this value
(:mod:`bot.core.judgement_words`) and never judge again. Everything is on the board's primary metric over each
side's seed (or hidden-instance) values; per-step figures are diagnostics and carry no verdict of their own.

The rules (docs/verdicts.md#one-verdict-per-result):

- A failed run is not a result: it has no WIN or LOSS (:attr:`Judgement.outcome` is None) and only says why.
- **Headline outcome**: the verdict against the baseline when the run has one, else the one against the record.
- **New record** only when the run is a WIN against the board's current record *and* not a LOSS against its
  baseline. A WIN over the record that loses to the baseline is "the best on its board so far", with the baseline's
  factor said (``best built-in solver gf2 (#12) is 6.2× cheaper``).
- A spread that swamps the comparison is said in words (:func:`swamped`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from bot.core.verdict import DEFAULT_RULE, LINEAR, LOG, Outcome, Verdict, VerdictRule
from tools.metric_format import format_relative_change


@dataclass(frozen=True)
class Judgement:
    """A stored run's verdict on its board's primary ``metric`` (metric@version) on board ``board`` (its title).

    value: the run's mean (None: the run has no value of the metric, e.g. it failed). baseline: the baseline's
    label (``sgd (#1)``), None without one. record: the board's current record value (None: the run is the first
    on its board); record_label: whose it is (``#12``, ``@sjbaebae (published)``). The two verdicts are over each
    side's seed values (:func:`bot.core.verdict.judge`); None where there is nothing to compare with.
    frozen: the date (ISO) the group retired the run's tier when the run was stored after it — its board is frozen,
    so the run stands on no board: no record, no "first result" ("" for a current board).
    """

    metric: str
    board: str
    passed: bool
    value: float | None
    failure: str | None = None
    baseline: str | None = None
    versus_baseline: Verdict | None = None
    record: float | None = None
    record_label: str = ""
    versus_record: Verdict | None = None
    rule: VerdictRule = DEFAULT_RULE
    baseline_name: str | None = None
    baseline_run: int | None = None
    frozen: str = ""

    @property
    def loses_to_baseline(self) -> bool:
        return self.versus_baseline is not None and self.versus_baseline.outcome is Outcome.LOSS

    @property
    def beats_record(self) -> bool:
        """A WIN against the board's current record (beyond the noise of both sides)."""
        return self.passed and self.versus_record is not None and self.versus_record.outcome is Outcome.WIN

    @property
    def new_record(self) -> bool:
        """A WIN against the record and not a LOSS against the baseline: the only case called "new record"."""
        return self.beats_record and not self.loses_to_baseline

    @property
    def first_on_board(self) -> bool:
        return self.passed and self.value is not None and self.record is None and not self.frozen

    @property
    def outcome(self) -> Outcome | None:
        """The headline outcome: against the baseline when there is one, else against the record; None for a
        failed run (not a result) or a run with nothing to compare with."""
        if not self.passed:
            return None
        if self.versus_baseline is not None:
            return self.versus_baseline.outcome
        return None if self.versus_record is None else self.versus_record.outcome


@dataclass(frozen=True)
class BaselineChoice:
    """The baseline a stored judgement was made against: its name (None: the run had no baseline) and its stored
    run (None: none, or a built-in program computed from the challenge)."""

    name: str | None
    run_id: int | None


def baseline_choice(data: dict[str, Any] | None) -> BaselineChoice | None:
    """The baseline chosen when the stored judgement ``data`` was made; None when ``data`` is None or was stored
    before the choice was kept with it (the caller then chooses as it did then)."""
    if data is None or "baseline_run" not in data:
        return None
    name, run_id = data.get("baseline_name"), data.get("baseline_run")
    return BaselineChoice(None if name is None else str(name), None if run_id is None else int(run_id))


def swamped(verdict: Verdict, rule: VerdictRule) -> str:
    """Words for a spread that decides an INCONCLUSIVE comparison ("" otherwise: a WIN or a LOSS, no spread, or a
    margin the minimum relative size set).

    On the log scale the spread is one standard deviation of the log costs written as a factor (``×/÷1.6``:
    within a factor of 1.6 either way), of the per-seed ratios when the sides are paired:
    ``spread of the per-seed ratios ×/÷1.6 swamps the change (−12 %)``, ``spread ×/÷2.0 swamps the change
    (−29 %)``. On the linear scale (a value ≤ 0, or a verdict stored before the log rule) the spread is a share of
    the larger of the two means: ``spread ±71 %: INCONCLUSIVE whatever the mean`` when the margin reaches the
    reference's mean (no candidate mean, down to 0, could beat it), else ``spread ±17 % swamps the change
    (−0.46 %)``.
    """
    if verdict.outcome is not Outcome.INCONCLUSIVE or verdict.spread <= 0 or verdict.reference_mean == 0:
        return ""
    change = format_relative_change(verdict.candidate_mean, verdict.reference_mean)
    if verdict.scale == LOG:
        if rule.spread_factor * verdict.spread <= math.log1p(rule.min_change):
            return ""
        factor = math.exp(verdict.spread)
        shown = f"{factor:.1f}" if factor < 10 else f"{factor:,.0f}"
        of = "spread of the per-seed ratios" if verdict.paired else "spread"
        return f"{of} ×/÷{shown} swamps the change ({change})"
    ref = abs(verdict.reference_mean)
    by_spread = rule.spread_factor * verdict.spread
    if by_spread <= rule.min_change * ref:
        return ""
    relative = verdict.spread / max(ref, abs(verdict.candidate_mean)) * 100
    shown = f"±{relative:.0f} %" if relative >= 10 else f"±{relative:.2g} %"
    if verdict.change >= 0 and by_spread >= ref:
        return f"spread {shown}: INCONCLUSIVE whatever the mean"
    return f"spread {shown} swamps the change ({change})"


def _verdict_data(verdict: Verdict | None) -> dict[str, Any] | None:
    if verdict is None:
        return None
    return {
        "outcome": verdict.outcome.value,
        "candidate_mean": verdict.candidate_mean,
        "reference_mean": verdict.reference_mean,
        "change": verdict.change,
        "margin": verdict.margin,
        "spread": verdict.spread,
        "reason": verdict.reason,
        "scale": verdict.scale,
        "paired": verdict.paired,
    }


def _verdict_from(data: Any) -> Verdict | None:
    if not isinstance(data, dict):
        return None
    return Verdict(
        outcome=Outcome(data["outcome"]),
        candidate_mean=float(data["candidate_mean"]),
        reference_mean=float(data["reference_mean"]),
        change=float(data["change"]),
        margin=float(data["margin"]),
        spread=float(data["spread"]),
        reason=str(data["reason"]),
        scale=str(data.get("scale") or LINEAR),
        paired=bool(data.get("paired", False)),
    )


def judgement_data(judgement: Judgement) -> dict[str, Any]:
    """The judgement as JSON (stored in ``run_verdicts`` and given by ``--json`` under ``verdict``): the inputs,
    both verdicts with their figures, and the derived ``outcome``, ``new_record`` and ``first_on_board``."""
    j = judgement
    return {
        "metric": j.metric,
        "board": j.board,
        "passed": j.passed,
        "value": j.value,
        "failure": j.failure,
        "baseline": j.baseline,
        "baseline_name": j.baseline_name,
        "baseline_run": j.baseline_run,
        "versus_baseline": _verdict_data(j.versus_baseline),
        "record": j.record,
        "record_label": j.record_label,
        "versus_record": _verdict_data(j.versus_record),
        "rule": {"min_change": j.rule.min_change, "spread_factor": j.rule.spread_factor},
        "outcome": None if j.outcome is None else j.outcome.value,
        "new_record": j.new_record,
        "first_on_board": j.first_on_board,
        "frozen": j.frozen or None,
    }


def judgement_from(data: dict[str, Any]) -> Judgement:
    """A stored judgement read back (the inverse of :func:`judgement_data`; derived keys are recomputed from the
    stored verdicts, which are not)."""
    rule = data.get("rule") or {}
    value, record = data.get("value"), data.get("record")
    choice = baseline_choice(data)
    return Judgement(
        metric=str(data["metric"]),
        board=str(data["board"]),
        passed=bool(data["passed"]),
        value=None if value is None else float(value),
        failure=data.get("failure"),
        baseline=data.get("baseline"),
        versus_baseline=_verdict_from(data.get("versus_baseline")),
        record=None if record is None else float(record),
        record_label=str(data.get("record_label") or ""),
        versus_record=_verdict_from(data.get("versus_record")),
        rule=VerdictRule(
            min_change=float(rule.get("min_change", DEFAULT_RULE.min_change)),
            spread_factor=float(rule.get("spread_factor", DEFAULT_RULE.spread_factor)),
        ),
        baseline_name=None if choice is None else choice.name,
        baseline_run=None if choice is None else choice.run_id,
        frozen=str(data.get("frozen") or ""),
    )
