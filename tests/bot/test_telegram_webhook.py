"""Webhook mode (optional): the bot registers its URL with the secret, accepts updates that carry the secret only."""

from __future__ import annotations

import asyncio
import json
import socket
import urllib.error
import urllib.request

import pytest
from pydantic import SecretStr

from bot.app import build_context
from bot.commands.base import UsageError
from bot.telegram_app.application import build_bot
from tests.bot.telegram_harness import GROUP, MEMBER, any_text, running_bot, settings_for, texts, until
from tests.fakes.bot_api import FakeBotApi

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(60)]
SECRET = "webhook-secret-for-tests"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _post(port: int, update: dict[str, object], secret: str) -> int:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/tg/hook",
        data=json.dumps(update).encode(),
        headers={"Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": secret},
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return int(response.status)
    except urllib.error.HTTPError as err:
        return err.code


async def test_webhook_registers_and_answers_only_updates_with_the_secret(fake: FakeBotApi) -> None:
    port = _free_port()
    webhook = {
        "telegram_webhook_url": "https://bot.example.org/tg/hook",
        "telegram_webhook_port": port,
        "telegram_webhook_secret": SecretStr(SECRET),
    }
    async with running_bot(fake, **webhook):
        [registered] = [c for c in fake.calls if c.method == "setWebhook"]
        assert registered.params["url"] == "https://bot.example.org/tg/hook"
        assert registered.params["secret_token"] == SECRET
        forged = {"update_id": 1, "message": fake.message(chat_id=GROUP, user_id=MEMBER, text="/status")}
        assert await asyncio.to_thread(_post, port, forged, "wrong") == 403
        update = {"update_id": 2, "message": fake.message(chat_id=GROUP, user_id=MEMBER, text="/help")}
        assert await asyncio.to_thread(_post, port, update, SECRET) == 200
        calls = await until(fake, any_text("/challenges"))
        await asyncio.sleep(0.3)
    assert len(texts(calls)) == 1  # the forged /status was not answered
    assert not any(c.method == "getUpdates" for c in fake.calls)


def test_webhook_mode_needs_a_secret_and_https(fake: FakeBotApi) -> None:
    with pytest.raises(UsageError, match="needs a secret"):
        build_bot(build_context(settings_for(fake, telegram_webhook_url="https://bot.example.org/hook")))
    with pytest.raises(UsageError, match="must be https"):
        build_bot(
            build_context(
                settings_for(
                    fake,
                    telegram_webhook_url="http://bot.example.org/hook",
                    telegram_webhook_secret=SecretStr(SECRET),
                )
            )
        )
