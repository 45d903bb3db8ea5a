"""Drain the sprint-log outbox on PTB's JobQueue, so waiting entries go out without anyone writing a new one.

One repeating job, ``sprint-log-outbox``, every :data:`DRAIN_EVERY_S`. Each run delivers what is due, in order, on a
worker thread (the Docs sink blocks); entries that failed wait out their own exponential back-off (kept in the
outbox rows: 1 s doubling to 10 min), so a long outage costs one cheap database read per run. APScheduler runs at
most one instance of the job at a time; a run that fails is logged as an incident and the next run tries again.
"""

from __future__ import annotations

import asyncio
import logging

from telegram.ext import Application, ContextTypes

from bot.context import AppContext
from bot.incidents import report_incident

log = logging.getLogger("sutro.outbox")

JOB_NAME = "sprint-log-outbox"
DRAIN_EVERY_S = 30.0


async def drain_outbox(ctx: AppContext) -> None:
    """Deliver the due entries of the outbox (one round, off the event loop)."""
    try:
        report = await asyncio.to_thread(lambda: ctx.sprint_log().deliver_pending())
    except Exception as exc:  # noqa: BLE001 - keep the job alive; the next run tries again
        report_incident(exc, where="draining the sprint-log outbox")
        return
    if report.delivered or report.error:
        log.info(
            "sprint-log outbox: %d delivered, %d waiting, %d parked, %s",
            report.delivered,
            report.pending,
            report.parked,
            report.error or "no error",
        )


def schedule_outbox_drain(ctx: AppContext, app: Application, *, every_s: float = DRAIN_EVERY_S) -> None:  # type: ignore[type-arg]
    """Register the repeating drain job (the first run soon after start-up)."""

    async def run(_context: ContextTypes.DEFAULT_TYPE) -> None:
        await drain_outbox(ctx)

    assert app.job_queue is not None
    app.job_queue.run_repeating(run, interval=every_s, first=min(5.0, every_s), name=JOB_NAME)
