"""Collect one week's digest input from the database: records, standings, runs, the sprints that ran and the
sprint-log entries saved (the query side of tools/digest)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlmodel import Session

from storage.digests import runs_between
from storage.outbox import entries_between
from storage.scores import scored_runs
from storage.sprints import sprints_overlapping
from storage.verdicts import verdict_body
from tools.board import split_by_board
from tools.digest import ChallengeWeek, DigestInput, SprintWeek, WeekEntry
from tools.leaderboard import TRAINING_MEASURE, rank_best
from tools.published.records import published_scores
from tools.records import RecordChange, record_history


def _judged_record(session: Session, change: RecordChange) -> bool:
    """Whether the run's own verdict, as its card and log entry stated it (``run_verdicts``), called it a record:
    a new record (a WIN beyond noise and not a LOSS against its baseline) or the first on its board. A run judged
    before verdicts were stored counts as the record history says."""
    body = verdict_body(session, run_id=change.record.run_id)
    return body is None or bool(body.get("new_record")) or bool(body.get("first_on_board"))


def gather_week(
    session: Session,
    *,
    week: str,
    start: datetime,
    end: datetime,
    challenges: Sequence[tuple[str, str]],
    sprint_log: str,
) -> DigestInput:
    """The digest input for ``[start, end)``: ``challenges`` are (name, ranking metric) pairs, in order.

    One section per board of each challenge (instance and track, tools/board.py), named by the board.
    Records count only runs created before ``end`` and judged records by their own verdict (:func:`_judged_record`);
    a record set in the window names the record it beat even
    when that one is older than the window. Standings are as of ``end``. A board's ``history`` (for its chart) also
    holds the group's published records on it, as ``/records`` shows them; its ``active`` counts the scored results
    of the window.
    """
    weeks = []
    for challenge, metric in challenges:
        scores = [s for s in scored_runs(session, challenge=challenge, metric=metric) if s.created_at < end]
        # one standing per board (tools/board.py): instances and tracks never mix
        published = split_by_board(challenge, published_scores(challenge, metric, session))
        for board, entries in split_by_board(challenge, scores).items():
            records = [
                c for c in record_history(entries) if c.record.created_at >= start and _judged_record(session, c)
            ]
            active = sum(s.created_at >= start for s in entries)
            progression = sorted([*published.get(board, []), *entries], key=lambda s: (s.created_at, s.run_id))
            weeks.append(
                ChallengeWeek(
                    board.name + (f" ({TRAINING_MEASURE})" if board.track == "training" else ""),
                    metric,
                    records,
                    rank_best(entries),
                    active,
                    record_history(progression),
                )
            )
    sprints = [
        SprintWeek(s.title, s.tldr, s.ended_at is not None and s.ended_at < end)
        for s in sprints_overlapping(session, start=start, end=end)
    ]
    logged = [
        WeekEntry(
            created_at=e.created_at,
            author=e.author,
            kind=e.kind,
            line=(e.detail or {}).get("headline") or e.title,
            verdict=str((e.detail or {}).get("verdict") or ""),
            run_id=e.run_id,
        )
        for e in entries_between(session, start=start, end=end)
        if e.kind in ("note", "idea", "run", "score")
    ]
    return DigestInput(
        week=week,
        start=start,
        end=end,
        challenges=weeks,
        runs=runs_between(session, start=start, end=end),
        sprint_log=sprint_log,
        sprints=sprints,
        entries=logged,
    )
