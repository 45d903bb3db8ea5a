"""The one interface every sprint-log destination implements, and the error a delivery attempt may raise."""

from __future__ import annotations

from typing import Protocol

from tools.sprint_log.entry import LogEntry


class DeliveryFailed(Exception):
    """A delivery attempt did not complete.

    retryable: worth retrying soon (429, 5xx, a timeout, connection lost).
    rejected: the service refused *this entry* for good (a 400 on its write): it is parked so that the entries
        behind it go on. Neither: the sink itself needs a person (credentials, sharing, a missing document); the
        entries wait, in order, and the message says what to fix.
    """

    def __init__(self, message: str, *, retryable: bool, rejected: bool = False) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.rejected = rejected


class SprintLogSink(Protocol):
    """Where entries end up. ``deliver`` must be idempotent: an entry whose marker is already there is skipped,
    so calling it again after a crash never writes the entry twice."""

    name: str

    def deliver(self, entry: LogEntry) -> bool:
        """Write ``entry``; return False when it was already present (nothing written). Raise DeliveryFailed."""
        ...

    def close(self) -> None:
        """Release threads and connections."""
        ...
