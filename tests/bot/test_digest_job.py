"""The scheduled weekly digest in the real PTB Application against the local fake Bot API, on a controllable
clock.

The digest job's clock is injected through ``build_bot(clock=...)`` (a :class:`PinnedClock` a test may
move); the job is force-run with ``job.run(app)`` instead of waiting for wall-clock time
(docs/integrations.md#telegram, docs/integrations.md#weekly-digest-scheduling). Two bots on one database
share the SQLite file in the test's data directory.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.app import build_context
from bot.telegram_app.application import TelegramBot, build_bot
from storage.digests import digest_post
from storage.runs import NewRun, record_run
from storage.tables import DIGEST_POSTED
from tests.bot.telegram_harness import (
    ADMIN,
    GROUP,
    MEMBER,
    TEST_COMMANDS,
    TOPIC,
    PinnedClock,
    quiet_clock,
    settings_for,
    texts,
    until,
)
from tests.fakes.bot_api import FakeBotApi

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60)]

SLOT = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)  # Monday 09:00 UTC, ISO week 48


def configure(fake: FakeBotApi, **values: str) -> None:
    """Store tool settings as an admin would (through the same store /config uses)."""
    config = build_context(settings_for(fake)).tool_config()
    settings = {
        "digest.chat_id": str(GROUP),
        "digest.topic_id": str(TOPIC),
        "digest.day": "mon",
        "digest.time": "09:00",
        "digest.timezone": "UTC",
        **values,
    }
    for key, value in settings.items():
        config.set(key, value, by="test")


def store_a_run(fake: FakeBotApi, when: datetime) -> None:
    sessions = build_context(settings_for(fake)).sessions()
    with sessions() as session:
        record_run(
            session,
            NewRun(
                challenge="matmul_4x4",
                kind="ir",
                subject="naive",
                ok=True,
                metrics={"dally@1": 42.0},
                request_key="r1",
                member="alice",
                engine_version="t",
                created_at=when,
            ),
        )


@asynccontextmanager
async def bot_at(fake: FakeBotApi, now: datetime | PinnedClock) -> AsyncIterator[TelegramBot]:
    """A bot whose digest clock reads ``now``, started like ``sutro serve`` and stopped the same way."""
    clock = now if isinstance(now, PinnedClock) else PinnedClock(now)
    bot = build_bot(build_context(settings_for(fake, job_workers=1)), commands=TEST_COMMANDS, clock=clock)
    await bot.start(poll_timeout_s=1)
    try:
        yield bot
    finally:
        await bot.stop()


def digests(fake: FakeBotApi) -> list[Any]:
    return [c for c in fake.delivered("sendMessage") if "Weekly digest" in c.params.get("text", "")]


def posted_state(fake: FakeBotApi, week: str) -> str | None:
    with build_context(settings_for(fake)).sessions()() as session:
        post = digest_post(session, week=week)
        return None if post is None else post.state


async def test_bot_down_over_the_digest_time_posts_exactly_one_catch_up(fake: FakeBotApi) -> None:
    configure(fake)
    store_a_run(fake, SLOT - timedelta(days=2))
    async with bot_at(fake, SLOT + timedelta(hours=5)):  # came back five hours after the slot
        pass
    [message] = digests(fake)
    assert message.params["chat_id"] == str(GROUP) and message.params["message_thread_id"] == str(TOPIC)
    assert "Weekly digest 2026-W48: 1 result(s)" in message.params["text"]
    photos = fake.delivered("sendPhoto")  # the week's activity, then matmul_4x4's record progression (its one run)
    assert [p.files["photo"][0] for p in photos] == [
        "digest-2026-W48.png",
        "digest-2026-W48-records-matmul_4x4.png",
    ]
    for photo in photos:
        assert photo.params["message_thread_id"] == str(TOPIC)
        assert photo.files["photo"][1][:8] == b"\x89PNG\r\n\x1a\n"
    assert posted_state(fake, "2026-W48") == DIGEST_POSTED
    async with bot_at(fake, SLOT + timedelta(hours=6)):  # restarted again: nothing more
        pass
    assert len(digests(fake)) == 1


async def test_two_bots_on_one_database_post_once(fake: FakeBotApi) -> None:
    configure(fake)
    clock = PinnedClock(SLOT + timedelta(minutes=10))
    first = build_bot(build_context(settings_for(fake, job_workers=1)), commands=TEST_COMMANDS, clock=clock)
    second = build_bot(build_context(settings_for(fake, job_workers=1)), commands=TEST_COMMANDS, clock=clock)
    await asyncio.gather(first.start(poll_timeout_s=1), second.start(poll_timeout_s=1))
    try:
        # both jobs fire for the same slot too
        runs = []
        for bot in (first, second):
            job = bot.digest.job()
            assert job is not None
            runs.append(job.run(bot.app))
        await asyncio.gather(*runs)
    finally:
        await asyncio.gather(first.stop(), second.stop())
    assert len(digests(fake)) == 1


async def test_the_scheduled_job_posts_its_week_once(fake: FakeBotApi) -> None:
    configure(fake)
    clock = PinnedClock(SLOT - timedelta(hours=1))  # last slot a week ago: outside the catch-up window
    async with bot_at(fake, clock) as bot:
        assert digests(fake) == []
        job = bot.digest.job()
        assert job is not None and job.next_t is not None and bot.app.job_queue is not None
        assert job.next_t.astimezone(UTC) > datetime.now(UTC)  # scheduled in the real future (next Monday 09:00)
        assert job.next_t.strftime("%a %H:%M") == "Mon 09:00"
        clock.now = SLOT + timedelta(seconds=2)  # the moment it fires
        await job.run(bot.app)
        await job.run(bot.app)  # a second fire for the same week (another process, a coalesce miss)
    [message] = digests(fake)
    assert "2026-W48" in message.params["text"]


async def test_a_refused_digest_is_released_and_posted_at_the_next_start(fake: FakeBotApi) -> None:
    configure(fake)
    fake.fail_next("sendMessage", 403, "Forbidden: bot was kicked from the group chat")
    async with bot_at(fake, SLOT + timedelta(hours=1)):
        pass
    assert digests(fake) == [] and posted_state(fake, "2026-W48") is None
    async with bot_at(fake, SLOT + timedelta(hours=2)):
        pass
    assert len(digests(fake)) == 1 and posted_state(fake, "2026-W48") == DIGEST_POSTED


async def test_config_set_digest_day_reschedules_at_once_and_non_admins_are_refused(fake: FakeBotApi) -> None:
    configure(fake, **{"digest.timezone": "Europe/Berlin"})
    async with bot_at(fake, SLOT + timedelta(days=4)) as bot:  # four days after the slot: no catch-up
        assert digests(fake) == []  # the slot passed more than CATCH_UP_WITHIN ago: no stale catch-up
        before = bot.digest.next_time()
        assert before is not None and before.strftime("%a %H:%M %Z") == "Mon 09:00 CET"

        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/config set digest.day tue")
        await until(fake, lambda calls: any("admins only" in t for t in texts(calls)))
        assert bot.digest.next_time() == before

        fake.push_message(chat_id=GROUP, user_id=ADMIN, text="/config set digest.day fri")
        await until(fake, lambda calls: any("digest.day = fri (was mon)" in t for t in texts(calls)))
        after = bot.digest.next_time()
        assert after is not None and after.strftime("%a %H:%M %Z") == "Fri 09:00 CET"
        assert bot.app.job_queue is not None
        assert [j.name for j in bot.app.job_queue.jobs() if j.name == "weekly-digest"] == ["weekly-digest"]

        fake.push_message(chat_id=GROUP, user_id=ADMIN, text="/status")
        await until(fake, lambda calls: any("next digest" in t for t in texts(calls)))
        fake.push_message(chat_id=GROUP, user_id=ADMIN, text="/config history digest.day")
        calls = await until(fake, lambda calls: any("change(s), newest first" in t for t in texts(calls)))
        # a change made by another process (sutro config set) is picked up by the once-a-minute resync
        build_context(settings_for(fake)).tool_config().set("digest.time", "18:45", by="terminal")
        await bot.digest.resync()
        moved = bot.digest.next_time()
        assert moved is not None and moved.strftime("%a %H:%M %Z") == "Fri 18:45 CET"
        fake.push_message(chat_id=GROUP, user_id=ADMIN, text="/config set digest.enabled off")
        await until(fake, lambda calls: any("digest.enabled = false" in t for t in texts(calls)))
        assert bot.digest.next_time() is None and bot.digest.job() is None
    status = next(t for t in texts(calls) if "next digest" in t)
    assert "Fri" in status
    history = next(t for t in texts(calls) if "change(s), newest first" in t)
    assert "2 change(s)" in history and "tue" not in history  # the member's refused set left no trace
    config = build_context(settings_for(fake)).tool_config()
    assert config.get("digest.day") == "fri"
    assert [(c.old, c.new) for c in config.history("digest.day")] == [("mon", "fri"), ("mon", "mon")]


async def test_a_claim_left_by_a_crashed_sender_is_not_posted_again(fake: FakeBotApi) -> None:
    # The chosen crash window: a process that claimed the week and died before confirming may or may not have
    # sent it; a restart does not post it again (missing beats duplicate), and /status shows the open claim.
    from storage.digests import claim_week

    configure(fake)
    with build_context(settings_for(fake)).sessions()() as session:
        assert claim_week(
            session, week="2026-W48", slot_at=SLOT, reason="scheduled", claimed_by="dead:1", chat_id=GROUP
        )
    async with bot_at(fake, SLOT + timedelta(hours=1)):
        fake.push_message(chat_id=GROUP, user_id=ADMIN, text="/status")
        calls = await until(fake, lambda calls: any("last digest" in t for t in texts(calls)))
    assert digests(fake) == []
    assert "2026-W48 claimed (scheduled)" in next(t for t in texts(calls) if "last digest" in t)


async def test_the_bot_comes_up_when_the_digest_cannot_be_scheduled(fake: FakeBotApi) -> None:
    # Nothing listens on port 1: the database is unreachable; the bot still answers what needs no database.
    bot = build_bot(
        build_context(settings_for(fake, database_url="postgresql+psycopg://nobody@127.0.0.1:1/none")),
        commands=TEST_COMMANDS,
        clock=quiet_clock,
    )
    await bot.start(poll_timeout_s=1)
    try:
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/challenges")
        await until(fake, lambda calls: any("challenge" in t for t in texts(calls)))
        assert bot.digest.job() is None
    finally:
        await bot.stop()
