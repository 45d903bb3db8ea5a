"""The stored-result part of a result card: each metric against the challenge's baseline and its record.

Shared by ``run`` and ``submit``: after :func:`bot.recording.record_once` the run is in storage, so the rows
the sprint-log entry shows (``tools.result_rows``: value, change vs baseline, change vs the record when it was
stored; lower is better) are read back for the card, plus one line comparing the challenge's primary metric
with the current record (the best other valid stored run).
"""

from __future__ import annotations

from bot.baselines import baseline_metrics
from bot.commands.base import Table
from bot.context import AppContext
from bot.recording import Recorded
from storage.runs import get_run
from storage.scores import scored_runs
from tools.metric_format import format_change, format_value
from tools.result_rows import result_rows

Row = tuple[str, str, str, str]


def stored_rows(ctx: AppContext, recorded: Recorded) -> list[Row]:
    """(metric, value, change vs baseline, change vs record) for the stored run, one row per metric."""
    with ctx.sessions()() as session:
        run = get_run(session, run_id=recorded.stored.id)
        return result_rows(session, run, baseline=baseline_metrics(session, run))


def record_line(ctx: AppContext, recorded: Recorded) -> str | None:
    """The primary metric (the admins' ``metric.primary.<challenge>``) against the current record (the best other
    valid stored run, lower is better): "dally@1 133783: −206921 (−60.7%) vs the record for matmul_16x16"; None
    when the run has no such value."""
    result = recorded.result
    primary = ctx.tool_config().primary_metrics().get(result.challenge)
    if not result.ok or primary is None or primary not in result.metrics:
        return None
    value = float(result.metrics[primary])
    with ctx.sessions()() as session:
        others = [
            s.value
            for s in scored_runs(session, challenge=result.challenge, metric=primary)
            if s.run_id != recorded.stored.id
        ]
    shown = f"{primary} {format_value(value)}"
    if not others:
        return f"{shown}: first stored result for {result.challenge}"
    record = min(others)
    if value < record:
        return f"{shown}: new record for {result.challenge}, {format_change(value, record)} vs the previous one"
    return f"{shown}: {format_change(value, record)} vs the record for {result.challenge}"


def comparison_table(rows: list[Row]) -> Table:
    """The rows as a card table (empty change cells are left blank)."""
    return Table(
        headers=["metric", "value", "vs baseline", "vs record"],
        rows=[list(r) for r in rows],
        title="against stored results",
    )
