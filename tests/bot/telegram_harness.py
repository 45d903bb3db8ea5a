"""Test harness: the real PTB Application from ``build_bot``, polling a local fake Bot API server.

Every bot started here reads an injected clock (default :data:`QUIET_NOW`), never today's date: the start-up
digest catch-up would otherwise post a missed digest on Monday to Thursday mornings and shift what a test sees.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.app import build_context
from bot.commands import COMMANDS
from bot.commands.base import Command
from bot.settings import Settings
from bot.telegram_app.application import build_bot
from bot.telegram_app.send_rate import Pace
from tests.bot.fixture_commands import FIXTURES, PASTE
from tests.fakes.bot_api import Call, FakeBotApi

TOKEN = "5550001:AAFakeTokenForTests-abcdefghijklmno"
GROUP = -1001500000001
STRANGERS = -1001500000999
MEMBER = 4001
OTHER_MEMBER = 4002
ADMIN = 4099
TOPIC = 77

# A Saturday noon: the default digest slot (Monday 09:00 UTC) passed five days earlier, beyond the three-day
# catch-up window (bot/telegram_app/digest_job.py CATCH_UP_WITHIN), so a bot started "now" posts no digest.
QUIET_NOW = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


class PinnedClock:
    """A clock that reads ``now`` until a test moves it (aware UTC); what the bot's digest job is given."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def quiet_clock() -> datetime:
    return QUIET_NOW


TEST_COMMANDS: tuple[Command, ...] = (
    *(c for c in COMMANDS if c.name not in {f.name for f in (*FIXTURES, PASTE)}),
    *FIXTURES,
    PASTE,
)


def process_alive(pid: int) -> bool:
    """True if ``pid`` exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def settings_for(fake: FakeBotApi, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "telegram_bot_token": TOKEN,
        "telegram_base_url": fake.base_url,
        "telegram_base_file_url": fake.base_file_url,
        "allowed_chats": [GROUP],
        "admin_ids": [ADMIN],
        "telegram_progress_interval_s": 0.2,
        "telegram_timeout_s": 2.0,
        "job_workers": 2,
        # Telegram's sending limits are off unless a test turns them on (test_telegram_rate_limits_e2e.py): a
        # 1 s gap per chat would make every test here wait seconds between its messages
        "telegram_chat_gap_s": 0.0,
        "telegram_group_per_minute": 0,
        "telegram_overall_per_s": 0,
    }
    values.update(overrides)
    return Settings(**values)


@asynccontextmanager
async def running_bot(
    fake: FakeBotApi,
    *,
    commands: tuple[Command, ...] = TEST_COMMANDS,
    clock: Callable[[], datetime] = quiet_clock,
    pace: Pace | None = None,
    **overrides: Any,
) -> AsyncIterator[Any]:
    """Start the bot as ``sutro serve`` does (short long-poll), stop it the same way on exit.

    ``commands``: the test registry (fixtures replace ``submit``) unless a test passes the real COMMANDS.
    ``clock``: the digest job's now (aware UTC); pinned so that no test depends on the day it runs."""
    bot = build_bot(build_context(settings_for(fake, **overrides)), commands=commands, clock=clock, pace=pace)
    await bot.start(poll_timeout_s=1)
    try:
        yield bot
    finally:
        await bot.stop()


async def until(fake: FakeBotApi, predicate: Callable[[list[Call]], bool], timeout: float = 8.0) -> list[Call]:
    """Wait (off the loop) until the calls the fake received satisfy ``predicate``."""
    return await asyncio.to_thread(fake.wait_for, predicate, timeout)


def texts(calls: list[Call], method: str = "sendMessage", chat_id: int | None = None) -> list[str]:
    """The texts of ``method`` calls; for ``sendMessage`` (the default) what the chat shows: each message the bot
    sent, in order, with its latest text (a job's acknowledgement is edited into its result)."""
    mine = [c for c in calls if chat_id is None or c.params.get("chat_id") == str(chat_id)]
    if method != "sendMessage":
        return [c.params.get("text", "") for c in mine if c.method == method]
    return list(shown(mine).values())


@dataclass
class Shown:
    """One message the bot sent, as the chat shows it now: the ``sendMessage`` call that created it, and the latest
    text and message (reply_markup included) after any edits."""

    sent: Call
    text: str
    result: dict[str, Any]

    @property
    def thread(self) -> str | None:
        return self.sent.params.get("message_thread_id")


def messages(calls: list[Call], fragment: str = "") -> list[Shown]:
    """The bot's text messages as the chat shows them (edits applied), in the order sent; those holding
    ``fragment`` when given."""
    by_id: dict[int, Shown] = {}
    for c in calls:
        if c.method == "sendMessage" and c.result:
            by_id[int(c.result["message_id"])] = Shown(c, c.params.get("text", ""), c.result)
        elif c.method == "editMessageText" and c.result and int(c.params["message_id"]) in by_id:
            message = by_id[int(c.params["message_id"])]
            message.text, message.result = c.params.get("text", ""), c.result
    return [m for m in by_id.values() if fragment in m.text]


def shown(calls: list[Call]) -> dict[int, str]:
    """Message id -> the text the chat shows now, in the order the messages were sent (edits applied)."""
    latest: dict[int, str] = {}
    for c in calls:
        if c.method == "sendMessage" and c.result:
            latest[int(c.result["message_id"])] = c.params.get("text", "")
        elif c.method == "editMessageText" and int(c.params["message_id"]) in latest:
            latest[int(c.params["message_id"])] = c.params.get("text", "")
    return latest


def any_text(fragment: str, method: str = "sendMessage") -> Callable[[list[Call]], bool]:
    return lambda calls: any(fragment in t for t in texts(calls, method))


def sealed(data: str) -> str:
    """Callback data as the bot seals it for a button (bot/telegram_app/callback_seal.py) under the test token: what
    a client sends back when a member presses that button."""
    from bot.telegram_app.callback_seal import CallbackSeal

    return CallbackSeal(TOKEN).seal(data)


def unsealed(data: str) -> str:
    """A button's data with its seal checked (the test fails on a button the bot did not seal) and removed."""
    from bot.telegram_app.callback_seal import CallbackSeal

    opened = CallbackSeal(TOKEN).open(data)
    assert opened is not None, f"button data {data!r} carries no valid seal"
    return opened
