"""The parts every result card shares, rendered from the core's typed values: the comparison with the baseline
and the record, the standing line, the provenance line and the card footer.

Pure rendering: the numbers come from :class:`bot.core.comparison.Comparison` (computed once, by the core, for the
card and the sprint-log entry alike), formatted by :mod:`tools.metric_format`.
"""

from __future__ import annotations

from typing import Any

from bot.commands.base import Followup, Table
from bot.core.comparison import Comparison, Standing
from bot.core.recording import RecordedRun
from engine.attribution.diff import AttributionDiff
from tools.metric_format import format_change, format_value


def details(recorded: RecordedRun) -> list[Followup]:
    """The card's "details" follow-up: ``show ID`` of the stored run (an inline button in Telegram; the card's text
    names the same command for the terminal)."""
    return [Followup("details", f"show {recorded.stored.id}")]


TOP_MOVERS = 3
"""Buffers named on a method's card: the three that explain most of the change against the baseline."""


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
    """The rows as a card table (empty change cells are left blank); the title names the baseline."""
    named = "" if comparison.baseline is None else f" (baseline: {comparison.baseline.label})"
    return Table(
        headers=["metric", "value", "vs baseline", "vs record"],
        rows=[list(r.cells()) for r in comparison.rows],
        title="against stored results" + named,
    )


def credit_line(recorded: RecordedRun) -> str | None:
    """ "identical to run #12 by alice (label "xor"), submitted 2026-11-24 01:02 UTC — the board credits that
    submission; yours is #15" when the stored result is credited to an earlier submission; None otherwise."""
    credit = recorded.credit
    if credit is None or not recorded.credited_elsewhere:
        return None
    when = f"{credit.submitted_at:%Y-%m-%d %H:%M} UTC"
    mine = f"; yours is #{recorded.submission_id}" if recorded.submission_id is not None else ""
    return (
        f"identical to run #{credit.run_id} by {credit.member} (label {credit.label!r}), submitted {when}"
        f" — the board credits that submission{mine}"
    )


def provenance_line(recorded: RecordedRun) -> str:
    """One line under a result card: the run id, and whether this is a stored answer (and whose) — or the group's
    published record it is identical to."""
    if recorded.published_as is not None:
        run = recorded.stored.id
        return f"{recorded.published_as.line()} — credited to its authors, not counted as yours (run #{run})"
    if (credited := credit_line(recorded)) is not None:
        if recorded.stored.reused:
            return credited
        return f"run #{recorded.stored.id}, run again at your request; {credited}"
    if recorded.stored.reused:
        return f"run #{recorded.stored.id} (stored result; add --force to run it again)"
    return f"run #{recorded.stored.id}, logged to the sprint log" + (
        f" ({recorded.log_note})" if recorded.log_note else ""
    )


def card_footer(recorded: RecordedRun) -> tuple[list[str], list[Table]]:
    """The lines and table that end every result card: whose published record the program is (when identical to
    one), the standing against the record (only on a result credited to this request: another submitter's record,
    or a published one, is not this member's), the comparison table (for a passing run
    with something to compare with), and the provenance line."""
    lines: list[str] = []
    tables: list[Table] = []
    own = not recorded.credited_elsewhere and recorded.published_as is None
    standing = recorded.comparison.standing
    if own and recorded.result.ok and (line := standing_line(standing)) is not None:
        lines.append(line)
        if standing is not None and standing.differs:
            lines.append(standing.differs.replace("not like for like", "the record is not like for like"))
    if recorded.result.ok and recorded.comparison.has_reference:
        tables.append(comparison_table(recorded.comparison))
    lines.append(provenance_line(recorded))
    return lines, tables


def mover_lines(diff: AttributionDiff, baseline: str, top: int = TOP_MOVERS) -> list[str]:
    """The heading and one short line per top mover against ``baseline`` (largest part of the change first):
    ``b1: −27,988 (51%), distance 18,369 → 6,497``; a buffer found in one run only says so."""
    lines = [f"top movers vs {baseline}, {diff.metric} ({diff.scope}):"]
    for r in diff.rows[:top]:
        sign = "+" if r.change > 0 else "−" if r.change < 0 else ""
        share = f" ({r.share_of_change:.0%})".replace("-", "−") if diff.change else ""
        if r.a is not None and r.b is not None:
            where = f"distance {format_value(round(r.a.mean_distance))} → {format_value(round(r.b.mean_distance))}"
        else:
            where = r.verdict
        lines.append(f"{r.name}: {sign}{format_value(round(abs(r.change)))}{share}, {where}")
    return lines


def movers_data(diff: AttributionDiff, top: int = TOP_MOVERS) -> dict[str, Any]:
    """The same movers for ``--json``: metric, scope, totals and per buffer its change, share and verdict."""
    return {
        "metric": diff.metric,
        "scope": diff.scope,
        "total_a": diff.total_a,
        "total_b": diff.total_b,
        "rows": [
            {"buffer": r.name, "change": r.change, "share_of_change": r.share_of_change, "verdict": r.verdict}
            for r in diff.rows[:top]
        ],
    }
