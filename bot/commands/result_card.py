"""The parts every result card shares, rendered from the core's typed values: the comparison with the baseline
and the record, the standing line, the provenance line and the card footer.

Pure rendering: the numbers come from :class:`bot.core.comparison.Comparison` (computed once, by the core, for the
card and the sprint-log entry alike), formatted by :mod:`tools.metric_format`.
"""

from __future__ import annotations

from typing import Any

from bot.commands.base import Followup, Table
from bot.core.comparison import Comparison, Standing
from bot.core.judgement import judgement_data
from bot.core.judgement_words import baseline_words, judgement_lines
from bot.core.recording import RecordedRun
from engine.attribution import AttributionDiff
from tools.metric_format import format_change, format_value


def details(recorded: RecordedRun) -> list[Followup]:
    """The card's "details" follow-up: ``show ID`` of the stored run (an inline button in Telegram; the card's text
    names the same command for the terminal)."""
    return [Followup("details", f"show {recorded.stored.id}")]


TOP_MOVERS = 3
"""Buffers named on a method's card: the three that explain most of the change against the baseline."""


def standing_line(standing: Standing | None) -> str | None:
    """The primary metric against the current record of the run's board, for a run without a stored judgement
    (``/show`` of a board with no primary metric): "dally@1 66,000: first stored result on …" or the change vs the
    record; the verdict lines of a judged run come from :func:`verdict_lines`."""
    if standing is None:
        return None
    where = standing.board.title if standing.board is not None else standing.challenge
    shown = f"{standing.metric} {format_value(standing.value)}"
    if standing.record is None:
        return f"{shown}: first stored result on {where}"
    return f"{shown}: {format_change(standing.value, standing.record)} vs the record on {where}"


def verdict_lines(recorded: RecordedRun) -> list[str]:
    """The run's one verdict as the core judged it (:mod:`bot.core.judgement_words`): against the record, then
    against the baseline; a failed run's reason. Another member's credited result, or the group's published program,
    states no record of this member's (only the baseline line)."""
    judgement = recorded.comparison.judgement
    if judgement is None:
        line = standing_line(recorded.comparison.standing) if recorded.result.ok else None
        return [line] if line else []
    if recorded.credited_elsewhere or recorded.published_as is not None:  # not this member's record to claim
        own = baseline_words(judgement)
        return [own] if own else []
    return judgement_lines(judgement)


def verdict_data(recorded: RecordedRun) -> dict[str, Any] | None:
    """The same verdict for ``--json`` (:func:`bot.core.judgement.judgement_data`), None when the board has no
    primary metric."""
    judgement = recorded.comparison.judgement
    return None if judgement is None else judgement_data(judgement)


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


def card_footer(recorded: RecordedRun, *, verdicts: bool = True) -> tuple[list[str], list[Table]]:
    """The lines and table that end every result card: the run's verdict lines (``verdicts=False`` when the card
    printed them already; a result credited to another submission, or a published program, states no record of
    this member's), the comparison table (for a passing run with something to compare with: a failed run shows why
    it failed, not a table), and the provenance line (whose published record the program is, when identical to
    one)."""
    lines: list[str] = verdict_lines(recorded) if verdicts else []
    tables: list[Table] = []
    own = not recorded.credited_elsewhere and recorded.published_as is None
    standing = recorded.comparison.standing
    if own and recorded.result.ok and standing is not None and standing.differs:
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
