"""SprintLog: save an entry in the outbox, then try to deliver everything pending (in order).

A sprint log without a delivery (:meth:`SprintLog.queue_only`) only saves entries: used by job processes on Dask
workers, which have neither the bot's data directory nor the Google key; the bot process delivers the outbox.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from storage.database import SessionFactory
from storage.outbox import backlog_size, save_entry
from storage.tables import SprintLogEntry
from tools.errors import ToolError
from tools.sprint_log.delivery import DeliveryReport, OutboxDelivery
from tools.sprint_log.entry import KINDS


@dataclass(frozen=True)
class Appended:
    """The saved entry and what the delivery round after it did."""

    entry: SprintLogEntry
    report: DeliveryReport


QUEUED_FOR_THE_BOT = "the bot process writes it"
"""The delivery note of an entry saved by a queue-only sprint log."""


class SprintLog:
    """The sprint log of the group: entries are durable once :meth:`append_entry` returns, delivered or not."""

    def __init__(self, sessions: SessionFactory, delivery: OutboxDelivery | None, *, sink_name: str = "") -> None:
        self.sessions = sessions
        self.delivery = delivery
        self._sink_name = sink_name

    @classmethod
    def queue_only(cls, sessions: SessionFactory, *, sink_name: str) -> SprintLog:
        """A sprint log that saves entries in the outbox and leaves delivery to another process (the bot)."""
        return cls(sessions, None, sink_name=sink_name)

    @property
    def sink_name(self) -> str:
        return self.delivery.sink.name if self.delivery is not None else self._sink_name

    def append_entry(
        self,
        *,
        author: str,
        kind: str,
        title: str,
        body: str = "",
        results: Sequence[tuple[str, str, str, str]] = (),
        run_id: int | None = None,
        deliver: bool = True,
    ) -> Appended:
        """Save the entry (committed), then deliver what is pending; a sink outage leaves it queued, not lost.

        ``deliver=False`` only saves it (the caller delivers later, e.g. from a background job).
        """
        if kind not in KINDS:
            raise ToolError(f"unknown sprint-log entry kind {kind!r}", hint="use one of: " + ", ".join(KINDS))
        rows = [{"metric": m, "value": v, "vs_baseline": b, "vs_record": r} for m, v, b, r in results]
        with self.sessions() as session:
            entry = save_entry(session, author=author, kind=kind, title=title, body=body, results=rows, run_id=run_id)
        if not deliver or self.delivery is None:
            return Appended(entry=entry, report=self._queued())
        return Appended(entry=entry, report=self.delivery.deliver_pending())

    def deliver_pending(self) -> DeliveryReport:
        """Retry the backlog (for a periodic job): delivers due entries in order."""
        if self.delivery is None:
            return self._queued()
        return self.delivery.deliver_pending()

    def _queued(self) -> DeliveryReport:
        with self.sessions() as session:
            pending = backlog_size(session)
        return DeliveryReport(0, 0, pending, error=QUEUED_FOR_THE_BOT if self.delivery is None else None)

    def close(self) -> None:
        if self.delivery is not None:
            self.delivery.sink.close()
