"""Ideas and the assistant's monthly token usage: create, propose, claim for a run (atomically), finish.

The claim is one conditional UPDATE (``status = 'proposed'`` -> ``'running'``), so two presses of "Run it" — even
from two processes — give one run: the second sees rowcount 0 and is told who approved it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Update, and_, or_, update
from sqlmodel import Session, col, func, select

from storage.errors import StorageError
from storage.runs import member_named
from storage.tables import (
    IDEA_DISCARDED,
    IDEA_DRAFTING,
    IDEA_FAILED,
    IDEA_PROPOSED,
    IDEA_RAN,
    IDEA_RUNNING,
    AssistantUsage,
    Idea,
    Member,
)
from storage.timestamps import utcnow


class UnknownIdea(StorageError):
    """No idea with that id."""


def create_idea(session: Session, *, member: str, text: str, telegram_user_id: int | None = None) -> Idea:
    """A new idea in status ``drafting`` (it counts against the member's rate limit from now on)."""
    who = member_named(session, name=member, telegram_user_id=telegram_user_id)
    idea = Idea(member_id=who.id, text=text, status=IDEA_DRAFTING)  # type: ignore[arg-type]
    session.add(idea)
    session.commit()
    session.refresh(idea)
    return idea


def get_idea(session: Session, *, idea_id: int) -> Idea:
    idea = session.get(Idea, idea_id)
    if idea is None:
        raise UnknownIdea(f"no idea #{idea_id}", hint="the number is on the idea's card")
    return idea


def _set(session: Session, idea_id: int, **values: Any) -> Idea:
    idea = get_idea(session, idea_id=idea_id)
    for key, value in values.items():
        setattr(idea, key, value)
    session.add(idea)
    session.commit()
    session.refresh(idea)
    return idea


def propose(session: Session, *, idea_id: int, spec: dict[str, Any], code: str | None, tokens: int) -> Idea:
    """The assistant finished: store its spec and code; the idea waits for a person's approval."""
    return _set(session, idea_id, status=IDEA_PROPOSED, spec=dict(spec), code=code, tokens=tokens)


def fail(session: Session, *, idea_id: int, failure: str, tokens: int) -> Idea:
    """The assistant gave no valid spec (budget, overload, timeout, no valid code): keep why."""
    return _set(session, idea_id, status=IDEA_FAILED, failure=failure, tokens=tokens)


def _changed_a_row(session: Session, statement: Update) -> bool:
    """Run one conditional UPDATE and commit; True when it matched a row (the condition held)."""
    result = session.execute(statement)
    session.commit()
    return bool(result.rowcount)  # type: ignore[attr-defined]


def claim_for_run(session: Session, *, idea_id: int, approver: str, stale_before: datetime | None = None) -> bool:
    """Atomically move a proposed idea to ``running``; False when it is not (or no longer) proposed.

    ``stale_before``: a ``running`` claim made before this time is taken over too — no job runs that long
    (the job board stops it), so its run died without saying so (the bot was killed mid-run).
    """
    claimable = col(Idea.status) == IDEA_PROPOSED
    if stale_before is not None:
        claimable = or_(claimable, and_(col(Idea.status) == IDEA_RUNNING, col(Idea.approved_at) < stale_before))
    statement = (
        update(Idea)
        .where(col(Idea.id) == idea_id, claimable)
        .values(status=IDEA_RUNNING, approved_by=approver, approved_at=utcnow())
    )
    return _changed_a_row(session, statement)


def release_run(session: Session, *, idea_id: int, claimed_since: datetime) -> bool:
    """Put an idea whose run was stopped (cancelled, past its time limit, worker died) back to ``proposed``, so it
    can be approved again; only a claim made at or after ``claimed_since`` (the stopped job's submission), so a
    stopped second press never releases a run that is still going. False when there was nothing to release."""
    statement = (
        update(Idea)
        .where(
            col(Idea.id) == idea_id,
            col(Idea.status) == IDEA_RUNNING,
            col(Idea.approved_at) >= claimed_since,
        )
        .values(status=IDEA_PROPOSED, approved_by=None, approved_at=None)
    )
    return _changed_a_row(session, statement)


def fail_stopped_drafts(session: Session, *, member: str, since: datetime) -> list[int]:
    """Mark ``member``'s ideas still ``drafting`` since ``since`` as failed (their drafting job was stopped)."""
    rows = session.exec(
        select(Idea)
        .join(Member)
        .where(col(Member.name) == member, col(Idea.status) == IDEA_DRAFTING, col(Idea.created_at) >= since)
    ).all()
    for idea in rows:
        idea.status = IDEA_FAILED
        idea.failure = "stopped before the assistant finished (cancelled or past the job time limit)"
        session.add(idea)
    session.commit()
    return [idea.id for idea in rows if idea.id is not None]


def finish_run(session: Session, *, idea_id: int, run_id: int | None, outcome: str) -> Idea:
    """The approved run ended (ok or not): link the run and keep a one-line outcome."""
    return _set(session, idea_id, status=IDEA_RAN, run_id=run_id, outcome=outcome)


def discard(session: Session, *, idea_id: int) -> bool:
    """Atomically discard a proposed idea; False when it is not proposed (already running, ran or discarded)."""
    statement = (
        update(Idea).where(col(Idea.id) == idea_id, col(Idea.status) == IDEA_PROPOSED).values(status=IDEA_DISCARDED)
    )
    return _changed_a_row(session, statement)


def ideas_since(session: Session, *, member: str, since: datetime) -> int:
    """How many ideas ``member`` asked for since ``since`` (every status: failed attempts cost too)."""
    who = member_named(session, name=member)
    query = select(func.count()).select_from(Idea).where(Idea.member_id == who.id, Idea.created_at >= since)
    return int(session.exec(query).one())


def month_key(when: datetime) -> str:
    """``YYYY-MM`` of a UTC time: the budget period."""
    return f"{when:%Y-%m}"


def add_usage(session: Session, *, month: str, input_tokens: int, output_tokens: int) -> None:
    """Add one assistant request's tokens to the month (row created on first use)."""
    row = session.get(AssistantUsage, month)
    if row is None:
        session.add(AssistantUsage(month=month))
        session.commit()
    session.execute(
        update(AssistantUsage)
        .where(col(AssistantUsage.month) == month)
        .values(
            input_tokens=AssistantUsage.input_tokens + input_tokens,
            output_tokens=AssistantUsage.output_tokens + output_tokens,
            requests=AssistantUsage.requests + 1,
        )
    )
    session.commit()


def tokens_used(session: Session, *, month: str) -> tuple[int, int]:
    """(input, output) tokens used in ``month``."""
    session.expire_all()  # another process may have added usage since this session last looked
    row = session.get(AssistantUsage, month)
    return (0, 0) if row is None else (int(row.input_tokens), int(row.output_tokens))
