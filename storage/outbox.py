"""Keyword-only queries for the sprint-log outbox: save an entry, list what is due in order, record the outcome.

The entry is committed before anyone tries to deliver it, so nothing acknowledged is lost while a sink is down.
Delivery is strictly in id order: :func:`next_due_entry` returns the oldest pending entry only when its back-off
has passed, so a failing entry holds back the ones after it instead of being overtaken.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from sqlmodel import Session, col, func, select

from storage.tables import ENTRY_DELIVERED, ENTRY_PENDING, SprintLogEntry
from storage.timestamps import utcnow


def save_entry(
    session: Session,
    *,
    author: str,
    kind: str,
    title: str,
    body: str = "",
    results: list[dict[str, str]] | None = None,
    run_id: int | None = None,
    created_at: datetime | None = None,
) -> SprintLogEntry:
    """Commit a new pending entry with a fresh random ``uid`` (its marker in the document) and return it."""
    entry = SprintLogEntry(
        uid=secrets.token_hex(6),
        author=author,
        kind=kind,
        title=title,
        body=body,
        results=list(results or []),
        run_id=run_id,
        created_at=created_at or utcnow(),
    )
    session.add(entry)
    session.commit()
    session.refresh(entry)
    return entry


def next_due_entry(session: Session, *, now: datetime | None = None) -> SprintLogEntry | None:
    """The oldest pending entry if it may be tried now (its back-off elapsed), else None."""
    oldest = session.exec(
        select(SprintLogEntry).where(SprintLogEntry.state == ENTRY_PENDING).order_by(col(SprintLogEntry.id)).limit(1)
    ).first()
    if oldest is None:
        return None
    if oldest.next_attempt_at is not None and oldest.next_attempt_at > (now or utcnow()):
        return None
    return oldest


def mark_delivered(session: Session, *, entry_id: int) -> None:
    """Record that entry ``entry_id`` is in the sink (commit)."""
    entry = session.get(SprintLogEntry, entry_id)
    assert entry is not None, entry_id
    entry.state = ENTRY_DELIVERED
    entry.delivered_at = utcnow()
    entry.last_error = None
    entry.next_attempt_at = None
    session.commit()


def mark_failed_attempt(session: Session, *, entry_id: int, error: str, retry_after: timedelta) -> None:
    """Count a failed delivery of entry ``entry_id`` and schedule the next try ``retry_after`` from now (commit)."""
    entry = session.get(SprintLogEntry, entry_id)
    assert entry is not None, entry_id
    entry.attempts += 1
    entry.last_error = error[:2000]
    entry.next_attempt_at = utcnow() + retry_after
    session.commit()


def backlog_size(session: Session) -> int:
    """How many entries wait for delivery."""
    return int(session.exec(select(func.count()).where(SprintLogEntry.state == ENTRY_PENDING)).one())


def entries(session: Session, *, limit: int = 50) -> list[SprintLogEntry]:
    """The newest entries first, whatever their state."""
    return list(session.exec(select(SprintLogEntry).order_by(col(SprintLogEntry.id).desc()).limit(limit)).all())
