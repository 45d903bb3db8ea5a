"""Keyword-only queries for sprints: start one, find the running one, end it, keep its TLDR.

At most one sprint runs at a time (``ended_at`` is NULL); :func:`start_sprint` refuses a second one by returning
None, so the caller can say which sprint is running.
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, col, func, select

from storage.tables import Sprint, SprintLogEntry
from storage.timestamps import utcnow


def running_sprint(session: Session) -> Sprint | None:
    """The sprint that has not ended, if any (the newest, should there ever be two)."""
    query = select(Sprint).where(col(Sprint.ended_at).is_(None)).order_by(col(Sprint.id).desc()).limit(1)
    return session.exec(query).first()


def start_sprint(
    session: Session,
    *,
    title: str,
    goal: str,
    started_by: str,
    started_by_id: int | None = None,
    started_at: datetime | None = None,
) -> Sprint | None:
    """Commit a new running sprint and return it; None while another sprint runs (nothing is written)."""
    if running_sprint(session) is not None:
        return None
    sprint = Sprint(
        title=title,
        goal=goal,
        started_by=started_by,
        started_by_id=started_by_id,
        started_at=started_at or utcnow(),
    )
    session.add(sprint)
    session.commit()
    session.refresh(sprint)
    return sprint


def end_sprint(session: Session, *, sprint_id: int, ended_by: str, ended_at: datetime | None = None) -> Sprint:
    """Mark sprint ``sprint_id`` ended now (commit) and return it."""
    sprint = session.get(Sprint, sprint_id)
    assert sprint is not None, sprint_id
    sprint.ended_at = ended_at or utcnow()
    sprint.ended_by = ended_by
    session.commit()
    session.refresh(sprint)
    return sprint


def get_sprint(session: Session, *, sprint_id: int) -> Sprint | None:
    return session.get(Sprint, sprint_id)


def set_tldr(session: Session, *, sprint_id: int, tldr: str, through: int | None = None) -> None:
    """Keep the TLDR last written for sprint ``sprint_id`` and the newest entry it covers (commit)."""
    sprint = session.get(Sprint, sprint_id)
    assert sprint is not None, sprint_id
    sprint.tldr = tldr
    if through is not None:
        sprint.tldr_through = through
    session.commit()


TLDR_KIND = "tldr"
"""The entry kind of a TLDR itself (it changes nothing a TLDR summarises)."""


def sprints_due_a_tldr(session: Session) -> list[int]:
    """Ids of the sprints with an entry (other than a TLDR) newer than the one their TLDR covers, oldest first:
    the ones whose TLDR is out of date, each once until it is rewritten."""
    newest = (
        select(SprintLogEntry.sprint_id, func.max(SprintLogEntry.id))
        .where(col(SprintLogEntry.sprint_id).is_not(None), SprintLogEntry.kind != TLDR_KIND)
        .group_by(col(SprintLogEntry.sprint_id))
    )
    covered = {s.id: s.tldr_through for s in session.exec(select(Sprint)).all()}
    due = []
    for sprint_id, last in session.exec(newest).all():
        if sprint_id is None or last is None or sprint_id not in covered:
            continue
        through = covered[sprint_id]
        if through is None or last > through:
            due.append(int(sprint_id))
    return sorted(due)


def sprints_overlapping(session: Session, *, start: datetime, end: datetime) -> list[Sprint]:
    """Sprints that ran at some time in ``[start, end)``, oldest first."""
    query = (
        select(Sprint)
        .where(Sprint.started_at < end)
        .where(col(Sprint.ended_at).is_(None) | (col(Sprint.ended_at) >= start))
        .order_by(col(Sprint.id))
    )
    return list(session.exec(query).all())
