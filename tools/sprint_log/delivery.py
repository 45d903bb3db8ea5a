"""Deliver the sprint-log outbox: the oldest pending entry first, exactly once, retrying 429/5xx with back-off.

Order: only the oldest pending entry is ever tried, so entries land in the order they were saved. Exactly once:
an entry is marked delivered only after the sink accepted it, and the sink skips an entry whose marker it already
holds — so a crash between the write and :func:`storage.outbox.mark_delivered` leads to a skip, not a duplicate.
Nothing lost: after ``tries_per_round`` failed tries the entry stays pending with a later ``next_attempt_at``;
the next round (the next entry saved, or the bot's periodic job) picks it up again. A new delivery (a process
start, or a sink rebuilt after a settings change) tries the oldest entry once at once, whatever its back-off: the
reason for the back-off may be gone.
Nothing jams: an entry the service refuses for good (``DeliveryFailed.rejected``) is parked with its reason and
the round goes on with the next entry. A round may have a time budget (a command waiting for its reply): no
back-off sleep or new entry is started past it, so a hung service costs one request timeout, not a round.
One writer: a round holds the sink's lease in the database (storage/leases.py) while it delivers, so processes
delivering at once take turns instead of reading and writing the same document together.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta

from storage.database import SessionFactory
from storage.leases import release_lease, take_lease
from storage.outbox import (
    backlog_size,
    entry_charts,
    mark_delivered,
    mark_failed_attempt,
    next_due_entry,
    park_entry,
    parked_count,
)
from storage.tables import SprintLogChart, SprintLogEntry
from tools.sprint_log.entry import EntryChart, EntryDetail, LogEntry
from tools.sprint_log.sink import DeliveryFailed, SprintLogSink

LEASE_TTL = timedelta(seconds=30)
"""How long a deliverer's hold on the sink lasts without renewal (renewed after every entry); a deliverer that
died is replaced after this."""

LEASE_WAIT_S = 30.0
"""Longest a round waits for another process's delivery to finish before leaving the entries to it (seconds)."""

LEASE_POLL_S = 0.05
"""How often a waiting round looks at the lease again (seconds)."""


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
    """What one round did: entries written, entries found already present, entries still waiting, the error that
    stopped the round (None if none did), and how many entries are parked (refused for good, awaiting an admin).

    needs_fix: the round stopped on a problem a retry will not cure (credentials, sharing, a missing document).
    """

    delivered: int
    already_present: int
    pending: int
    error: str | None = None
    parked: int = 0
    needs_fix: bool = False


def as_log_entry(row: SprintLogEntry, charts: Sequence[SprintLogChart] = ()) -> LogEntry:
    """The sink's view of an outbox row and its charts."""
    return LogEntry(
        detail=EntryDetail.from_json(row.detail),
        charts=tuple(EntryChart(c.name, c.caption, c.png) for c in charts),
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
        clock: Callable[[], float] = time.monotonic,
        one_writer: bool = True,
    ) -> None:
        self.sessions = sessions
        self.sink = sink
        self.one_writer = one_writer
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{id(self):x}"
        self.backoff = backoff
        self.tries_per_round = tries_per_round
        self.sleep = sleep
        self.clock = clock
        self._fresh = True

    def deliver_pending(self, *, limit: int = 100, budget_s: float | None = None) -> DeliveryReport:
        """Deliver due entries in order until none is left, one fails for a passing reason, ``limit`` entries were
        tried, or ``budget_s`` seconds are used up (None: no budget). Refused entries are parked on the way.

        With ``one_writer`` (the default) the round first takes the sink's lease (storage/leases.py), waiting while
        another process delivers — that one delivers this process's entries too, in order — so concurrent
        deliverers no longer read and write the same document at once and refuse each other's writes. A lease not
        had within the budget (or :data:`LEASE_WAIT_S`) ends the round with nothing tried: the holder delivers."""
        if not self.one_writer:
            return self._round(limit, budget_s)
        name = f"sprint-log:{self.sink.name}"
        wait_until = time.monotonic() + (LEASE_WAIT_S if budget_s is None else min(budget_s, LEASE_WAIT_S))
        while not self._take(name):
            if time.monotonic() >= wait_until:
                with self.sessions() as session:
                    return DeliveryReport(
                        delivered=0, already_present=0, pending=backlog_size(session), parked=parked_count(session)
                    )
            time.sleep(LEASE_POLL_S)
        try:
            return self._round(limit, budget_s, renew=lambda: self._take(name))
        finally:
            with self.sessions() as session:
                release_lease(session, name=name, holder=self.holder)

    def _take(self, name: str) -> bool:
        with self.sessions() as session:
            return take_lease(session, name=name, holder=self.holder, ttl=LEASE_TTL)

    def _round(self, limit: int, budget_s: float | None, renew: Callable[[], bool] | None = None) -> DeliveryReport:
        deadline = None if budget_s is None else self.clock() + budget_s
        delivered = present = 0
        error: str | None = None
        needs_fix = False
        with self.sessions() as session:
            for _ in range(limit):
                if deadline is not None and self.clock() >= deadline:
                    break
                row = next_due_entry(session, ignore_backoff=self._fresh)
                self._fresh = False
                if row is None:
                    break
                assert row.id is not None
                outcome = self._try(as_log_entry(row, entry_charts(session, entry_id=row.id)), deadline)
                if isinstance(outcome, DeliveryFailed):
                    if outcome.rejected:
                        park_entry(session, entry_id=row.id, reason=str(outcome))
                        continue
                    error = str(outcome)
                    needs_fix = not outcome.retryable
                    retry_after = timedelta(seconds=self.backoff.delay(row.attempts))
                    mark_failed_attempt(session, entry_id=row.id, error=error, retry_after=retry_after)
                    break
                mark_delivered(session, entry_id=row.id)
                delivered += outcome
                present += not outcome
                if renew is not None and not renew():  # the lease expired and was taken: let its holder go on
                    break
            pending = backlog_size(session)
            parked = parked_count(session)
        return DeliveryReport(
            delivered=delivered,
            already_present=present,
            pending=pending,
            error=error,
            parked=parked,
            needs_fix=needs_fix,
        )

    def _try(self, entry: LogEntry, deadline: float | None) -> bool | DeliveryFailed:
        """Deliver with up to ``tries_per_round`` tries, never sleeping past ``deadline``; True written, False
        already there, or the last failure."""
        for attempt in range(self.tries_per_round):
            try:
                return self.sink.deliver(entry)
            except DeliveryFailed as failure:
                if not failure.retryable or attempt == self.tries_per_round - 1:
                    return failure
                delay = self.backoff.delay(attempt)
                if deadline is not None and self.clock() + delay >= deadline:
                    return failure
                self.sleep(delay)
        raise AssertionError("unreachable")
