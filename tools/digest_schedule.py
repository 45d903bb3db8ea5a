"""When the weekly digest is due: an APScheduler 3 CronTrigger with a day *name*, local time and IANA
timezone.

Day names only (``mon`` … ``sun``): APScheduler 3 reads ``day_of_week=0`` as Monday, ``from_crontab("… 1")``
as Tuesday, and PTB's ``run_daily(days=(0,))`` as Sunday (docs/integrations.md#weekly-digest-scheduling) — names mean
one thing everywhere. The trigger works in the configured zone, so 09:00 stays 09:00 local across daylight-saving
changes.

A digest *slot* is one scheduled fire time; it is identified by the ISO week of the slot's local date
(``2026-W48``), which is what is stored so a week is never posted twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from apscheduler.triggers.cron import CronTrigger


@dataclass(frozen=True)
class DigestSchedule:
    """``day`` (mon…sun) at ``time`` (HH:MM) in ``timezone`` (IANA name); values already validated by the
    schema."""

    day: str
    time: str
    timezone: str

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    def trigger(self) -> CronTrigger:
        hour, minute = (int(part) for part in self.time.split(":"))
        return CronTrigger(day_of_week=self.day, hour=hour, minute=minute, second=0, timezone=self.zone)

    def next_slot(self, now: datetime) -> datetime:
        """The first slot strictly after ``now`` (aware), in the schedule's zone."""
        fire = self.trigger().get_next_fire_time(None, now + timedelta(microseconds=1))
        assert fire is not None  # a weekly cron trigger always has a next fire time
        return fire

    def previous_slot(self, now: datetime) -> datetime:
        """The latest slot at or before ``now`` (aware)."""
        trigger = self.trigger()
        fire = trigger.get_next_fire_time(None, now - timedelta(days=8))
        previous = fire
        while fire is not None and fire <= now:
            previous = fire
            fire = trigger.get_next_fire_time(fire, fire + timedelta(seconds=1))
        assert previous is not None and previous <= now
        return previous

    def describe(self) -> str:
        return f"every {self.day} at {self.time} {self.timezone}"


def week_of(slot: datetime, zone: ZoneInfo) -> str:
    """The ISO week of ``slot``'s local date, ``YYYY-Www``."""
    year, week, _ = slot.astimezone(zone).isocalendar()
    return f"{year}-W{week:02d}"
