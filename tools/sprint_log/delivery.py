"""Deliver the sprint-log outbox: the oldest pending entry first, exactly once, retrying 429/5xx with back-off.

Order: only the oldest pending entry is ever tried, so entries land in the order they were saved. Exactly once:
an entry is marked delivered only after the sink accepted it, and the sink skips an entry whose marker it already
holds — so a crash between the write and :func:`storage.outbox.mark_delivered` leads to a skip, not a duplicate.
Nothing lost: after ``tries_per_round`` failed tries the entry stays pending with a later ``next_attempt_at``;
the next round (the next entry saved, or a periodic job) picks it up again.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from storage.database import SessionFactory
from storage.outbox import backlog_size, mark_delivered, mark_failed_attempt, next_due_entry
from storage.tables import SprintLogEntry
from tools.sprint_log.entry import LogEntry
from tools.sprint_log.sink import DeliveryFailed, SprintLogSink


@dataclass(frozen=True)
class Backoff:
    """Exponential back-off in seconds: ``base_s * factor**attempt``, capped at ``max_s``."""

    base_s: float = 1.0
    factor: float = 2.0
    max_s: float = 600.0

    def delay(self, attempt: int) -> float:
        return float(min(self.max_s, self.base_s * self.factor**attempt))


@dataclass(frozen=True)
class DeliveryReport:
    """What one round did: entries written, entries found already present, entries still waiting, last error."""

    delivered: int
    already_present: int
    pending: int
    error: str | None = None


def as_log_entry(row: SprintLogEntry) -> LogEntry:
    """The sink's view of an outbox row."""
    return LogEntry(
        uid=row.uid,
        created_at=row.created_at,
        author=row.author,
        kind=row.kind,
        title=row.title,
        body=row.body,
        results=[(r["metric"], r["value"], r["vs_baseline"], r["vs_record"]) for r in row.results],
    )


class OutboxDelivery:
    """Moves pending entries from the database to one sink."""

    def __init__(
        self,
        sessions: SessionFactory,
        sink: SprintLogSink,
        *,
        backoff: Backoff = Backoff(),
        tries_per_round: int = 3,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.sessions = sessions
        self.sink = sink
        self.backoff = backoff
        self.tries_per_round = tries_per_round
        self.sleep = sleep

    def deliver_pending(self, *, limit: int = 100) -> DeliveryReport:
        """Deliver due entries in order until none is left, one fails a whole round, or ``limit`` is reached."""
        delivered = present = 0
        error: str | None = None
        with self.sessions() as session:
            for _ in range(limit):
                row = next_due_entry(session)
                if row is None:
                    break
                assert row.id is not None
                outcome = self._try(as_log_entry(row))
                if isinstance(outcome, DeliveryFailed):
                    error = str(outcome)
                    retry_after = timedelta(seconds=self.backoff.delay(row.attempts))
                    mark_failed_attempt(session, entry_id=row.id, error=error, retry_after=retry_after)
                    break
                mark_delivered(session, entry_id=row.id)
                delivered += outcome
                present += not outcome
            pending = backlog_size(session)
        return DeliveryReport(delivered=delivered, already_present=present, pending=pending, error=error)

    def _try(self, entry: LogEntry) -> bool | DeliveryFailed:
        """Deliver with up to ``tries_per_round`` tries; True written, False already there, or the last failure."""
        for attempt in range(self.tries_per_round):
            try:
                return self.sink.deliver(entry)
            except DeliveryFailed as failure:
                if not failure.retryable or attempt == self.tries_per_round - 1:
                    return failure
                self.sleep(self.backoff.delay(attempt))
        raise AssertionError("unreachable")
