"""The Bot API side of the chat outbox: send or edit one item, and say how a failure should be handled.

- 429 Too Many Requests → :class:`SendLater` with ``retry_after`` (the outbox holds the chat that long).
- Timeouts and network errors (5xx included) → :class:`SendLater` without a time (the outbox backs off; a
  timed-out send may have arrived: a rare duplicate beats a lost result).
- 400 "message is not modified" on an edit: delivered already. 400 "can't parse entities": resent as plain text.
  A final edit of a message that is gone or can no longer be edited is sent as a new message (a progress edit
  raises :class:`TargetGone` and is dropped). Any other 400 or 403 → :class:`Refused`.

No text goes out longer than Telegram's 4096 characters: a longer one is sent as plain text cut at a line with a
note (replies are already split by render.py; this catches echoes of long input in refusals and errors).

:class:`Courier` is what handlers hold: one chat (and forum topic), replying to the member's message; everything
it sends goes through the outbox, so it waits its turn under Telegram's limits.
"""

from __future__ import annotations

import html
import re
import warnings
from datetime import timedelta
from typing import Any

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputFile, Message, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter

from bot.reply import Button, OutFile, Reply
from bot.telegram_app.callback_seal import CallbackSeal
from bot.telegram_app.chat_outbox import ChatOutbox, JobMessage, Outgoing, Refused, SendLater, TargetGone
from bot.telegram_app.render import MESSAGE_LIMIT, fit_plain, render
from storage.chat_messages import Topic

_TAG = re.compile(r"<[^>]+>")
_GONE = ("message to edit not found", "message can't be edited", "message_id_invalid")


def retry_after_seconds(err: RetryAfter) -> float:
    """``retry_after`` in seconds whether PTB gives an int or (with PTB_TIMEDELTA) a timedelta."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value: Any = err.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


def plain_text_of(text_html: str) -> str:
    """What a member sees of an HTML message: tags dropped, entities decoded."""
    return html.unescape(_TAG.sub("", text_html))


def keyboard(buttons: list[Button], seal: CallbackSeal) -> InlineKeyboardMarkup | None:
    """One row of inline buttons, each button's data sealed (bot/telegram_app/callback_seal.py); a press sends the
    sealed data back as a callback query."""
    if not buttons:
        return None
    return InlineKeyboardMarkup([[InlineKeyboardButton(b.label, callback_data=seal.seal(b.data)) for b in buttons]])


class BotTransport:
    """Sends outbox items with a PTB Bot."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.seal = CallbackSeal(bot.token)

    async def transmit(self, item: Outgoing) -> int | None:
        try:
            return await self._transmit(item)
        except RetryAfter as err:
            raise SendLater("429 Too Many Requests", retry_after_seconds(err)) from err
        except BadRequest as err:
            if "not modified" in err.message.lower():
                return item.message_id
            if item.kind == "edit" and any(g in err.message.lower() for g in _GONE):
                if item.progress or item.pointer:  # nothing to point from (or to update) any more
                    raise TargetGone(err.message) from err
                return await self.transmit(_as_new_message(item))
            raise Refused(err.message) from err
        except Forbidden as err:
            raise Refused(err.message) from err
        except NetworkError as err:  # TimedOut is a NetworkError; so are 5xx answers
            raise SendLater(f"{type(err).__name__}: {err.message}") from err

    async def _transmit(self, item: Outgoing) -> int | None:
        where: dict[str, Any] = {"chat_id": item.topic.chat_id}
        if item.kind != "edit":
            where["message_thread_id"] = item.topic.thread_id
            if item.reply_to is not None:
                where["reply_parameters"] = ReplyParameters(message_id=item.reply_to, allow_sending_without_reply=True)
        if item.kind in ("photo", "document"):
            assert item.file is not None
            data = InputFile(item.file.content, filename=item.file.name)
            if item.kind == "photo":
                try:
                    return (await self.bot.send_photo(photo=data, **where)).message_id
                except BadRequest:  # Telegram refuses some images as photos: a document always works
                    data = InputFile(item.file.content, filename=item.file.name)
            return (await self.bot.send_document(document=data, **where)).message_id
        text = item.text
        parse_mode: str | None = ParseMode.HTML
        if len(text) > MESSAGE_LIMIT:
            text, parse_mode = fit_plain(plain_text_of(text)), None
        try:
            return await self._text(item, where, text, parse_mode)
        except BadRequest as err:
            if parse_mode is None or "parse" not in err.message.lower():
                raise
            return await self._text(item, where, plain_text_of(text), None)  # the same words without markup

    async def _text(self, item: Outgoing, where: dict[str, Any], text: str, parse_mode: str | None) -> int | None:
        markup = keyboard(item.buttons, self.seal)
        if item.kind == "edit":
            assert item.message_id is not None
            edited = await self.bot.edit_message_text(
                text=text, message_id=item.message_id, parse_mode=parse_mode, reply_markup=markup, **where
            )
            return edited.message_id if isinstance(edited, Message) else item.message_id
        sent = await self.bot.send_message(text=text, parse_mode=parse_mode, reply_markup=markup, **where)
        return sent.message_id


