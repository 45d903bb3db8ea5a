"""The /explore journal: loops and their steps (docs/explore.md#journal).

A step is written, and the loop's counters and best moved with it, in one transaction, so the journal never says a
candidate was kept without the loop holding that candidate as its best. Loops left ``running`` by a process that
ended (a restart, a killed worker) are closed as ``interrupted`` with their best intact (:func:`close_orphans`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

from storage.errors import UnknownLoop
from storage.runs import member_named
from storage.tables import EXPLORE_INTERRUPTED, EXPLORE_RUNNING, ExploreLoop, ExploreStep
from storage.timestamps import utcnow

KEPT = "kept"
DISCARDED = "discarded"
INVALID = "invalid"


@dataclass(frozen=True)
class StepRecord:
    """What one judged candidate adds to the journal (``code`` only stored as the loop's best when kept)."""

    operator: str
    hypothesis: str
    outcome: str
    cost: int | None
    delta_pct: float | None
    reason: str
    wall_s: float
    code_hash: str
    code: str = ""
    spend_usd: float = 0.0


def open_loop(
    session: Session,
    *,
    member: str,
    board: str,
    params: dict[str, Any],
    goal: str,
    start_label: str,
    start_cost: int,
    start_code: str,
    record_cost: float | None,
    budget: dict[str, Any],
    metric: str = "dally@1",
) -> ExploreLoop:
    """A new running loop whose best is its start (commit)."""
    owner = member_named(session, name=member)
    assert owner.id is not None
    loop = ExploreLoop(
        member_id=owner.id,
        board=board,
        params=dict(params),
        metric=metric,
        goal=goal,
        start_label=start_label[:200],
        start_cost=start_cost,
        record_cost=record_cost,
        budget=dict(budget),
        best_cost=start_cost,
        best_code=start_code,
    )
    session.add(loop)
    session.commit()
    session.refresh(loop)
    return loop


def get_loop(session: Session, loop_id: int) -> ExploreLoop:
    loop = session.get(ExploreLoop, loop_id)
    if loop is None:
        raise UnknownLoop(f"no explore loop #{loop_id}", hint="explore loops are listed by `explore list`")
    return loop


def add_step(session: Session, loop_id: int, step: StepRecord, *, cpu_s: float) -> ExploreStep:
    """Journal one step and move the loop's counters (and its best, for a kept step) with it (commit)."""
    loop = get_loop(session, loop_id)
    row = ExploreStep(
        loop_id=loop_id,
        number=loop.steps_done + 1,
        operator=step.operator[:100],
        hypothesis=step.hypothesis,
        outcome=step.outcome,
        cost=step.cost,
        delta_pct=step.delta_pct,
        reason=step.reason,
        wall_s=step.wall_s,
        code_hash=step.code_hash,
    )
    loop.steps_done += 1
    loop.cpu_s += cpu_s
    loop.spend_usd += step.spend_usd
    if step.outcome == KEPT and step.cost is not None:
        loop.best_cost = step.cost
        loop.best_step = row.number
        loop.best_code = step.code
    session.add(row)
    session.add(loop)
    session.commit()
    session.refresh(row)
    return row


def close_loop(session: Session, loop_id: int, *, status: str, reason: str, run_id: int | None = None) -> ExploreLoop:
    """End a loop (commit); a loop already ended keeps its first ending."""
    loop = get_loop(session, loop_id)
    if loop.status == EXPLORE_RUNNING:
        loop.status = status
        loop.stop_reason = reason
        loop.ended_at = utcnow()
    if run_id is not None:
        loop.run_id = run_id
    session.add(loop)
    session.commit()
    session.refresh(loop)
    return loop


def loop_steps(session: Session, loop_id: int) -> list[ExploreStep]:
    """The loop's steps in order."""
    query = select(ExploreStep).where(col(ExploreStep.loop_id) == loop_id).order_by(col(ExploreStep.number))
    return list(session.exec(query))


def recent_loops(session: Session, *, limit: int = 20, member: str | None = None) -> list[ExploreLoop]:
    """Newest loops first (one member's when ``member`` is given)."""
    query = select(ExploreLoop).order_by(col(ExploreLoop.id).desc()).limit(limit)
    if member is not None:
        query = query.where(col(ExploreLoop.member_id) == member_named(session, name=member).id)
    return list(session.exec(query).unique())


def running_loops(session: Session, *, member: str | None = None) -> list[ExploreLoop]:
    query = select(ExploreLoop).where(col(ExploreLoop.status) == EXPLORE_RUNNING)
    loops = list(session.exec(query).unique())
    return [loop for loop in loops if member is None or loop.member.name == member]


def close_orphans(session: Session, *, started_before: datetime, reason: str) -> list[int]:
    """Close as interrupted every loop still running that started before ``started_before`` (commit); their ids."""
    query = select(ExploreLoop).where(col(ExploreLoop.status) == EXPLORE_RUNNING)
    closed = []
    for loop in session.exec(query).unique():
        if loop.started_at < started_before:
            loop.status = EXPLORE_INTERRUPTED
            loop.stop_reason = reason
            loop.ended_at = utcnow()
            session.add(loop)
            assert loop.id is not None
            closed.append(loop.id)
    session.commit()
    return closed


def code_with_hash(session: Session, content_hash: str) -> str | None:
    """The text of a stored run whose code has this content hash (any run: the text is the same), or None."""
    from storage.tables import Run

    query = select(Run.code).where(col(Run.code_hash) == content_hash).where(col(Run.code).is_not(None)).limit(1)
    return session.exec(query).first()
