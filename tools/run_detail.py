"""One stored run in full, for ``show ID``: provenance, parameters, metrics (a seed set's: the mean, then the spread
and each seed's value), failure and code (pure)."""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass, field

from storage.tables import Run
from tools.metric_format import format_value

COUNTING_NOTE = "traced: every temporary counts, unlike SutroYaro's hand-counted figures of the same name"
"""Said once where a method run's ARD/DMC/ByteDMD are shown: the group's published method table instruments its
steps by hand (one-step sgd ARD 8,503.7 there, 13,940 traced here; km_min DMC 3,578 vs 17,814), so the same names
measure different counts (issue 14's finding; docs/verdicts.md)."""


def _seed_cell(values: list[float] | None) -> str:
    """``± 12 (100, 112, 124)``: the sample standard deviation and each seed's value."""
    if not values:
        return ""
    spread = statistics.stdev(values) if len(values) >= 2 else 0.0
    return f"± {format_value(spread)} ({', '.join(format_value(v) for v in values)})"


@dataclass(frozen=True)
class RunDetail:
    summary: str
    fields: list[list[str]]
    metrics: list[list[str]]
    code: str | None
    per_seed: dict[str, list[float]] = field(default_factory=dict)


def run_detail(run: Run) -> RunDetail:
    """The summary line, a field/value table, a metric/value table and the code of ``run``."""
    verdict = "ok" if run.ok else f"FAILED: {run.failure or 'no reason recorded'}"
    summary = f"#{run.id} {run.challenge} / {run.subject} by {run.member.name} — {verdict}"
    if run.kind == "method":
        summary += "\n" + COUNTING_NOTE
    fields = [
        ["challenge", run.challenge],
        ["kind", run.kind],
        ["subject", run.subject],
        ["member", run.member.name],
        ["when (UTC)", f"{run.created_at:%Y-%m-%d %H:%M:%S}"],
        ["status", run.status],
        ["params", json.dumps(run.params, sort_keys=True)],
        ["seeds", ", ".join(map(str, run.seeds)) or "—"],
        ["accuracy", format_value(run.accuracy)],
        ["wall time (s)", f"{run.wall_s:.3f}"],
        ["engine version", run.engine_version],
        ["code hash", run.code_hash or "—"],
        ["request key", run.request_key],
    ]
    detail = run.result if isinstance(run.result, dict) else {}
    scopes = detail.get("metric_scopes") or {}
    per_seed = detail.get("seed_metrics") or {}
    metrics = [[name, format_value(value), scopes.get(name, "")] for name, value in sorted(run.metrics.items())]
    if per_seed:  # a seed set: the value is the mean; each seed's value and the spread follow it
        metrics = [[*row, _seed_cell(per_seed.get(row[0]))] for row in metrics]
    return RunDetail(summary=summary, fields=fields, metrics=metrics, code=run.code, per_seed=dict(per_seed))
