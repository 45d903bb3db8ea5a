"""SprintLog: save an entry in the outbox, then try to deliver everything pending (in order).

The entry is committed before any sink is opened or called, so a misconfigured or unreachable sink never loses
it; the caller learns what happened to its own entry (:class:`Appended`) and, when it was not delivered, why.
Entries the sink refused for good are parked; admins retry or drop them (:meth:`SprintLog.retry`,
:meth:`SprintLog.drop`).

A sprint log without a delivery (:meth:`SprintLog.queue_only`) only saves entries: used by job processes on Dask
workers, which have neither the bot's data directory nor the Google key; the bot process delivers the outbox.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from storage.database import SessionFactory
from storage.outbox import backlog_size, drop_parked, get_entry, parked_count, retry_parked, save_entry
from storage.tables import ENTRY_DELIVERED, ENTRY_PARKED, SprintLogEntry
from tools.errors import ToolError
from tools.sprint_log.delivery import DeliveryReport, OutboxDelivery
from tools.sprint_log.docs_text import stored_text
from tools.sprint_log.entry import KINDS, EntryChart, EntryDetail

NOTE_LIMIT = 4000
"""Most characters a note (title and body) may have: a Telegram message holds 4096; longer text belongs in several
notes or a file, and one entry stays a readable size in the log."""


@dataclass(frozen=True)
class Appended:
    """The saved entry, what the delivery round after it did, and where the entry itself stands now.

    state: ``delivered``, ``pending`` (queued: the sink is down, busy, or needs a fix) or ``parked``.
    problem: why it is not delivered (the sink's error, with the fix where one is known), else None.
    """

    entry: SprintLogEntry
    report: DeliveryReport
    state: str = "pending"
    problem: str | None = None
    queued_for_bot: bool = False


QUEUED_FOR_THE_BOT = "the bot process writes it"


def _stored_detail(detail: EntryDetail) -> dict[str, object]:
    """``detail`` as JSON with every text safe to store (unpaired surrogates replaced, as for the other fields)."""

    def clean(value: object) -> object:
        if isinstance(value, str):
            return stored_text(value)
        if isinstance(value, list | tuple):
            return [clean(v) for v in value]
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items()}
        return value

    return {k: clean(v) for k, v in detail.to_json().items()}


"""The delivery note of an entry saved by a queue-only sprint log."""


class SprintLog:
    """The sprint log of the group: entries are durable once :meth:`append_entry` returns, delivered or not.

    reply_budget_s: how long :meth:`append_entry` may spend delivering (someone waits for the reply); what is left
    is delivered by the next round (the bot's periodic job, or the next entry). ``delivery`` None: a queue-only log
    (:meth:`queue_only`).
    """

    def __init__(
        self,
        sessions: SessionFactory,
        delivery: OutboxDelivery | None,
        *,
        reply_budget_s: float = 15.0,
        sink_name: str = "",
    ) -> None:
        self.sessions = sessions
        self.delivery = delivery
        self.reply_budget_s = reply_budget_s
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
        detail: EntryDetail | None = None,
        charts: Sequence[EntryChart] = (),
        sprint_id: int | None = None,
    ) -> Appended:
        """Save the entry (committed), then deliver what is pending; a sink outage leaves it queued, not lost.

        ``detail``: how it reads (time zone, section, headline, table …); ``charts``: its images; ``sprint_id``: the
        sprint it belongs to. ``deliver=False`` only saves it (the caller delivers later, e.g. from a background job).
        """
        if kind not in KINDS:
            raise ToolError(f"unknown sprint-log entry kind {kind!r}", hint="use one of: " + ", ".join(KINDS))
        if kind == "note" and len(title) + len(body) > NOTE_LIMIT:
            raise ToolError(
                f"the note has {len(title) + len(body):,} characters; a note holds at most {NOTE_LIMIT:,}",
                hint="split it into several notes",
            )
        rows = [
            {
                "metric": stored_text(m),
                "value": stored_text(v),
                "vs_baseline": stored_text(b),
                "vs_record": stored_text(r),
            }
            for m, v, b, r in results
        ]
        with self.sessions() as session:
            entry = save_entry(
                session,
                author=stored_text(author),
                kind=kind,
                title=stored_text(title),
                body=stored_text(body),
                results=rows,
                run_id=run_id,
                sprint_id=sprint_id,
                detail=None if detail is None else _stored_detail(detail),
                charts=[(c.name, stored_text(c.caption), c.png) for c in charts],
            )
        if not deliver or self.delivery is None:
            return Appended(entry=entry, report=self._queued(), queued_for_bot=self.delivery is None)
        report = self.delivery.deliver_pending(budget_s=self.reply_budget_s)
        return self._where(entry, report)

    def _where(self, entry: SprintLogEntry, report: DeliveryReport) -> Appended:
        assert entry.id is not None
        with self.sessions() as session:
            now = get_entry(session, entry_id=entry.id)
            assert now is not None
            state, error = now.state, now.last_error
        if state == ENTRY_DELIVERED:
            return Appended(entry=entry, report=report, state=state)
        if state == ENTRY_PARKED:
            return Appended(entry=entry, report=report, state=state, problem=error)
        return Appended(entry=entry, report=report, state=state, problem=report.error or error)

    def deliver_pending(self) -> DeliveryReport:
        """Retry the backlog (for a periodic job): delivers due entries in order, parking refused ones."""
        if self.delivery is None:
            return self._queued()
        return self.delivery.deliver_pending()

    def _queued(self) -> DeliveryReport:
        """What an undelivered round reports: the backlog, and why nothing went out from a queue-only log."""
        with self.sessions() as session:
            pending, parked = backlog_size(session), parked_count(session)
        return DeliveryReport(0, 0, pending, error=QUEUED_FOR_THE_BOT if self.delivery is None else None, parked=parked)

    def retry(self, entry_id: int) -> Appended:
        """Queue parked entry ``entry_id`` again (first in line) and deliver; ToolError if it is not parked."""
        with self.sessions() as session:
            entry = retry_parked(session, entry_id=entry_id)
        if entry is None:
            raise self._not_parked(entry_id)
        if self.delivery is None:
            return self._where(entry, self._queued())
        return self._where(entry, self.delivery.deliver_pending(budget_s=self.reply_budget_s))

    def drop(self, entry_id: int) -> SprintLogEntry:
        """Give up on parked entry ``entry_id`` (it stays in the database as ``dropped``); ToolError if not parked."""
        with self.sessions() as session:
            entry = drop_parked(session, entry_id=entry_id)
        if entry is None:
            raise self._not_parked(entry_id)
        return entry

    def _not_parked(self, entry_id: int) -> ToolError:
        with self.sessions() as session:
            entry = get_entry(session, entry_id=entry_id)
            what = (
                f"no sprint-log entry {entry_id}" if entry is None else f"entry {entry_id} is {entry.state}, not parked"
            )
        return ToolError(what, hint="/status lists the parked entries")

    def close(self) -> None:
        if self.delivery is not None:
            self.delivery.sink.close()
