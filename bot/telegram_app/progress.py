"""One message per job that is edited as the job moves: queued → progress lines → done.

Edits are throttled (at most one per ``interval_s``; the latest line wins) because Telegram allows about one
message per second per chat and 20 per minute in a group. Identical text is never sent twice (Telegram answers
400 "message is not modified").
"""

from __future__ import annotations

import asyncio
import html
import time

from bot.telegram_app.delivery import Courier
from bot.telegram_app.render import preview


class ProgressMessage:
    """The acknowledgement message of one job, kept up to date."""

    def __init__(self, courier: Courier, interval_s: float) -> None:
        self._courier = courier
        self._header = ""
        self._interval = interval_s
        self._message_id: int | None = None
        self._shown = ""
        self._pending: str | None = None
        self._last_edit = 0.0
        self._flusher: asyncio.Task[None] | None = None

    async def open(self, header: str, line: str) -> None:
        """Send the acknowledgement (``header`` names the job, cut to a one-line preview); progress reported before
        this is shown after."""
        self._header = preview(header)
        text = self._compose(line)
        message = await self._courier.send_text(text)
        self._shown = text
        self._last_edit = time.monotonic()
        if message is not None:
            self._message_id = message.message_id
        self._kick()

    def report(self, line: str, fraction: float | None = None) -> None:
        """Called for every progress line (from the event loop); cheap."""
        if fraction is not None:
            line = f"{line} ({100 * fraction:.0f}%)"
        self._pending = self._compose(line)
        self._kick()

    async def close(self, line: str) -> None:
        """Final edit (bypasses the throttle)."""
        self._pending = None
        if self._flusher is not None:
            self._flusher.cancel()
        if self._message_id is not None:
            text = self._compose(line)
            if text != self._shown:
                await self._courier.edit_text(self._message_id, text)
                self._shown = text

    def _compose(self, line: str) -> str:
        return f"{html.escape(self._header, quote=False)}\n{html.escape(line, quote=False)}"

    def _kick(self) -> None:
        if (
            self._message_id is not None
            and self._pending is not None
            and (self._flusher is None or self._flusher.done())
        ):
            self._flusher = asyncio.create_task(self._flush())

    async def _flush(self) -> None:
        while self._pending is not None and self._message_id is not None:
            wait = self._last_edit + self._interval - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            text, self._pending = self._pending, None
            if text != self._shown:
                self._last_edit = time.monotonic()
                self._shown = text
                await self._courier.edit_text(self._message_id, text)
