"""Send and edit chat messages so that nothing is lost: Bot API failures are retried or reported in the log.

- 429 Too Many Requests: wait ``retry_after`` seconds (capped) and send again — Telegram did not deliver it.
- Timeouts and network errors: retried with a short back-off (a timed-out send may have arrived; a rare duplicate
  beats a lost result).
- 400 "message is not modified" on an edit: nothing to do. 400 "can't parse entities": resent as plain text.
- Anything else, or too many failures: logged as an incident with what was not delivered.

No text goes out longer than Telegram's 4096 characters: a longer one is sent as plain text cut at a line with a
note (replies are already split by render.py; this catches echoes of long input in refusals and errors).
"""

from __future__ import annotations

import asyncio
import html
import logging
import re
import warnings
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, TypeVar

from telegram import Bot, InlineKeyboardMarkup, InputFile, Message, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import BadRequest, NetworkError, RetryAfter, TimedOut

from bot.incidents import report_incident
from bot.reply import OutFile
from bot.telegram_app.render import MESSAGE_LIMIT, fit_plain

log = logging.getLogger("sutro.telegram")
T = TypeVar("T")
MAX_ATTEMPTS = 5
MAX_RETRY_AFTER_S = 60.0
_TAG = re.compile(r"<[^>]+>")


def retry_after_seconds(err: RetryAfter) -> float:
    """``retry_after`` in seconds whether PTB gives an int or (with PTB_TIMEDELTA) a timedelta."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value: Any = err.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


def plain_text_of(text_html: str) -> str:
    """What a member sees of an HTML message: tags dropped, entities decoded."""
    return html.unescape(_TAG.sub("", text_html))


class Courier:
    """Delivers to one chat (and forum topic), replying to the member's message where there is one."""

    def __init__(self, bot: Bot, chat_id: int, thread_id: int | None = None, reply_to: int | None = None) -> None:
        self.bot = bot
        self.chat_id = chat_id
        self.thread_id = thread_id
        self.reply_to = reply_to

    async def _call(self, what: str, action: Callable[[], Awaitable[T]]) -> T | None:
        for attempt in range(1, MAX_ATTEMPTS + 1):
            try:
                return await action()
            except RetryAfter as err:
                wait = min(retry_after_seconds(err), MAX_RETRY_AFTER_S)
                log.warning("Telegram rate limit on %s: retrying in %.1f s", what, wait)
                await asyncio.sleep(wait)
            except BadRequest as err:
                if "not modified" in err.message.lower():
                    return None
                raise
            except (TimedOut, NetworkError) as err:
                if attempt == MAX_ATTEMPTS:
                    report_incident(err, where=f"delivering {what} to chat {self.chat_id} (gave up)")
                    return None
                log.warning("Telegram %s on %s: retry %d", type(err).__name__, what, attempt)
                await asyncio.sleep(0.5 * 2 ** (attempt - 1))
        log.error("gave up delivering %s to chat %s after %d rate limits", what, self.chat_id, MAX_ATTEMPTS)
        return None

    def _where(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"chat_id": self.chat_id, "message_thread_id": self.thread_id}
        if self.reply_to is not None:
            kwargs["reply_parameters"] = ReplyParameters(message_id=self.reply_to, allow_sending_without_reply=True)
        return kwargs

    async def send_text(self, text_html: str, *, markup: InlineKeyboardMarkup | None = None) -> Message | None:
        """Send an HTML message (with inline buttons when ``markup``); if Telegram cannot parse it, send the same
        text without markup."""
        if len(text_html) > MESSAGE_LIMIT:
            return await self._plain(fit_plain(plain_text_of(text_html)), markup)
        try:
            return await self._call(
                "a message",
                lambda: self.bot.send_message(
                    text=text_html, parse_mode=ParseMode.HTML, reply_markup=markup, **self._where()
                ),
            )
        except BadRequest as err:
            log.warning("HTML message refused (%s); sending plain text", err.message)
            return await self._plain(plain_text_of(text_html), markup)

    async def _plain(self, text: str, markup: InlineKeyboardMarkup | None = None) -> Message | None:
        try:
            return await self._call(
                "a message", lambda: self.bot.send_message(text=text, reply_markup=markup, **self._where())
            )
        except BadRequest as err:
            report_incident(err, where=f"sending a message to chat {self.chat_id}")
            return None

    async def edit_text(self, message_id: int, text_html: str) -> None:
        parse_mode: str | None = ParseMode.HTML
        if len(text_html) > MESSAGE_LIMIT:
            text_html, parse_mode = fit_plain(plain_text_of(text_html)), None
        try:
            await self._call(
                "an edit",
                lambda: self.bot.edit_message_text(
                    text=text_html, chat_id=self.chat_id, message_id=message_id, parse_mode=parse_mode
                ),
            )
        except BadRequest as err:
            log.warning("edit of message %s refused: %s", message_id, err.message)

    async def send_file(self, file: OutFile, *, photo: bool) -> None:
        def upload() -> Awaitable[Message]:
            data = InputFile(file.content, filename=file.name)
            if photo:
                return self.bot.send_photo(photo=data, **self._where())
            return self.bot.send_document(document=data, **self._where())

        try:
            await self._call(f"file {file.name}", upload)
        except BadRequest as err:
            if photo:  # Telegram refuses some images as photos: a document always works
                log.warning("photo %s refused (%s); sending as a document", file.name, err.message)
                await self.send_file(file, photo=False)
            else:
                report_incident(err, where=f"sending {file.name} to chat {self.chat_id}")
