"""Keyword-only queries for the weekly digest: claim a week (at most once), mark it posted, and the week's
runs.

:func:`claim_week` inserts the week's row in its own transaction; the unique ``week`` column makes the insert
fail for every process but the first, so two bot processes started by mistake cannot both post the same week.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from storage.tables import DIGEST_POSTED, ROLE_MEMBER, RUN_ACTIVE, DigestPost, Member, Run
from storage.timestamps import utcnow


def claim_week(
    session: Session, *, week: str, slot_at: datetime, reason: str, claimed_by: str, chat_id: int | None
) -> bool:
    """Claim ``week`` for posting (commit); False if any process claimed it before (nothing changes then)."""
    session.add(DigestPost(week=week, slot_at=slot_at, reason=reason, claimed_by=claimed_by[:200], chat_id=chat_id))
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        return False
    return True


def mark_posted(session: Session, *, week: str) -> None:
    """Record that ``week``'s digest reached the chat (commit)."""
    post = session.exec(select(DigestPost).where(DigestPost.week == week)).one()
    post.state = DIGEST_POSTED
    post.posted_at = utcnow()
    session.commit()


def release_week(session: Session, *, week: str) -> None:
    """Drop the claim of ``week`` after a send that certainly failed, so a later try may post it (commit)."""
    post = session.exec(select(DigestPost).where(DigestPost.week == week)).first()
    if post is not None and post.state != DIGEST_POSTED:
        session.delete(post)
        session.commit()


def digest_post(session: Session, *, week: str) -> DigestPost | None:
    return session.exec(select(DigestPost).where(DigestPost.week == week)).first()


def latest_digest(session: Session) -> DigestPost | None:
    """The most recently claimed week's row, if any."""
    return session.exec(select(DigestPost).order_by(col(DigestPost.slot_at).desc()).limit(1)).first()


@dataclass(frozen=True)
class WeekRun:
    """One active run of the week, as the digest needs it."""

    run_id: int
    member: str
    challenge: str
    subject: str
    ok: bool
    failure: str | None
    created_at: datetime


def runs_between(session: Session, *, start: datetime, end: datetime) -> list[WeekRun]:
    """Active members' runs created in ``[start, end)``, oldest first (baselines the system ran are no one's
    activity)."""
    query = (
        select(Run, Member.name)
        .join(Member, col(Member.id) == col(Run.member_id))
        .where(col(Run.created_at) >= start, col(Run.created_at) < end, Run.status == RUN_ACTIVE)
        .where(col(Run.role) == ROLE_MEMBER)
        .order_by(col(Run.created_at), col(Run.id))
    )
    out = []
    for run, name in session.exec(query).all():
        assert run.id is not None
        out.append(WeekRun(run.id, name, run.challenge, run.subject, run.ok, run.failure, run.created_at))
    return out
