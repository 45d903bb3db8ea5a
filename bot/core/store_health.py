"""What ``status`` shows of the database and the queues kept in it: the schema's migration against the shipped one,
the sprint-log outbox (waiting, parked, the oldest failure) and the last weekly digest. Each is read in one short
session and handed back as a value."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from storage.database import SessionFactory
from storage.digests import latest_digest
from storage.migrate import database_revision, shipped_head
from storage.outbox import backlog_size, next_due_entry, parked_count, parked_entries
from storage.tables import DIGEST_CLAIMED


@dataclass(frozen=True)
class Migrations:
    """The schema revision the database is at (None: never migrated) and the one this version ships."""

    current: str | None
    shipped: str | None

    @property
    def behind(self) -> bool:
        return self.current != self.shipped


def migrations(sessions: SessionFactory) -> Migrations:
    """The database's migration state; a StorageError (or the driver's own error) when it cannot be reached."""
    with sessions() as session:
        current = database_revision(session.connection())
    return Migrations(current=current, shipped=shipped_head())


@dataclass(frozen=True)
class ParkedEntry:
    """A sprint-log entry given up on after its retries: its id, title and the last delivery error."""

    entry: int
    title: str
    reason: str


@dataclass(frozen=True)
class OutboxState:
    """The sprint-log outbox: entries ``waiting`` for delivery, ``parked`` ones (the first few in ``shown``, oldest
    first), and the first line of the oldest waiting entry's last failure ("" when it has not failed)."""

    waiting: int
    parked: int
    oldest_failure: str
    shown: list[ParkedEntry]


def outbox_state(sessions: SessionFactory, *, show_parked: int = 5) -> OutboxState:
    """The outbox now, with at most ``show_parked`` parked entries named."""
    with sessions() as session:
        waiting = backlog_size(session)
        parked = parked_count(session)
        oldest = next_due_entry(session, ignore_backoff=True)
        shown = [
            ParkedEntry(entry=e.id or 0, title=e.title, reason=e.last_error or "")
            for e in parked_entries(session, limit=show_parked)
        ]
    failure = oldest.last_error.splitlines()[0] if oldest is not None and oldest.last_error else ""
    return OutboxState(waiting=waiting, parked=parked, oldest_failure=failure, shown=shown)


STUCK_CLAIM = timedelta(hours=1)
"""A digest claimed this long ago and not posted is reported broken (sending one takes seconds)."""


@dataclass(frozen=True)
class LastDigest:
    """The most recently claimed week's digest: its ISO week, state and why; ``stuck`` when it was claimed over
    :data:`STUCK_CLAIM` ago and never posted (its sender died mid-send, or failed without releasing it)."""

    week: str
    state: str
    reason: str
    stuck: bool


def last_digest(sessions: SessionFactory, *, now: datetime | None = None) -> LastDigest | None:
    """The last digest, or None when none was ever claimed."""
    with sessions() as session:
        last = latest_digest(session)
    if last is None:
        return None
    at = now or datetime.now(UTC)
    stuck = last.state == DIGEST_CLAIMED and at - last.claimed_at > STUCK_CLAIM
    return LastDigest(week=last.week, state=last.state, reason=last.reason, stuck=stuck)
