"""One stored run in full, for ``show ID``: provenance, parameters, metrics, failure and code (pure)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from storage.tables import Run
from tools.metric_format import format_value


@dataclass(frozen=True)
class RunDetail:
    summary: str
    fields: list[list[str]]
    metrics: list[list[str]]
    code: str | None


def run_detail(run: Run) -> RunDetail:
    """The summary line, a field/value table, a metric/value table and the code of ``run``."""
    verdict = "ok" if run.ok else f"FAILED: {run.failure or 'no reason recorded'}"
    summary = f"#{run.id} {run.challenge} / {run.subject} by {run.member.name} — {verdict}"
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
    scopes = run.result.get("metric_scopes", {}) if isinstance(run.result, dict) else {}
    metrics = [[name, format_value(value), scopes.get(name, "")] for name, value in sorted(run.metrics.items())]
    return RunDetail(summary=summary, fields=fields, metrics=metrics, code=run.code)
