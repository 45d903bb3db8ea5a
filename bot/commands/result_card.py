"""The stored-result part of a result card: each metric against the challenge's baseline and its record.

Shared by ``run`` and ``submit``: after :func:`bot.recording.record_once` the run is in storage, so the rows
the sprint-log entry shows (``tools.result_rows``: value, change vs baseline, change vs record; lower is
better) are read back for the card, plus one line for the challenge's primary metric.
"""

from __future__ import annotations

from bot.commands.base import Table
from bot.context import AppContext
from bot.recording import Recorded, baseline_subject
from engine.challenges import CHALLENGES
from storage.runs import get_run
from tools.result_rows import result_rows

Row = tuple[str, str, str, str]


def stored_rows(ctx: AppContext, recorded: Recorded) -> list[Row]:
    """(metric, value, change vs baseline, change vs record) for the stored run, one row per metric."""
    with ctx.sessions()() as session:
        run = get_run(session, run_id=recorded.stored.id)
        return result_rows(session, run, baseline_subject=baseline_subject(run.challenge))


def primary_metric(challenge: str) -> str | None:
    """The challenge's primary metric (``dmc@1``, ``dally@1`` …), None for an unregistered name."""
    return CHALLENGES.get(challenge).primary_metric if challenge in CHALLENGES else None


def record_line(challenge: str, rows: list[Row]) -> str | None:
    """One line for the primary metric ("dally@1 133783: −2000 (−1.5%) vs the record …"), or None."""
    primary = primary_metric(challenge)
    row = next((r for r in rows if r[0] == primary), None)
    if row is None:
        return None
    metric, value, _, vs_record = row
    if not vs_record:
        return f"{metric} {value}: first stored result for {challenge}"
    return f"{metric} {value}: {vs_record} vs the record for {challenge}"


def comparison_table(rows: list[Row]) -> Table:
    """The rows as a card table (empty change cells are left blank)."""
    return Table(
        headers=["metric", "value", "vs baseline", "vs record"],
        rows=[list(r) for r in rows],
        title="against stored results",
    )
