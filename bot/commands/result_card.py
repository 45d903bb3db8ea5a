"""The parts every result card shares, rendered from the core's typed values: the comparison with the baseline
and the record, the standing line and the provenance line.

Pure rendering: the numbers come from :class:`bot.core.comparison.Comparison` (computed once, by the core, for the
card and the sprint-log entry alike), formatted by :mod:`tools.metric_format`.
"""

from __future__ import annotations

from typing import Any

from bot.commands.base import Followup, Table
from bot.core.comparison import Comparison, Standing
from bot.core.judgement import judgement_data
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
    record; a judged run's verdict lines come from :mod:`bot.core.judgement_words`."""
    if standing is None:
        return None
    where = standing.board.title if standing.board is not None else standing.challenge
    shown = f"{standing.metric} {format_value(standing.value)}"
    if standing.record is None:
        return f"{shown}: first stored result on {where}"
    return f"{shown}: {format_change(standing.value, standing.record)} vs the record on {where}"


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
