"""The parts every result card shares, rendered from the core's typed values: the comparison with the baseline
and the record, the standing line, the provenance line and the card footer.

Pure rendering: the numbers come from :class:`bot.core.comparison.Comparison` (computed once, by the core, for the
card and the sprint-log entry alike), formatted by :mod:`tools.metric_format`.
"""

from __future__ import annotations

from bot.commands.base import Table
from bot.core.comparison import Comparison, Standing
from bot.core.recording import RecordedRun
from tools.metric_format import format_change, format_value


def standing_line(standing: Standing | None) -> str | None:
    """The verdict of the primary metric against the current record of the run's board: "WIN — dally@1 66,000: new
    record on matmul_16x16 · program · dally@1, −1.1% vs the previous one (@sjbaebae (published))"; None when the
    run has no such value. "New record" only on a WIN (docs/verdicts.md)."""
    if standing is None:
        return None
    where = standing.board.title if standing.board is not None else standing.challenge
    shown = f"{standing.metric} {format_value(standing.value)}"
    verdict = standing.verdict
    if standing.record is None or verdict is None:
        return f"{shown}: first stored result on {where}"
    change = format_change(standing.value, standing.record)
    by = f" ({standing.record_by})" if standing.record_by else ""
    if standing.is_new_record:
        beaten = "the group's published record" if standing.record_by else "the previous one"
        return f"WIN — {shown}: new record on {where}, {change} vs {beaten}{by}"
    return f"{verdict.outcome.value} — {shown}: {change} vs the record on {where}{by}"


def comparison_table(comparison: Comparison) -> Table:
    """The rows as a card table (empty change cells are left blank)."""
    return Table(
        headers=["metric", "value", "vs baseline", "vs record"],
        rows=[list(r.cells()) for r in comparison.rows],
        title="against stored results",
    )


def provenance_line(recorded: RecordedRun) -> str:
    """One line under a result card: the run id, and whether this is a stored answer."""
    if recorded.stored.reused:
        return f"run #{recorded.stored.id} (stored result; add --force to run it again)"
    return f"run #{recorded.stored.id}, logged to the sprint log" + (
        f" ({recorded.log_note})" if recorded.log_note else ""
    )


def card_footer(recorded: RecordedRun) -> tuple[list[str], list[Table]]:
    """The lines and table that end every result card: the standing against the record, the comparison table
    (for a passing run with something to compare with), and the provenance line."""
    lines: list[str] = []
    tables: list[Table] = []
    if recorded.result.ok and (line := standing_line(recorded.comparison.standing)) is not None:
        lines.append(line)
    if recorded.result.ok and recorded.comparison.has_reference:
        tables.append(comparison_table(recorded.comparison))
    lines.append(provenance_line(recorded))
    return lines, tables
