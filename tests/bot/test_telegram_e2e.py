"""End to end: the real PTB Application polls a local fake Bot API over HTTP and answers like it would in the group.

Each test starts the fake server and the bot (a few seconds at most) and asserts on what the server received.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.commands import COMMANDS
from tests.bot.telegram_harness import (
    ADMIN,
    GROUP,
    MEMBER,
    OTHER_MEMBER,
    STRANGERS,
    TEST_COMMANDS,
    TOKEN,
    TOPIC,
    any_text,
    running_bot,
    texts,
    until,
)
from tests.fakes.bot_api import FakeBotApi

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60)]


@pytest.fixture
def fake() -> Iterator[FakeBotApi]:
    api = FakeBotApi(TOKEN).start()
    yield api
    api.stop()


def _alive(pid: int) -> bool:
    """True if ``pid`` exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


async def test_challenges_answered_in_the_same_topic_as_a_table(fake: FakeBotApi) -> None:
    async with running_bot(fake):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/challenges", thread_id=TOPIC)
        calls = await until(fake, any_text("challenges"))
    [reply] = [c for c in calls if c.method == "sendMessage"]
    assert reply.params["chat_id"] == str(GROUP)
    assert reply.params["message_thread_id"] == str(TOPIC)
    assert reply.params["parse_mode"] == "HTML"
    assert "<pre>challenge" in reply.params["text"]  # the table as a monospace block


async def test_menu_and_help_come_from_the_registry(fake: FakeBotApi) -> None:
    async with running_bot(fake):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/help")
        calls = await until(fake, any_text("/challenges"))
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/help cancel")
        calls = await until(fake, any_text("/cancel ID"))
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/help chalenges")
        calls = await until(fake, any_text("did you mean"))
    [menu_call] = [c for c in calls if c.method == "setMyCommands"]
    menu = [entry["command"] for entry in menu_call.json_param("commands")]
    assert menu == [c.name for c in TEST_COMMANDS if c.telegram]
    help_text = texts(calls)[0]
    for command in COMMANDS:
        assert (f"/{command.name}" in help_text) == command.telegram
    assert "'challenges'" in texts(calls)[2]


async def test_a_stranger_chat_is_refused_and_nothing_runs(fake: FakeBotApi, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    async with running_bot(fake):
        fake.push_message(chat_id=STRANGERS, user_id=MEMBER, text=f"/sleepy steps=1 child={marker}")
        calls = await until(fake, any_text("allow-list"))
        await asyncio.sleep(0.5)
    assert texts(calls, chat_id=STRANGERS) == [texts(calls)[0]]  # the refusal and nothing else
    assert not marker.exists()


async def test_admin_only_command_refused_for_members_allowed_for_admins(fake: FakeBotApi) -> None:
    async with running_bot(fake):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/wipe rows=2")
        await until(fake, any_text("for admins only"))
        fake.push_message(chat_id=GROUP, user_id=ADMIN, text="/wipe rows=2")
        await until(fake, any_text("2 rows"))
        # an anonymous group admin posts as the group itself (from = GroupAnonymousBot)
        fake.push_message(chat_id=GROUP, user_id=1087968824, sender_chat_id=GROUP, text="/wipe rows=3")
        calls = await until(fake, any_text("3 rows"))
    assert sum("for admins only" in t for t in texts(calls)) == 1


async def test_progress_edits_one_message_then_the_result_arrives_in_the_topic(fake: FakeBotApi) -> None:
    async with running_bot(fake):  # progress edits at most every 0.2 s
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/sleepy steps=16 pause=0.05", thread_id=TOPIC)
        calls = await until(fake, any_text("slept 16 steps"))
    ack, result = [c for c in calls if c.method == "sendMessage"]
    assert "queued #1, position 1" in ack.params["text"]
    assert ack.params["message_thread_id"] == result.params["message_thread_id"] == str(TOPIC)
    edits = [c for c in calls if c.method == "editMessageText"]
    assert {e.params["message_id"] for e in edits} == {str(ack.result["message_id"])}  # one message, edited
    progress = [e for e in edits if "/16 (" in e.params["text"]]
    assert len(progress) >= 2
    gaps = [b.at - a.at for a, b in zip(progress, progress[1:], strict=False)]
    assert min(gaps) >= 0.15, (gaps, [e.params["text"] for e in edits])  # throttled
    assert len(edits) < 16
    assert "done in" in edits[-1].params["text"]
