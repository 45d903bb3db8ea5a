"""The digest schedule on an explicit clock: local time kept across daylight-saving changes, day names meaning
the day they say (APScheduler's 0 = Monday and PTB's 0 = Sunday never enter), ISO weeks of slots."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from tools.digest_schedule import DigestSchedule, week_of

BERLIN_SUNDAY_9 = DigestSchedule("sun", "09:00", "Europe/Berlin")


def test_fires_at_nine_local_across_the_march_dst_change() -> None:
    # 2026-03-29 is the last Sunday of March: Berlin goes from UTC+1 to UTC+2 at 02:00 local.
    before = BERLIN_SUNDAY_9.next_slot(datetime(2026, 3, 20, 12, tzinfo=UTC))
    across = BERLIN_SUNDAY_9.next_slot(before)
    after = BERLIN_SUNDAY_9.next_slot(across)
    assert [t.astimezone(UTC) for t in (before, across, after)] == [
        datetime(2026, 3, 22, 8, 0, tzinfo=UTC),  # 09:00 CET
        datetime(2026, 3, 29, 7, 0, tzinfo=UTC),  # 09:00 CEST, the day of the change
        datetime(2026, 4, 5, 7, 0, tzinfo=UTC),
    ]
    assert {(t.hour, t.minute, t.strftime("%a")) for t in (before, across, after)} == {(9, 0, "Sun")}


def test_fires_at_nine_local_across_the_october_dst_change() -> None:
    # 2026-10-25 is the last Sunday of October: back from UTC+2 to UTC+1 at 03:00 local.
    first = BERLIN_SUNDAY_9.next_slot(datetime(2026, 10, 20, tzinfo=UTC))
    second = BERLIN_SUNDAY_9.next_slot(first)
    assert first.astimezone(UTC) == datetime(2026, 10, 25, 8, 0, tzinfo=UTC)
    assert second.astimezone(UTC) == datetime(2026, 11, 1, 8, 0, tzinfo=UTC)
    week_before = BERLIN_SUNDAY_9.previous_slot(first - timedelta(seconds=1))
    assert week_before.astimezone(UTC) == datetime(2026, 10, 18, 7, 0, tzinfo=UTC)  # 09:00 CEST
    assert first.astimezone(UTC) - week_before.astimezone(UTC) == timedelta(days=7, hours=1)


def test_a_slot_during_the_skipped_hour_still_fires_once_that_day() -> None:
    # 02:30 does not exist in Berlin on 2026-03-29; the digest still goes out that Sunday, once.
    schedule = DigestSchedule("sun", "02:30", "Europe/Berlin")
    slot = schedule.next_slot(datetime(2026, 3, 28, 12, tzinfo=UTC))
    assert slot.astimezone(UTC).date() == datetime(2026, 3, 29).date()
    assert schedule.next_slot(slot).astimezone(UTC).date() == datetime(2026, 4, 5).date()


def test_day_names_mean_their_day() -> None:
    monday = DigestSchedule("mon", "09:00", "UTC").next_slot(datetime(2026, 11, 22, 12, tzinfo=UTC))  # a Sunday
    assert monday == datetime(2026, 11, 23, 9, 0, tzinfo=UTC) and monday.weekday() == 0
    sunday = DigestSchedule("sun", "09:00", "UTC").next_slot(datetime(2026, 11, 22, 12, tzinfo=UTC))
    assert sunday == datetime(2026, 11, 29, 9, 0, tzinfo=UTC) and sunday.weekday() == 6


def test_previous_slot_is_the_latest_at_or_before_now() -> None:
    schedule = DigestSchedule("mon", "09:00", "UTC")
    exactly = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
    assert schedule.previous_slot(exactly) == exactly
    assert schedule.previous_slot(exactly - timedelta(seconds=1)) == datetime(2026, 11, 16, 9, 0, tzinfo=UTC)
    assert schedule.next_slot(exactly) == datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def test_week_of_uses_the_local_date() -> None:
    # Monday 00:30 in Tokyo is still Sunday in UTC: the week is the local one (ISO week 48 starts Mon 23 Nov).
    schedule = DigestSchedule("mon", "00:30", "Asia/Tokyo")
    slot = schedule.next_slot(datetime(2026, 11, 21, tzinfo=UTC))
    assert slot.astimezone(UTC).strftime("%a") == "Sun"
    assert week_of(slot, schedule.zone) == "2026-W48"
    assert week_of(datetime(2026, 11, 22, 14, 0, tzinfo=UTC), schedule.zone) == "2026-W47"  # 23:00 Sunday in Tokyo


ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "Pacific/Chatham"]


@settings(max_examples=150, deadline=None)
@given(
    day=st.sampled_from(["mon", "tue", "wed", "thu", "fri", "sat", "sun"]),
    hour=st.integers(0, 23),
    minute=st.sampled_from([0, 15, 30, 59]),
    zone=st.sampled_from(ZONES),
    now=st.datetimes(min_value=datetime(2025, 1, 1), max_value=datetime(2028, 12, 31), timezones=st.just(UTC)),
)
def test_slots_fall_on_the_named_day_at_the_local_time(
    day: str, hour: int, minute: int, zone: str, now: datetime
) -> None:
    schedule = DigestSchedule(day, f"{hour:02d}:{minute:02d}", zone)
    previous, upcoming = schedule.previous_slot(now), schedule.next_slot(now)
    assert previous <= now < upcoming
    for slot in (previous, upcoming):
        local = slot.astimezone(schedule.zone)
        assert local.strftime("%a").lower() == day
        exists = local.replace(hour=hour, minute=minute).astimezone(UTC).astimezone(schedule.zone).hour == hour
        if exists:  # a time skipped by a DST jump fires at the first valid time that day instead
            assert (local.hour, local.minute) == (hour, minute)
    assert timedelta(days=6) < upcoming - previous < timedelta(days=8)
    assert schedule.next_slot(previous) == upcoming  # consecutive slots: nothing in between


def test_the_monday_after_clocks_go_forward_is_not_skipped() -> None:
    """Europe/Berlin went from CET (+1) to CEST (+2) on Sunday 2025-03-30 at 02:00 local. "Monday 00:00" is then
    Monday 2025-03-31 00:00 CEST = 2025-03-30 22:00 UTC (hand conversion); APScheduler 3.11's CronTrigger answered
    2025-04-07 from 2025-03-24 01:00 local, skipping that week."""
    schedule = DigestSchedule("mon", "00:00", "Europe/Berlin")
    monday_after_the_jump = datetime(2025, 3, 30, 22, 0, tzinfo=UTC)
    assert schedule.next_slot(datetime(2025, 3, 24, 0, 0, tzinfo=UTC)) == monday_after_the_jump
    assert schedule.previous_slot(datetime(2025, 4, 1, tzinfo=UTC)) == monday_after_the_jump
    trigger = schedule.trigger()
    fires = [trigger.get_next_fire_time(None, datetime(2025, 3, 24, 0, 0, tzinfo=UTC))]
    for _ in range(2):
        previous = fires[-1]
        assert previous is not None
        fires.append(trigger.get_next_fire_time(previous, previous))  # the scheduler asks again right after firing
    # 22:00 UTC on 2025-03-30 / 04-06 / 04-13: every Monday midnight of CEST, once each
    assert fires == [monday_after_the_jump + timedelta(weeks=w) for w in range(3)]


def test_a_time_the_jump_skips_fires_at_the_same_instant_after_it() -> None:
    """02:30 does not exist in Berlin on 2025-03-30 (02:00 → 03:00): 02:30 of the old offset (+1) is 01:30 UTC,
    which the clock after the jump reads as 03:30."""
    schedule = DigestSchedule("sun", "02:30", "Europe/Berlin")
    slot = schedule.next_slot(datetime(2025, 3, 29, tzinfo=UTC))
    assert slot == datetime(2025, 3, 30, 1, 30, tzinfo=UTC)
    assert (slot.astimezone(schedule.zone).hour, slot.astimezone(schedule.zone).minute) == (3, 30)
