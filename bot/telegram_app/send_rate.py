"""Telegram's sending limits as a pure rule over an injected clock, and the clock the chat outbox runs on.

The limits Telegram documents for bots (core.telegram.org/bots/faq, "My bot is hitting limits"): about one message
per second in one chat, no more than 20 messages per minute in a group, about 30 messages per second overall. Edits
are counted like messages here: Telegram answers bursts of ``editMessageText`` with the same 429 flood errors, so
counting them keeps the bot under the limit rather than discovering it. A 429's ``retry_after`` holds the whole
chat until then (:meth:`SendRate.hold`).

Windows are sliding (the last 60 s, not the current minute): a fixed window lets 40 messages through around a
minute boundary, which Telegram refuses.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass, field


class Pace:
    """The clock of the chat outbox: seconds on a monotonic clock, and sleeping on the same clock."""

    def now(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


class ScaledPace(Pace):
    """A clock running ``factor`` times faster than the wall clock: a minute of Telegram's limits passes in
    ``60 / factor`` real seconds. For tests and the load bench (the fake Bot API reads the same clock), so the
    20-per-minute rule is exercised without waiting minutes."""

    def __init__(self, factor: float) -> None:
        self.factor = factor
        self._origin = time.monotonic()

    def now(self) -> float:
        return (time.monotonic() - self._origin) * self.factor

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds) / self.factor)


@dataclass
class Limits:
    """Telegram's limits (0 switches a rule off). per_chat_gap_s: least time between two sends to one chat;
    group_per_minute: sends to one group in any 60 s; overall_per_s: sends to all chats in any second."""

    per_chat_gap_s: float = 1.0
    group_per_minute: int = 20
    overall_per_s: int = 30


@dataclass
class SendRate:
    """Which chat may be sent to when. ``wait_s`` is 0 when a send may go now; ``record`` counts one that went."""

    limits: Limits = field(default_factory=Limits)
    _last: dict[int, float] = field(default_factory=dict)
    _group: dict[int, deque[float]] = field(default_factory=dict)
    _overall: deque[float] = field(default_factory=deque)
    _held: dict[int, float] = field(default_factory=dict)

    @staticmethod
    def is_group(chat_id: int) -> bool:
        """Groups and channels have negative ids; private chats positive ones."""
        return chat_id < 0

    def wait_s(self, chat_id: int, now: float) -> float:
        """Seconds until a send to ``chat_id`` keeps every limit (0: now)."""
        waits = [self._held.get(chat_id, now) - now]
        if self.limits.per_chat_gap_s and chat_id in self._last:
            waits.append(self._last[chat_id] + self.limits.per_chat_gap_s - now)
        window = self._window(chat_id, now)
        if window is not None and self.limits.group_per_minute and len(window) >= self.limits.group_per_minute:
            waits.append(window[len(window) - self.limits.group_per_minute] + 60.0 - now)
        if self.limits.overall_per_s:
            self._trim(self._overall, now - 1.0)
            if len(self._overall) >= self.limits.overall_per_s:
                waits.append(self._overall[len(self._overall) - self.limits.overall_per_s] + 1.0 - now)
        return max(0.0, *waits)

    def headroom(self, chat_id: int, now: float) -> int:
        """Sends left in the group's 60 s window (a large number for private chats or with the rule off)."""
        window = self._window(chat_id, now)
        if window is None or not self.limits.group_per_minute:
            return 1 << 30
        return self.limits.group_per_minute - len(window)

    def record(self, chat_id: int, now: float) -> None:
        """Count a send (or edit) that Telegram accepted."""
        self._last[chat_id] = now
        window = self._window(chat_id, now)
        if window is not None:
            window.append(now)
        self._overall.append(now)

    def hold(self, chat_id: int, until: float) -> None:
        """Send nothing to ``chat_id`` before ``until`` (Telegram answered 429 with ``retry_after``)."""
        self._held[chat_id] = max(self._held.get(chat_id, until), until)

    def _window(self, chat_id: int, now: float) -> deque[float] | None:
        if not self.is_group(chat_id):
            return None
        window = self._group.setdefault(chat_id, deque())
        self._trim(window, now - 60.0)
        return window

    @staticmethod
    def _trim(times: deque[float], before: float) -> None:
        while times and times[0] <= before:
            times.popleft()
