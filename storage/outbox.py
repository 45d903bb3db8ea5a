"""Keyword-only queries for the sprint-log outbox: save an entry, list what is due in order, record the outcome.

The entry is committed before anyone tries to deliver it, so nothing acknowledged is lost while a sink is down.
Delivery is strictly in id order: :func:`next_due_entry` returns the oldest pending entry only when its back-off
has passed, so an entry that fails for a passing reason (an outage, a quota) holds back the ones after it instead of
being overtaken. An entry the sink refuses for good is *parked* (:func:`park_entry`) with its reason and no longer
holds anything back; an admin retries it (:func:`retry_parked`, it becomes the oldest pending entry again) or drops
it (:func:`drop_parked`).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session, col, func, select

from storage.tables import (
    ENTRY_DELIVERED,
    ENTRY_DROPPED,
    ENTRY_PARKED,
    ENTRY_PENDING,
    SprintLogChart,
    SprintLogEntry,
)
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
    sprint_id: int | None = None,
    detail: dict[str, Any] | None = None,
    charts: Sequence[tuple[str, str, bytes]] = (),
) -> SprintLogEntry:
    """Commit a new pending entry with a fresh random ``uid`` (its marker in the document) and return it, with its
    charts (name, caption, PNG bytes) in the same transaction."""
    entry = SprintLogEntry(
        sprint_id=sprint_id,
        detail=dict(detail or {}),
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
    session.flush()
    assert entry.id is not None
    for name, caption, png in charts:
        session.add(SprintLogChart(entry_id=entry.id, name=name, caption=caption, png=png))
    session.commit()
    session.refresh(entry)
    return entry


def entry_charts(session: Session, *, entry_id: int) -> list[SprintLogChart]:
    """The charts of entry ``entry_id``, in the order they were saved."""
    query = select(SprintLogChart).where(SprintLogChart.entry_id == entry_id).order_by(col(SprintLogChart.id))
    return list(session.exec(query).all())


def sprint_entries(session: Session, *, sprint_id: int) -> list[SprintLogEntry]:
    """Every entry of sprint ``sprint_id``, oldest first, whatever its state."""
    query = select(SprintLogEntry).where(SprintLogEntry.sprint_id == sprint_id).order_by(col(SprintLogEntry.id))
    return list(session.exec(query).all())


def entries_between(session: Session, *, start: datetime, end: datetime) -> list[SprintLogEntry]:
    """Entries saved in ``[start, end)``, oldest first (dropped ones left out)."""
    query = (
        select(SprintLogEntry)
        .where(SprintLogEntry.created_at >= start, SprintLogEntry.created_at < end)
        .where(SprintLogEntry.state != ENTRY_DROPPED)
        .order_by(col(SprintLogEntry.id))
    )
    return list(session.exec(query).all())


def next_due_entry(
    session: Session, *, now: datetime | None = None, ignore_backoff: bool = False
) -> SprintLogEntry | None:
    """The oldest pending entry if it may be tried now (its back-off elapsed, or ``ignore_backoff``), else None."""
    oldest = session.exec(
        select(SprintLogEntry).where(SprintLogEntry.state == ENTRY_PENDING).order_by(col(SprintLogEntry.id)).limit(1)
    ).first()
    if oldest is None:
        return None
    if not ignore_backoff and oldest.next_attempt_at is not None and oldest.next_attempt_at > (now or utcnow()):
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


def park_entry(session: Session, *, entry_id: int, reason: str) -> None:
    """Set entry ``entry_id`` aside with ``reason``: the sink refused it for good (commit)."""
    entry = session.get(SprintLogEntry, entry_id)
    assert entry is not None, entry_id
    entry.state = ENTRY_PARKED
    entry.attempts += 1
    entry.last_error = reason[:2000]
    entry.next_attempt_at = None
    session.commit()


def parked_entries(session: Session, *, limit: int = 20) -> list[SprintLogEntry]:
    """Parked entries, oldest first."""
    query = select(SprintLogEntry).where(SprintLogEntry.state == ENTRY_PARKED).order_by(col(SprintLogEntry.id))
    return list(session.exec(query.limit(limit)).all())


def parked_count(session: Session) -> int:
    """How many entries are parked."""
    return int(session.exec(select(func.count()).where(SprintLogEntry.state == ENTRY_PARKED)).one())


def retry_parked(session: Session, *, entry_id: int) -> SprintLogEntry | None:
    """Make parked entry ``entry_id`` pending and due now (commit); None if there is no such parked entry."""
    entry = session.get(SprintLogEntry, entry_id)
    if entry is None or entry.state != ENTRY_PARKED:
        return None
    entry.state = ENTRY_PENDING
    entry.next_attempt_at = None
    session.commit()
    session.refresh(entry)
    return entry


def drop_parked(session: Session, *, entry_id: int) -> SprintLogEntry | None:
    """Give up on parked entry ``entry_id`` (kept, state ``dropped``; commit); None if there is no such entry."""
    entry = session.get(SprintLogEntry, entry_id)
    if entry is None or entry.state != ENTRY_PARKED:
        return None
    entry.state = ENTRY_DROPPED
    session.commit()
    session.refresh(entry)
    return entry


def get_entry(session: Session, *, entry_id: int) -> SprintLogEntry | None:
    """Entry ``entry_id`` whatever its state, or None."""
    return session.get(SprintLogEntry, entry_id)


def backlog_size(session: Session) -> int:
    """How many entries wait for delivery."""
    return int(session.exec(select(func.count()).where(SprintLogEntry.state == ENTRY_PENDING)).one())


def entries(session: Session, *, limit: int = 50) -> list[SprintLogEntry]:
    """The newest entries first, whatever their state."""
    return list(session.exec(select(SprintLogEntry).order_by(col(SprintLogEntry.id).desc()).limit(limit)).all())
