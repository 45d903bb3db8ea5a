"""Keep each sprint's TLDR current from PTB's JobQueue, off every member's run path.

One repeating job, ``sprint-tldr``, every :data:`REFRESH_EVERY_S`: each sprint with a sprint-log entry newer than the
one its TLDR covers gets one new TLDR (:func:`bot.core.sprint_tldr.refresh_due_tldrs`), so a TLDR is rewritten
once per change however many runs land in a minute, and a run never waits on it. With the assistant configured it
writes the summary (bot/commands/ideas/tldr_summary.py, under the assistant's monthly budget), else the plain
lines are. The work runs on a worker thread (the assistant and the Docs sink block); APScheduler runs at most one
instance at a time, and a run that fails is logged as an incident and the next run tries again.
"""

from __future__ import annotations

import asyncio
import logging

from telegram.ext import Application, ContextTypes

from bot.commands.ideas.tldr_summary import assistant_writer
from bot.context import AppContext
from bot.core.sprint_tldr import refresh_due_tldrs
from bot.incidents import report_incident

log = logging.getLogger("sutro.tldr")

JOB_NAME = "sprint-tldr"
REFRESH_EVERY_S = 60.0


async def refresh_tldrs(ctx: AppContext) -> list[int]:
    """Rewrite the TLDRs that are out of date (one round, off the event loop); the sprints rewritten."""
    try:
        done = await asyncio.to_thread(lambda: refresh_due_tldrs(ctx, assistant_writer(ctx)))
    except Exception as exc:  # noqa: BLE001 - keep the job alive; the next run tries again
        report_incident(exc, where="refreshing the sprint TLDRs")
        return []
    if done:
        log.info("sprint TLDR rewritten for sprint(s) %s", ", ".join(map(str, done)))
    return done


def schedule_tldr_refresh(ctx: AppContext, app: Application, *, every_s: float = REFRESH_EVERY_S) -> None:  # type: ignore[type-arg]
    """Register the repeating TLDR job (the first run soon after start-up)."""

    async def run(_context: ContextTypes.DEFAULT_TYPE) -> None:
        await refresh_tldrs(ctx)

    assert app.job_queue is not None
    app.job_queue.run_repeating(run, interval=every_s, first=min(10.0, every_s), name=JOB_NAME)
