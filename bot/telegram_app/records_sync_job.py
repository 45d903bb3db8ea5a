"""The scheduled sync of the group's published records and the sparse-parity-challenge board on PTB's JobQueue
(``records.sync_hours``; 0 = off) and the message to the group when a record fell — once, whatever the number of bot
processes (a database lease lets one process sync at a time).

Every :data:`CHECK_EVERY_S` the job reads the settings; when the newest sync is older than ``records.sync_hours``
it syncs from ``records.sync_source`` (off the event loop: git and re-scoring take seconds), stores the result and,
when a board's record fell since the picture before, posts one message to the digest's chat and topic
(``digest.chat_id`` / ``digest.topic_id``; none set: nothing is posted, the digest still says it). A source that
cannot be read is logged in one line and tried again at the next check; nothing is stored.
"""

from __future__ import annotations

import asyncio
import html
import logging
import os
import socket
from datetime import timedelta

from sqlmodel import Session
from telegram.ext import Application, ContextTypes

from bot.context import AppContext
from bot.incidents import report_incident
from bot.telegram_app.chat_outbox import ChatOutbox
from bot.telegram_app.delivery import Courier
from storage.leases import release_lease, take_lease
from storage.timestamps import utcnow
from tools.errors import ToolError
from tools.published.follow import SpcOutcome, SyncOutcome, fell_lines, sync_due, sync_published

log = logging.getLogger("sutro.records")

JOB_NAME = "records-sync"
CHECK_EVERY_S = 600.0
"""How often the job checks whether a sync is due (the setting is in hours)."""


SYNC_LEASE = "records-sync"
LEASE_TTL = timedelta(minutes=30)
"""Longer than a sync takes (a clone and re-scoring: seconds to a few minutes); a holder that died is replaced after."""


def sync_if_due(ctx: AppContext, *, holder: str | None = None) -> SyncOutcome | None:
    """Sync what is due (blocking: call it off the loop): the challenge repository's records, then the
    sparse-parity-challenge board (``records.spc_source``; ``none`` leaves it out). Returns the records' outcome
    when they were synced (their falls are announced), else None.

    Only one process syncs at a time (the ``records-sync`` lease in the database): a second bot process that finds
    the lease held skips this check, and at its next check the newest sync is fresh — so a record that fell is
    announced once, not once per process."""
    config = ctx.tool_config()
    every = int(config.get("records.sync_hours"))
    source, spc = str(config.get("records.sync_source")), str(config.get("records.spc_source"))
    me = holder or f"{socket.gethostname()}:{os.getpid()}:records"
    with ctx.sessions()() as session:
        if not take_lease(session, name=SYNC_LEASE, holder=me, ttl=LEASE_TTL):
            return None
        try:
            outcome = _sync(session, every, source, records=True)
            if spc.lower() not in ("", "none", "off"):
                _sync(session, every, spc, records=False)
        finally:
            release_lease(session, name=SYNC_LEASE, holder=me)
    if not isinstance(outcome, SyncOutcome):
        return None
    log.info("records synced from %s at %s: %d fell", source, outcome.snapshot.commit[:7], len(outcome.falls))
    return outcome


def _sync(session: Session, every: int, source: str, *, records: bool) -> SyncOutcome | SpcOutcome | None:
    """One source's sync when its kind is due; None when not due or the source could not be read (logged)."""
    if not sync_due(session, every_hours=every, now=utcnow(), records=records):
        return None
    try:
        return sync_published(session, source)
    except ToolError as err:
        log.warning("records sync from %s failed: %s", source, err.one_line())
        return None


def schedule_records_sync(ctx: AppContext, app: Application, outbox: ChatOutbox) -> None:  # type: ignore[type-arg]
    """Register the repeating check (the first one a minute after start-up)."""

    async def run(_context: ContextTypes.DEFAULT_TYPE) -> None:
        try:
            outcome = await asyncio.to_thread(sync_if_due, ctx)
            if outcome is None or not outcome.falls:
                return
            config = ctx.tool_config()
            chat_id = config.get("digest.chat_id")
            if chat_id is None:
                return
            courier = Courier(outbox, chat_id, config.get("digest.topic_id"), durable=True)
            await courier.send_text(html.escape(fell_lines(outcome.falls)))
        except Exception as exc:  # noqa: BLE001 - keep the job alive; the next check tries again
            report_incident(exc, where="the scheduled records sync")

    assert app.job_queue is not None
    app.job_queue.run_repeating(run, interval=CHECK_EVERY_S, first=60.0, name=JOB_NAME)
