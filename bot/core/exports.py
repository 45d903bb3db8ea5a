"""What ``sutro export`` writes, gathered from the store: an /explore journal or a board's results as research-log
entries (:mod:`tools.research_log`), and a board's record history as the group's README table
(:mod:`tools.record_table`) with the members' programs.

Every figure is the stored one: a step's cost as its judge priced it, a run's verdict as it was stored when it was
judged (docs/verdicts.md) — nothing is computed again here.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.core.explore_view import LoopView, read_loop
from bot.core.judgement import judgement_from
from bot.core.judgement_words import judgement_summary
from bot.core.services import Services
from engine.metrics import DALLY
from storage.explore import DISCARDED, INVALID, KEPT
from storage.runs import get_run
from storage.scores import ScoredRun, scored_runs
from storage.verdicts import verdict_body
from tools.board import BAND_KEY
from tools.published.records import PUBLISHED_MEMBER_SUFFIX, published_scores
from tools.record_table import RecordRow
from tools.records import record_history
from tools.research_log import LogEntry

STEP_CLASS = {KEPT: "WIN", DISCARDED: "LOSS", INVALID: "LOSS"}
"""A kept step beat the loop's best (WIN); a discarded or refused one did not (LOSS, the reason in the notes)."""


def loop_entries(loop: LoopView) -> list[LogEntry]:
    """One entry per step of ``loop``, each against the loop's best just before it."""
    best = loop.start_cost
    best_label = loop.start_label
    entries = []
    for step in loop.steps:
        notes = {KEPT: "kept: the loop's new best", INVALID: f"refused: {step.reason}"}.get(step.outcome, "")
        entries.append(
            LogEntry(
                id=f"explore-{loop.loop_id}-{step.number:03d}",
                researcher=loop.member,
                date=(step.created_at or loop.started_at)[:10],
                challenge=loop.board_label,
                hypothesis=step.hypothesis,
                method=f"explore/{step.operator}",
                changed={"operator": step.operator},
                baseline={"method": best_label, DALLY: best},
                result={DALLY: step.cost, "passed": step.outcome != INVALID},
                delta_pct={} if step.delta_pct is None else {DALLY: round(step.delta_pct, 3)},
                outcome=STEP_CLASS[step.outcome],
                notes=notes,
            )
        )
        if step.outcome == KEPT and step.cost is not None:
            best, best_label = step.cost, f"explore #{loop.loop_id} step {step.number}"
    return entries


def journal_entries(services: Services, loop_ids: list[int]) -> list[LogEntry]:
    """The steps of the loops ``loop_ids``, in order (UnknownLoop, one line, for an id not stored)."""
    return [entry for loop_id in loop_ids for entry in loop_entries(read_loop(services, loop_id))]


def board_entries(services: Services, board: str, metric: str) -> list[LogEntry]:
    """One entry per stored valid run of ``board`` with a value of ``metric``, oldest first, with its stored verdict."""
    entries = []
    with services.sessions()() as session:
        for score in scored_runs(session, challenge=board, metric=metric):
            body = verdict_body(session, run_id=score.run_id)
            judgement = judgement_from(body) if body is not None else None
            versus = judgement.versus_baseline if judgement is not None else None
            outcome = judgement.outcome if judgement is not None else None
            relative = versus.relative if versus is not None else None
            entries.append(
                LogEntry(
                    id=f"run-{score.run_id}",
                    researcher=score.member,
                    date=score.created_at.date().isoformat(),
                    challenge=board,
                    hypothesis=f"{score.subject} on {board}",
                    method=score.subject,
                    changed=dict(score.params),
                    baseline={}
                    if versus is None or judgement is None
                    else {"method": judgement.baseline, metric: versus.reference_mean},
                    result={metric: score.value},
                    delta_pct={} if relative is None else {metric: round(-100.0 * relative, 3)},
                    outcome=outcome.value if outcome is not None else "INCONCLUSIVE",
                    notes=judgement_summary(judgement) if judgement is not None else "",
                )
            )
    return entries


def record_rows(services: Services, board: str, params: Mapping[str, int], metric: str = DALLY) -> list[RecordRow]:
    """The board's record history (published records and members' runs at this instance), oldest first; members'
    rows carry their program text."""
    band = params.get(BAND_KEY)
    with services.sessions()() as session:
        entries: list[ScoredRun] = [
            *published_scores(board, metric, session),
            *scored_runs(session, challenge=board, metric=metric),
        ]
        entries = [s for s in entries if band is None or s.params.get(BAND_KEY) == band]
        entries.sort(key=lambda s: (s.created_at, s.run_id))
        rows = []
        for change in record_history(entries):
            r = change.record
            program = None if r.published else get_run(session, run_id=r.run_id).code
            rows.append(
                RecordRow(
                    date=r.created_at.date().isoformat(),
                    cost=r.value,
                    contributors=tuple(
                        m.strip() for m in r.member.removesuffix(PUBLISHED_MEMBER_SUFFIX).split(",") if m.strip()
                    ),
                    description=r.subject,
                    link=r.source,
                    program=program,
                )
            )
    return rows
