"""``/digest`` in the chat: anyone previews it where they asked; only admins post it, to the configured chat
and topic; ``sutro digest`` previews in the terminal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.app import build_context
from bot.cli import main
from bot.settings import Settings
from tests.bot.telegram_harness import ADMIN, GROUP, MEMBER, TOPIC, running_bot, settings_for, texts, until
from tests.fakes.bot_api import FakeBotApi

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60)]
DIGEST_TOPIC = 313


async def test_preview_for_members_post_for_admins_into_the_configured_topic(fake: FakeBotApi) -> None:
    config = build_context(settings_for(fake)).tool_config()
    config.set("digest.chat_id", str(GROUP), by="test")
    config.set("digest.topic_id", str(DIGEST_TOPIC), by="test")
    async with running_bot(fake):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/digest", thread_id=TOPIC)
        await until(fake, lambda calls: any(c.method == "sendPhoto" for c in calls))
        fake.push_message(chat_id=GROUP, user_id=MEMBER, text="/digest post", thread_id=TOPIC)
        await until(fake, lambda calls: any("only admins can post" in t for t in texts(calls)))
        fake.push_message(chat_id=GROUP, user_id=ADMIN, text="/digest post", thread_id=TOPIC)
        calls = await until(fake, lambda calls: any("posted the digest of" in t for t in texts(calls)))
    digests = [c for c in calls if c.method == "sendMessage" and "Weekly digest" in c.params["text"]]
    assert [c.params["message_thread_id"] for c in digests] == [str(TOPIC), str(DIGEST_TOPIC)]
    photos = [c for c in calls if c.method == "sendPhoto"]
    assert [c.params["message_thread_id"] for c in photos] == [str(TOPIC), str(DIGEST_TOPIC)]
    assert all(c.files["photo"][1][:8] == b"\x89PNG\r\n\x1a\n" for c in photos)
    confirmation = next(t for t in texts(calls) if "posted the digest of" in t)
    assert f"chat {GROUP}, topic {DIGEST_TOPIC}" in confirmation


def test_terminal_preview_and_post_without_a_token() -> None:
    result = CliRunner().invoke(main, ["digest", "--json"])
    assert result.exit_code == 0 and json.loads(result.output)["runs"] == 0
    result = CliRunner().invoke(main, ["digest", "--post"])
    assert result.exit_code == 2 and "digest.chat_id is not set" in result.output


def test_the_digest_names_the_markdown_log_and_links_the_doc_never_a_server_path(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    from bot.commands.digest_content import digest_reply

    ctx = build_context(Settings(data_dir=tmp_path / "data"))
    end = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
    markdown = digest_reply(ctx, end=end).text
    assert markdown.splitlines()[-1] == "Sprint log: sprint-log.md, the Markdown log the bot keeps (/log adds to it)"
    assert str(tmp_path) not in markdown and "/data" not in markdown
    config = ctx.tool_config()
    config.set("sprint_log.document_id", "DOC123", by="test")
    config.set("sprint_log.sink", "gdocs", by="test")
    docs = digest_reply(ctx, end=end).text
    assert docs.splitlines()[-1] == "Sprint log: https://docs.google.com/document/d/DOC123/edit"
    assert str(tmp_path) not in docs
