"""End to end, when things fail: command exceptions, Bot API errors (429, timeouts, 400), and the token in logs.

The real PTB Application polls a local fake Bot API; failures are injected in the fake; assertions are on what the
fake received and on the captured log.
"""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from tests.bot.telegram_harness import GROUP, MEMBER, TOKEN, any_text, running_bot, texts, until
from tests.fakes.bot_api import FakeBotApi

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60)]


async def test_an_exception_in_a_command_is_one_line_with_an_incident_id(
    fake: FakeBotApi, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with running_bot(fake):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/broken")
        calls = await until(fake, any_text("internal error"))
    [message] = [t for t in texts(calls) if "internal error" in t]
    line = message.splitlines()[-1]  # the job's message: its header, the status, then the one line
    assert "internal error" in line and "Traceback" not in message
    incident = line.split("incident ")[1].split(")")[0]
    logged = [r.getMessage() for r in caplog.records if incident in r.getMessage()]
    assert logged and "ZeroDivisionError: the fixture divides by zero" in logged[0]
    assert "Traceback" in logged[0]


async def test_429_is_retried_and_delivered_exactly_once(fake: FakeBotApi) -> None:
    async with running_bot(fake):
        fake.fail_next("sendMessage", 429, retry_after=1)
        started = time.monotonic()
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/challenges")
        calls = await until(fake, any_text("challenges"))
        waited = time.monotonic() - started
        await asyncio.sleep(0.3)
    assert [c.status for c in fake.calls if c.method == "sendMessage"] == [429, 200]
    assert len(texts(calls)) == 1
    assert waited >= 1.0


async def test_a_timed_out_send_is_retried_not_lost(fake: FakeBotApi, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    # 1 s, not less: the same timeout covers connecting, and a loaded CI machine once took over 0.5 s for getMe
    async with running_bot(fake, telegram_timeout_s=1.0):
        fake.fail_next("sendMessage", 200, delay_s=3.0)  # answered well after the bot's read timeout
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/challenges")
        calls = await until(fake, lambda cs: sum(c.method == "sendMessage" for c in cs) >= 2)
    assert any("(TimedOut: Timed out): retry 1" in r.getMessage() for r in caplog.records)
    # the slow first attempt (which Telegram may or may not have delivered) and the retry that surely was
    assert all("challenges" in t for t in texts(calls))


async def test_a_refused_edit_does_not_lose_the_result(fake: FakeBotApi) -> None:
    async with running_bot(fake):
        fake.fail_next("editMessageText", 400, "Bad Request: message is not modified")
        fake.fail_next("editMessageText", 400, "Bad Request: message to edit not found")
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/sleepy steps=8 pause=0.1")
        calls = await until(fake, any_text("slept 8 steps"))
    assert [c.status for c in fake.calls if c.method == "editMessageText"][:2] == [400, 400]
    assert sum("slept" in t for t in texts(calls)) == 1


async def test_the_token_never_reaches_the_log(fake: FakeBotApi, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    async with running_bot(fake):
        logging.getLogger("httpx").setLevel(logging.DEBUG)  # as if someone turned httpx's URL log back on
        fake.fail_next("sendMessage", 429, retry_after=1)
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/broken")
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/challenges")
        await until(fake, lambda cs: len(texts(cs)) == 2)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    lines = [caplog.text] + [r.getMessage() + (r.exc_text or "") for r in caplog.records]
    assert any(r.name == "httpx" and "<redacted>" in r.getMessage() for r in caplog.records)  # the test can fail
    assert not any(TOKEN in line for line in lines)
    assert not any(TOKEN.split(":")[1] in line for line in lines)


async def test_a_failure_in_the_edge_itself_reaches_the_error_handler(
    fake: FakeBotApi, caplog: pytest.LogCaptureFixture
) -> None:
    async with running_bot(fake):
        fake.fail_next("getFile", 400, "Bad Request: wrong file_id or the file is temporarily unavailable")
        fake.push_message(chat_id=GROUP, user_id=MEMBER, caption="/attach", document=("p.ir", b"x = load a"))
        calls = await until(fake, any_text("internal error"))
    [line] = texts(calls)
    incident = line.split("incident ")[1].split(")")[0]
    [record] = [r for r in caplog.records if incident in r.getMessage()]
    assert record.exc_info is not None and "Wrong file_id" in str(record.exc_info[1])
