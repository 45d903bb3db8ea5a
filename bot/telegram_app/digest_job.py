"""The scheduled weekly digest on PTB's JobQueue: schedule, reschedule on a config change, catch up at
start-up, and post each ISO week at most once even when two bot processes run by mistake.

- Schedule: one job ``weekly-digest`` with an APScheduler trigger built from day *names*, the configured time and
  IANA timezone (tools/digest_schedule.py, DST-safe); a reschedule removes the old job before adding the new.
- Reschedule: a ``/config set digest.*`` in this process publishes a change event and the job is replaced at
  once (hopping onto the event loop); a change made by another process (``sutro config set``) is picked up by
  a once-a-minute :meth:`DigestPoster.sync`.
- Catch-up: at start-up, if the latest slot passed less than :data:`CATCH_UP_WITHIN` ago and its week was
  never claimed, it is posted once. (A longer outage skips that week: the next digest comes soon anyway, and a
  fresh install does not post a stale digest for a week it never watched.)
- At most once: the week is *claimed* (a row with a unique week column, committed) before anything is sent;
  the process whose insert fails does not post. If Telegram certainly refused the message, the claim is
  released so a later start can retry. If the process dies between claim and send, the week stays claimed and
  is not posted automatically — we chose a possibly missing digest over a duplicate; ``/status`` shows the
  unconfirmed claim and an admin can ``/digest post``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Callable
from datetime import datetime, timedelta

from telegram.ext import Application, ContextTypes, Job

from bot.commands.digest_content import digest_messages, digest_reply, schedule_of
from bot.context import AppContext
from bot.incidents import report_incident
from bot.reply import Reply
from bot.telegram_app.chat_outbox import ChatOutbox
from bot.telegram_app.delivery import BotTransport, Courier
from bot.telegram_app.render import render
from storage.digests import claim_week, mark_posted, release_week
from storage.timestamps import utcnow
from tools.digest_schedule import DigestSchedule, week_of

log = logging.getLogger("sutro.digest")

JOB_NAME = "weekly-digest"
SYNC_EVERY_S = 60.0
CATCH_UP_WITHIN = timedelta(days=3)
MISFIRE_GRACE_S = 3600


class DigestPoster:
    """Owns the ``weekly-digest`` job of one Application. ``clock``: aware UTC now (tests replace it)."""

    def __init__(
        self,
        ctx: AppContext,
        app: Application,  # type: ignore[type-arg]
        clock: Callable[[], datetime] = utcnow,
        outbox: ChatOutbox | None = None,
    ) -> None:
        self.ctx = ctx
        self.app = app
        self.outbox = outbox or ChatOutbox(BotTransport(app.bot))
        self.clock = clock
        self.scheduled: tuple[DigestSchedule, int, int | None] | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.me = f"{socket.gethostname()}:{os.getpid()}:{id(self):x}"

    # -- lifecycle --------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Schedule from the current settings, listen for changes, then post a missed digest if any.

        A failure here (database unreachable) is logged as an incident and does not keep the bot from
        answering; the once-a-minute resync schedules the digest when the database is back.
        """
        self._loop = asyncio.get_running_loop()
        self._unsubscribe = self.ctx.config_events.subscribe(self._on_config_change)
        assert self.app.job_queue is not None
        self.app.job_queue.run_repeating(self.resync, interval=SYNC_EVERY_S, name="digest-config-sync")
        try:
            # open (and migrate) the database here, once: Alembic's migration context is process-global and
            # not safe to run from two threads at once
            self.ctx.sessions()
            self.apply(await asyncio.to_thread(self.wanted))
            await self.catch_up()
        except Exception as exc:  # noqa: BLE001 - the bot must come up even when the digest cannot
            report_incident(exc, where="scheduling the weekly digest at start-up")

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    # -- scheduling -------------------------------------------------------------------------------------
    def wanted(self) -> tuple[DigestSchedule, int, int | None] | None:
        """(schedule, chat, topic) the settings ask for, or None when the digest is off or has no chat."""
        config = self.ctx.tool_config()
        chat_id = config.get("digest.chat_id")
        if not config.get("digest.enabled") or chat_id is None:
            return None
        return schedule_of(config), chat_id, config.get("digest.topic_id")

    def sync(self) -> None:
        """(Re)schedule the job if the settings changed since scheduling; none while the digest is off."""
        self.apply(self.wanted())

    def apply(self, wanted: tuple[DigestSchedule, int, int | None] | None) -> None:
        """Make the job match ``wanted`` (what :meth:`wanted` returned)."""
        if wanted == self.scheduled and (wanted is None or self.job() is not None):
            return
        for job in self._jobs():
            job.schedule_removal()
        self.scheduled = wanted
        if wanted is None:
            log.info("weekly digest not scheduled (digest.enabled is false or digest.chat_id is none)")
            return
        schedule = wanted[0]
        assert self.app.job_queue is not None
        self.app.job_queue.run_custom(
            self._on_fire,
            job_kwargs={
                "trigger": schedule.trigger(),
                "misfire_grace_time": MISFIRE_GRACE_S,
                "coalesce": True,
            },
            name=JOB_NAME,
        )
        log.info("weekly digest scheduled %s", schedule.describe())

    def _jobs(self) -> tuple[Job, ...]:  # type: ignore[type-arg]
        assert self.app.job_queue is not None
        return self.app.job_queue.get_jobs_by_name(JOB_NAME)

    def job(self) -> Job | None:  # type: ignore[type-arg]
        jobs = [j for j in self._jobs() if not j.removed]
        return jobs[0] if jobs else None

    def next_time(self) -> datetime | None:
        """When the scheduled job fires next (aware), None when not scheduled."""
        job = self.job()
        return job.next_t if job is not None else None

    def _on_config_change(self, key: str) -> None:
        if key.startswith("digest.") and self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self.sync)

    async def resync(self, _context: ContextTypes.DEFAULT_TYPE | None = None) -> None:
        """The once-a-minute job: pick up a schedule change made by another process (read off the loop)."""
        try:
            wanted = await asyncio.to_thread(self.wanted)
        except Exception as exc:  # noqa: BLE001 - keep the job alive; the next minute tries again
            report_incident(exc, where="re-reading the digest schedule")
            return
        self.apply(wanted)

    # -- posting ----------------------------------------------------------------------------------------
    async def _on_fire(self, _context: ContextTypes.DEFAULT_TYPE) -> None:
        wanted = self.scheduled
        if wanted is not None:
            await self.post_slot(wanted[0].previous_slot(self.clock()), reason="scheduled")

    async def catch_up(self) -> bool:
        """Post the latest slot's digest if it passed less than CATCH_UP_WITHIN ago and was never claimed."""
        wanted = await asyncio.to_thread(self.wanted)
        if wanted is None:
            return False
        now = self.clock()
        slot = wanted[0].previous_slot(now)
        if now - slot > CATCH_UP_WITHIN:
            return False
        return await self.post_slot(slot, reason="catch-up")

    async def post_slot(self, slot: datetime, *, reason: str) -> bool:
        """Claim ``slot``'s week and post its digest; False when another process or an earlier run had it."""
        wanted = await asyncio.to_thread(self.wanted)
        if wanted is None:
            return False
        schedule, chat_id, topic_id = wanted
        week = week_of(slot, schedule.zone)
        sessions = self.ctx.sessions()

        def claim() -> bool:
            with sessions() as session:
                return claim_week(session, week=week, slot_at=slot, reason=reason, claimed_by=self.me, chat_id=chat_id)

        if not await asyncio.to_thread(claim):
            log.info("digest %s already claimed; not posting", week)
            return False
        try:
            reply = await asyncio.to_thread(digest_reply, self.ctx, end=slot)
            sent = await send_digest(Courier(self.outbox, chat_id, topic_id, durable=False), reply)
        except Exception as exc:  # noqa: BLE001 - keep the bot up; the claim is released for a later try
            report_incident(exc, where=f"posting the digest of {week}")
            sent = False

        def settle() -> None:
            with sessions() as session:
                if sent:
                    mark_posted(session, week=week)
                else:
                    release_week(session, week=week)

        await asyncio.to_thread(settle)
        log.info("digest %s %s (%s)", week, "posted" if sent else "not delivered; claim released", reason)
        return sent


async def send_digest(courier: Courier, reply: Reply) -> bool:
    """Send the digest as one or more messages that each fit Telegram's limit (``digest_messages``), the chart as a
    photo after the first; True once the first message was delivered (a failed chart or later message is logged,
    not retried: the digest itself is out)."""
    first, *rest = digest_messages(reply)
    out = render(first)
    message = await courier.send_text(out.html)
    if message is None:
        return False
    try:
        for photo in out.photos:
            await courier.send_file(photo, photo=True)
        for document in out.documents:
            await courier.send_file(document, photo=False)
        for part in rest:
            await courier.send_text(render(part).html)
    except Exception as exc:  # noqa: BLE001
        report_incident(exc, where="sending the digest chart and its continuation")
    return True
