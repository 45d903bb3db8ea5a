"""The card and the JSON of a judged submission (IR text, ``generate()``, ``solve()``), shared by ``submit`` and
``score`` — one judging path, one card, one JSON schema (README: "JSON output").

Pure rendering of :class:`bot.core.recording.RecordedRun`.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from bot.commands.base import Reply
from bot.commands.card_voice import metric_name, scored_card, value_words
from bot.commands.result_card import details, verdict_data
from bot.core.recording import RecordedRun
from engine.sandbox import FLOATS_READ
from engine.scoring import METRIC
from tools.metric_format import format_value
from tools.recovery_text import recovery_data

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
PROTOCOL_LINE = (
    "protocol: this tool's judge — remote arrays, {instances} secret instances of judge epoch {epoch}"
    " (run solve=FILE --compat spc measures by the sparse-parity-challenge protocol: another figure)"
)
"""The line naming the protocol a judged solve()'s figures are measured under."""


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
    """The result card of a judged submission in the group's voice (:func:`bot.commands.card_voice.scored_card`):
    the stored verdict against the baseline in the headline, what was measured (the IR cost and reads, or a
    solve()'s accuracy and the judged metric), the board standing, review flags and self-reported metrics, the run
    id. The metric panel, the protocol, where it was judged and the comparison table are in ``show ID``."""
    result = recorded.result
    judgement = recorded.comparison.judgement
    unmeasured = result.kind == "solve" and result.counts.get(FLOATS_READ) == 0
    measured = ""
    if result.ok:
        acc = f"accuracy {result.accuracy:.1%}" if result.accuracy is not None else "passed"
        if result.kind in IR_PRICED and METRIC in result.metrics:
            reads = result.counts.get("reads")
            measured = f"correct: {metric_name(METRIC)} {format_value(result.metrics[METRIC])}" + (
                f", {format_value(reads)} reads" if reads is not None else ""
            )
        elif unmeasured:
            measured = f"{acc}, {NOTHING_TO_MEASURE}"
        elif judgement is not None and judgement.value is not None:
            measured = f"{acc}, {value_words(judgement)}"
        else:
            measured = acc
    flags = result.provenance.review_flags if result.provenance is not None else []
    self_reported = [k for k, scope in result.metric_scopes.items() if "self-reported" in scope]
    notes = [
        f"flagged for review ({len(flags)})" if flags else "",
        ("self-reported: " + ", ".join(self_reported)) if self_reported else "",
    ]
    card = scored_card(recorded, f"{label} ({result.kind})", measured, notes)
    return Reply(
        text=card.text(),
        data=submission_data(recorded, label),
        ok=result.ok,
        failure_kind=result.failure_kind,
        followups=details(recorded),
    )
