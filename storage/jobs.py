"""The jobs ledger: keyword-only queries that move an executor job through queued → running → done/failed/cancelled.

The database is the durable record of every job an executor (local processes or a Dask cluster) was given: the bot
writes ``enqueue`` and ``request_cancel``; the worker running the job writes ``start_attempt`` and ``finish`` and
polls ``cancel_is_requested``. A job key is unique: enqueueing a key that is queued or running attaches to it;
enqueueing a finished key starts it again (a new attempt of the same row).
"""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from storage.tables import (
    JOB_CANCELLED,
    JOB_FINAL_STATES,
    JOB_QUEUED,
    JOB_RUNNING,
    JobRecord,
)
from storage.timestamps import utcnow


def get_job(session: Session, *, key: str) -> JobRecord | None:
    """The ledger row for ``key`` (None when never enqueued)."""
    return session.exec(select(JobRecord).where(JobRecord.key == key)).first()


def enqueue(
    session: Session, *, key: str, command: str, description: str = "", member: str = ""
) -> tuple[JobRecord, bool]:
    """Record a submission; returns ``(row, start)`` — ``start`` is False when ``key`` is already queued or running
    (the caller attaches to that job) and True when the caller must start the work. Commits."""
    for _attempt in range(3):
        row = get_job(session, key=key)
        if row is not None and row.state not in JOB_FINAL_STATES:
            return row, False
        if row is None:
            row = JobRecord(key=key, command=command, description=description[:500], member=member[:200])
        else:
            row.state, row.reason, row.cancel_requested = JOB_QUEUED, None, False
            row.submitted_at, row.started_at, row.finished_at = utcnow(), None, None
        session.add(row)
        try:
            session.commit()
        except IntegrityError:  # another submitter inserted the same key first: attach to theirs
            session.rollback()
            continue
        return row, True
    raise RuntimeError(f"could not enqueue job {key}")  # pragma: no cover - three lost races in a row


def start_attempt(session: Session, *, key: str, worker: str) -> JobRecord | None:
    """Mark ``key`` running on ``worker`` and count the attempt; None when it was cancelled or already finished
    (the worker must not run it). Commits."""
    row = get_job(session, key=key)
    if row is None or row.state in JOB_FINAL_STATES or row.cancel_requested:
        if row is not None and row.cancel_requested and row.state not in JOB_FINAL_STATES:
            _set_final(row, JOB_CANCELLED, "cancelled before it started")
            session.add(row)
            session.commit()
        return None
    row.state, row.attempts, row.worker = JOB_RUNNING, row.attempts + 1, worker[:200]
    row.started_at = utcnow()
    session.add(row)
    session.commit()
    return row


def finish(session: Session, *, key: str, state: str, reason: str | None = None) -> JobRecord | None:
    """Record the outcome of ``key`` (``done``, ``failed`` or ``cancelled``) unless it already has one. Commits."""
    if state not in JOB_FINAL_STATES:
        raise ValueError(f"not a final job state: {state}")
    row = get_job(session, key=key)
    if row is None or row.state in JOB_FINAL_STATES:
        return row
    _set_final(row, state, reason)
    session.add(row)
    session.commit()
    return row


def request_cancel(session: Session, *, key: str, reason: str) -> JobRecord | None:
    """Ask for ``key`` to stop: a queued job is cancelled at once; a running one when its worker sees the flag."""
    row = get_job(session, key=key)
    if row is None or row.state in JOB_FINAL_STATES:
        return row
    row.cancel_requested = True
    if row.state == JOB_QUEUED:
        _set_final(row, JOB_CANCELLED, reason)
    else:
        row.reason = reason[:2000]
    session.add(row)
    session.commit()
    return row


def cancel_is_requested(session: Session, *, key: str) -> bool:
    """Whether ``request_cancel`` was called for ``key`` (polled by the worker running it)."""
    row = session.exec(select(JobRecord.cancel_requested).where(JobRecord.key == key)).first()
    return bool(row)


def _set_final(row: JobRecord, state: str, reason: str | None) -> None:
    row.state = state
    row.reason = (reason or row.reason or None) if state != "done" else None
    if row.reason:
        row.reason = row.reason.splitlines()[0][:2000] if row.reason.strip() else None
    row.finished_at = utcnow()


def active_jobs(session: Session) -> list[JobRecord]:
    """Every ledger row still ``queued`` or ``running`` (oldest first): each should have a live owner."""
    rows = session.exec(select(JobRecord).where(col(JobRecord.state).in_([JOB_QUEUED, JOB_RUNNING]))).all()
    return sorted(rows, key=lambda row: row.id or 0)
