"""The card and the JSON of a judged submission (IR text, ``generate()``, ``solve()``), shared by ``submit`` and
``score`` — one judging path, one card, one JSON schema (README: "JSON output").

Pure rendering of :class:`bot.core.recording.RecordedRun`.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from bot.commands.base import Reply, Table
from bot.commands.result_card import card_footer, details, verdict_data
from bot.core.recording import RecordedRun
from engine.metrics import ARD, ARD_PER_READ, DMC
from engine.result import RunResult
from engine.sandbox import FLOATS_READ
from engine.scoring import METRIC
from tools.metric_format import format_value
from tools.recovery_text import recovery_data, recovery_lines

SUBMISSION_KEYS = (
    "ok",
    "challenge",
    "kind",
    "label",
    "accuracy",
    "failure",
    "failure_kind",
    "error",
    "metric",
    "cost",
    "instructions",
    "reads",
    "metrics",
    "metric_scopes",
    "run_id",
    "reused",
    "submission_id",
    "identical_to",
    "published_as",
    "judged_by",
    "tier",
    "sandbox",
    "review_flags",
    "code_hash",
    "engine_version",
    "recovery",
    "verdict",
)
"""The keys of a judged submission's JSON, in order (README: "JSON output")."""
IR_PRICED = ("ir", "generate")
"""Kinds whose cost is the IR scorer's (``dally@1``), with instruction and read counts."""


NOTHING_TO_MEASURE = "nothing to measure"
"""What the panel says for a clock metric of a solve() whose counted reads read no float (engine.metrics.clock):
``x[:0].sum()`` has a read distance and so an ``ard_per_read@1`` value, but nothing was measured."""
CLOCK_METRICS = (ARD, ARD_PER_READ, DMC)
PROTOCOL_LINE = (
    "protocol: this tool's judge — remote arrays, {instances} secret instances of judge epoch {epoch}"
    " (run solve=FILE --compat spc measures by the sparse-parity-challenge protocol: another figure)"
)
"""The line naming the protocol a judged solve()'s figures are measured under."""


def _where(result: RunResult) -> str:
    provenance = result.provenance
    if provenance is None:
        return "trusted scorer"
    if provenance.sandbox_tier:
        return f"sandbox tier {provenance.sandbox_tier}"
    return provenance.sandbox or "trusted scorer"


def submission_data(recorded: RecordedRun, label: str) -> dict[str, Any]:
    """The ``--json`` answer for a judged submission (every key always present; None where it does not apply)."""
    result = recorded.result
    provenance = result.provenance
    cost = result.metrics.get(METRIC) if result.kind in IR_PRICED else None
    return {
        "ok": result.ok,
        "challenge": result.challenge,
        "kind": result.kind,
        "label": label,
        "accuracy": result.accuracy,
        "failure": result.failure,
        "failure_kind": None if result.failure_kind is None else result.failure_kind.value,
        "error": None if result.ok else (result.failure or "rejected"),
        "metric": METRIC if cost is not None else None,
        "cost": None if cost is None else int(cost),
        "instructions": result.counts.get("instructions") if cost is not None else None,
        "reads": result.counts.get("reads") if cost is not None else None,
        "metrics": result.metrics,
        "metric_scopes": result.metric_scopes,
        "run_id": recorded.stored.id,
        "reused": recorded.stored.reused,
        "submission_id": recorded.submission_id,
        "identical_to": identical_to(recorded),
        "published_as": None if recorded.published_as is None else asdict(recorded.published_as),
        "judged_by": None if provenance is None else provenance.judged_by,
        "tier": None if provenance is None else provenance.sandbox_tier,
        "sandbox": None if provenance is None else provenance.sandbox,
        "review_flags": [] if provenance is None else provenance.review_flags,
        "code_hash": recorded.stored.run.code_hash,
        "engine_version": result.engine_version,
        "recovery": recovery_data(result.recovery),
        "verdict": verdict_data(recorded),
    }


def identical_to(recorded: RecordedRun) -> dict[str, Any] | None:
    """The earlier submission credited for this result (run id, member, label, ISO time), or None when this
    submission holds the credit itself."""
    credit = recorded.credit
    if credit is None or not recorded.credited_elsewhere:
        return None
    return {
        "run_id": credit.run_id,
        "member": credit.member,
        "label": credit.label,
        "submitted_at": credit.submitted_at.isoformat(),
    }


def unjudged_data(error: str, challenge: str | None) -> dict[str, Any]:
    """The same JSON object for input refused before it could be judged (a file that is not text at all)."""
    empty: dict[str, Any] = {key: None for key in SUBMISSION_KEYS}
    return {
        **empty,
        "ok": False,
        "challenge": challenge,
        "failure": error,
        "failure_kind": "rejected",
        "error": error,
        "metrics": {},
        "metric_scopes": {},
        "review_flags": [],
    }


def submission_card(recorded: RecordedRun, label: str) -> Reply:
    """The result card for a judged submission (text, metric panel, stored comparison) and its JSON data."""
    result = recorded.result
    verdict = "passed" if result.ok else f"FAILED: {result.failure or 'no reason recorded'}"
    acc = f", accuracy {result.accuracy:.1%}" if result.accuracy is not None else ""
    lines = [f"{label} ({result.kind}) on {result.challenge}: {verdict}{acc}", *recovery_lines(result.recovery)]
    unmeasured = result.kind == "solve" and result.counts.get(FLOATS_READ) == 0
    panel = [
        [
            key,
            NOTHING_TO_MEASURE if unmeasured and key in CLOCK_METRICS else format_value(value),
            result.metric_scopes.get(key, ""),
        ]
        for key, value in sorted(result.metrics.items())
    ]
    if result.kind in IR_PRICED and METRIC in result.metrics:
        counts = result.counts
        panel += [[name, format_value(counts[name]), "count"] for name in ("instructions", "reads") if name in counts]
    # a failed submission is not a result: its card says why, with no metric table
    shown = panel and result.ok
    tables = [Table(headers=["metric", "value", "measured"], rows=panel, title="metrics")] if shown else []
    self_reported = [k for k, scope in result.metric_scopes.items() if "self-reported" in scope]
    if self_reported:
        lines.append("self-reported (measured inside your code, not verified): " + ", ".join(self_reported))
    elif result.kind == "solve" and panel:
        lines.append("metrics measured by the judge, outside your code (none self-reported)")
    if result.kind == "solve":
        instances = result.params.get("instances", "the")
        lines.append(PROTOCOL_LINE.format(instances=instances, epoch=result.params.get("epoch", "—")))
    if unmeasured:
        lines.append("nothing to measure: your solve() read no float of a written buffer")
    lines.append(_where(result))
    flags = result.provenance.review_flags if result.provenance is not None else []
    if flags:
        lines.append("flagged for review: " + "; ".join(flags[:5]) + (" …" if len(flags) > 5 else ""))
    baseline = recorded.comparison.baseline
    if result.ok and baseline is not None and baseline.note:
        lines.append(f"the baseline, {baseline.label}: {baseline.note}")
    footer_lines, footer_tables = card_footer(recorded)
    lines += footer_lines
    tables += footer_tables
    return Reply(
        text="\n".join(lines),
        tables=tables,
        data=submission_data(recorded, label),
        ok=result.ok,
        failure_kind=result.failure_kind,
        followups=details(recorded),
    )
