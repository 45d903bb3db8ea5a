"""The sprint-log entry of a stored run: a titled entry with its results table, written through the outbox; a passing
run's entry names its baseline and the primary metric's verdict against it (``baseline: sgd (#12), WIN``)."""

from __future__ import annotations

from bot.core.comparison import Comparison
from bot.core.services import Services
from storage.tables import Run


def log_run(services: Services, run: Run, comparison: Comparison) -> str:
    """Append ``run``'s entry (kind ``run`` for methods and generators, ``score`` for submissions and IR); returns a
    note for the card when entries are waiting for an unreachable sink, else ""."""
    params = " ".join(f"{k}={v}" for k, v in sorted(run.params.items()))
    title = f"{run.challenge} / {run.subject}" + (f" {params}" if params else "") + f" (#{run.id})"
    body = "" if run.ok else f"failed: {run.failure or 'no reason recorded'}"
    if run.ok and comparison.baseline is not None:
        verdict = comparison.versus_baseline
        body = f"baseline: {comparison.baseline.label}" + (f", {verdict.outcome.value}" if verdict is not None else "")
    kind = "run" if run.kind in ("method", "generate") else "score"
    sprint_log = services.sprint_log()
    appended = sprint_log.append_entry(
        author=run.member.name,
        kind=kind,
        title=title,
        body=body,
        results=[row.cells() for row in comparison.rows],
        run_id=run.id,
    )
    pending = appended.report.pending
    return "" if pending == 0 else f"{pending} entries waiting for {sprint_log.sink_name}"
