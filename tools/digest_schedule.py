"""When the weekly digest is due: a day *name*, a local time and an IANA timezone, as an APScheduler trigger.

Day names only (``mon`` … ``sun``): APScheduler 3 reads ``day_of_week=0`` as Monday, ``from_crontab("… 1")``
as Tuesday, and PTB's ``run_daily(days=(0,))`` as Sunday (docs/integrations.md#weekly-digest-scheduling) — names mean
one thing everywhere. Slots are computed here in the configured zone with :mod:`zoneinfo`, so 09:00 stays 09:00
local across daylight-saving changes. APScheduler 3.11's own ``CronTrigger`` is not used for this: asked for the
next Monday 00:00 Europe/Berlin from 2025-03-24 01:00 local, it answers 2025-04-07 and skips the Monday after the
clocks went forward (2025-03-31 00:00 CEST exists and is due) — a lost digest that week.

A local time that a DST jump skips (e.g. 02:30 on the spring-forward night) fires when the clock reads it after the
jump (03:30 local, the same instant as 02:30 of the old offset); a time that occurs twice fires at its first
occurrence.

A digest *slot* is one scheduled fire time; it is identified by the ISO week of the slot's local date
(``2026-W48``), which is what is stored so a week is never posted twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from apscheduler.triggers.base import BaseTrigger

DAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
"""Day names in ``date.weekday()`` order."""


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

    def trigger(self) -> WeeklyTrigger:
        """The APScheduler trigger that fires at every slot (PTB's JobQueue ``run_custom``)."""
        return WeeklyTrigger(self)

    def _slot_on(self, day: date) -> datetime:
        """The slot on local date ``day`` (a weekday named ``self.day``), in the schedule's zone (the round trip
        through UTC moves a time the DST jump skips to the reading after the jump)."""
        hour, minute = (int(part) for part in self.time.split(":"))
        return datetime.combine(day, time(hour, minute), tzinfo=self.zone).astimezone(UTC).astimezone(self.zone)

    def _slots_around(self, moment: datetime) -> list[datetime]:
        """The slots of the weeks around ``moment`` (aware), in time order: two before the named day of this week or
        the next and two from it, so one stays on each side of ``moment`` even when a DST jump across midnight moves
        a slot into the next day."""
        local = moment.astimezone(self.zone).date()
        offset = (DAY_NAMES.index(self.day) - local.weekday()) % 7
        anchor = local + timedelta(days=offset)  # the named day of this week or the next
        return [self._slot_on(anchor + timedelta(weeks=w)) for w in (-2, -1, 0, 1)]

    def next_slot(self, now: datetime) -> datetime:
        """The first slot strictly after ``now`` (aware), in the schedule's zone."""
        return self.first_slot_from(now + timedelta(microseconds=1))

    def first_slot_from(self, now: datetime) -> datetime:
        """The first slot at or after ``now`` (aware), in the schedule's zone."""
        return next(slot for slot in self._slots_around(now) if slot >= now)

    def previous_slot(self, now: datetime) -> datetime:
        """The latest slot at or before ``now`` (aware), in the schedule's zone."""
        return [slot for slot in self._slots_around(now) if slot <= now][-1]

    def describe(self) -> str:
        return f"every {self.day} at {self.time} {self.timezone}"


class WeeklyTrigger(BaseTrigger):
    """APScheduler trigger of a :class:`DigestSchedule`: each slot once, in order."""

    def __init__(self, schedule: DigestSchedule) -> None:
        self.schedule = schedule

    def get_next_fire_time(self, previous_fire_time: datetime | None, now: datetime) -> datetime | None:
        """The first slot at or after ``now`` (after ``previous_fire_time`` when one was fired), as APScheduler's
        own triggers answer."""
        if previous_fire_time is None:
            return self.schedule.first_slot_from(now)
        return self.schedule.next_slot(previous_fire_time)

    def __str__(self) -> str:
        return f"weekly[{self.schedule.describe()}]"


def week_of(slot: datetime, zone: ZoneInfo) -> str:
    """The ISO week of ``slot``'s local date, ``YYYY-Www``."""
    year, week, _ = slot.astimezone(zone).isocalendar()
    return f"{year}-W{week:02d}"