def _as_new_message(item: Outgoing) -> Outgoing:
    item.kind, item.message_id = "text", None
    return item


class Courier:
    """Delivers to one chat (and forum topic), replying to the member's message where there is one.

    durable: what it sends is kept through an outage and sent later (members' answers); False for a sender that
    keeps its own record and retries itself (the weekly digest), which is told None when delivery failed.
    member: who the answers are for (a member's job messages that wait at once may go out as one message).
    """

    def __init__(
        self,
        outbox: ChatOutbox,
        chat_id: int,
        thread_id: int | None = None,
        reply_to: int | None = None,
        *,
        durable: bool = True,
        member: int | None = None,
    ) -> None:
        self.outbox = outbox
        self.topic = Topic(chat_id, thread_id)
        self.chat_id = chat_id
        self.reply_to = reply_to
        self.durable = durable
        self.member = member

    async def send_text(self, text_html: str, *, buttons: list[Button] | None = None) -> int | None:
        """Queue an HTML message; a durable one returns at once (None), otherwise the sent message's id (or None
        when it could not be delivered)."""
        item = Outgoing(self.topic, "text", text_html, self.reply_to, list(buttons or []), durable=self.durable)
        return await self._queue(item)

    async def edit_text(self, message_id: int, text_html: str, *, buttons: list[Button] | None = None) -> int | None:
        """Replace the text and buttons of the bot's message ``message_id`` (a page flip); waits for delivery. Not
        kept through an outage (the member presses again); a message that is gone gets the text as a new one."""
        item = Outgoing(
            self.topic, "edit", text_html, buttons=list(buttons or []), message_id=message_id, durable=False
        )
        return await self.outbox.put(item)

    async def send_file(self, file: OutFile, *, photo: bool) -> int | None:
        item = Outgoing(self.topic, "photo" if photo else "document", reply_to=self.reply_to, file=file)
        item.durable = self.durable
        return await self._queue(item)

    def open_job(self, text_html: str, *, tag: str = "") -> JobMessage:
        """The acknowledgement of a queued job: the message that its progress and result will replace (``tag``:
        the job's short name, ``job 7``). A member's job messages that wait at once may share one message."""
        return self.outbox.open_job(self.topic, self.reply_to, text_html, member=self.member, tag=tag)

    async def _queue(self, item: Outgoing) -> int | None:
        done = self.outbox.put(item)
        return await done if not self.durable else None


async def send_reply(courier: Courier, reply: Reply) -> None:
    """An instant answer: text first (with the reply's buttons as an inline keyboard), then charts as photos, then
    documents — queued in the outbox, in that order."""
    out = render(reply)
    await courier.send_text(out.html, buttons=out.buttons)
    for photo in out.photos:
        await courier.send_file(photo, photo=True)
    for document in out.documents:
        await courier.send_file(document, photo=False)
