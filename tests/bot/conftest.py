"""Fixtures for the bot tests: a fresh local fake Bot API server per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.telegram_harness import TOKEN
from tests.fakes.bot_api import FakeBotApi


@pytest.fixture
def fake() -> Iterator[FakeBotApi]:
    api = FakeBotApi(TOKEN).start()
    yield api
    api.stop()
