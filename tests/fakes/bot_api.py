"""A local fake Telegram Bot API: a real HTTP server on 127.0.0.1 that records what the bot sent.

Enough of the Bot API for the real python-telegram-bot Application to poll and answer: getMe, deleteWebhook,
getUpdates (long poll), sendMessage, editMessageText (400 "message is too long" over 4096 characters and "message to
edit not found" for a message it did not send, as Telegram),
sendDocument / sendPhoto (multipart), getFile and the file download, answerCallbackQuery, setMyCommands; any other
method answers ``true``. Telegram's limits are kept (400 with Telegram's description): inline buttons' callback_data
1-64 bytes, captions 1024 characters, photos 10 MB with width + height ≤ 10000 and sides at most 20:1, media groups
2-10 items. Tests inject failures (``fail_next``: 429 with retry_after, 400, or a slow answer for
timeouts; ``set_down``: an outage), Telegram's group limit (``limit_groups``: a sliding 20 per minute answered with
429 and ``retry_after``, on a clock the test may run fast) and updates (``push_message``, ``push_update``).

Stdlib only (``http.server`` in a thread, see bot_api_http.py): the request log is silenced because every URL
holds the bot token.
"""

from __future__ import annotations

import html
import itertools
import json
import math
import re
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import ThreadingHTTPServer
from typing import Any

from tests.fakes.bot_api_http import handler_class

MESSAGE_LIMIT = 4096  # Telegram's limit on a message's text, counted after entity parsing
_TAG = re.compile(r"<[^>]+>")


CALLBACK_DATA_LIMIT = 64  # bytes of an inline button's callback_data (Telegram: 1-64 bytes)
TOAST_LIMIT = 200  # characters of answerCallbackQuery's text (Telegram: 0-200)
CAPTION_LIMIT = 1024  # characters of a photo's or document's caption, counted after entity parsing
PHOTO_BYTES_LIMIT = 10 * 1024 * 1024  # sendPhoto: at most 10 MB ...
PHOTO_SIDES_LIMIT = 10000  # ... width + height at most 10000 ...
PHOTO_RATIO_LIMIT = 20  # ... and the longer side at most 20 times the shorter
MEDIA_GROUP_SIZES = range(2, 11)  # sendMediaGroup: 2-10 items


def visible_text(params: dict[str, str], key: str = "text") -> str:
    """The text (or caption) of a send or edit as Telegram counts it: HTML tags and entities parsed when parse_mode
    is HTML."""
    text = params.get(key, "")
    return html.unescape(_TAG.sub("", text)) if params.get("parse_mode") == "HTML" else text


def png_size(content: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG's IHDR chunk; None for anything that is not a PNG."""
    if content[:8] != b"\x89PNG\r\n\x1a\n" or len(content) < 24:
        return None
    return int.from_bytes(content[16:20], "big"), int.from_bytes(content[20:24], "big")


def refusal(method: str, params: dict[str, str], files: dict[str, tuple[str, bytes]]) -> str | None:
    """The 400 description Telegram gives for a send that breaks its limits on buttons, captions, photos and media
    groups (None when the send is within them)."""
    markup = json.loads(params["reply_markup"]) if params.get("reply_markup") else {}
    for row in markup.get("inline_keyboard", []):
        for button in row:
            data = button.get("callback_data")
            if data is not None and not 1 <= len(data.encode()) <= CALLBACK_DATA_LIMIT:
                return "Bad Request: BUTTON_DATA_INVALID"
    if len(visible_text(params, "caption")) > CAPTION_LIMIT:
        return "Bad Request: message caption is too long"
    if method == "answerCallbackQuery" and len(params.get("text", "")) > TOAST_LIMIT:
        return "Bad Request: MESSAGE_TOO_LONG"
    if method == "sendPhoto":
        content = files.get("photo", ("", b""))[1]
        size = png_size(content)
        if len(content) > PHOTO_BYTES_LIMIT:
            return "Bad Request: PHOTO_INVALID_DIMENSIONS"
        if size is not None and (sum(size) > PHOTO_SIDES_LIMIT or max(size) > PHOTO_RATIO_LIMIT * max(1, min(size))):
            return "Bad Request: PHOTO_INVALID_DIMENSIONS"
    if method == "sendMediaGroup":
        media = json.loads(params.get("media", "[]"))
        if len(media) not in MEDIA_GROUP_SIZES:
            return "Bad Request: MEDIA_GROUP_INVALID (a media group has 2-10 items)"
        if any(len(m.get("caption") or "") > CAPTION_LIMIT for m in media):
            return "Bad Request: message caption is too long"
    return None


LIMITED = ("sendMessage", "editMessageText", "sendPhoto", "sendDocument", "sendMediaGroup")
"""What counts against a group's messages per minute (edits included: Telegram answers edit floods with 429 too)."""

BOT_ID = 7000001
BOT_USERNAME = "sutro_test_bot"


@dataclass
class Call:
    """One Bot API request as received: scalar params as strings (as PTB sends them) and uploaded files."""

    method: str
    params: dict[str, str]
    files: dict[str, tuple[str, bytes]] = field(default_factory=dict)
    status: int = 200
    at: float = 0.0
    result: Any = None
    clock: float = 0.0  # the group limit's clock when it was received (equal to ``at`` unless a test set one)
    retry_after: int | None = None  # what a 429 answer told the bot to wait

    def json_param(self, name: str) -> Any:
        return json.loads(self.params[name]) if name in self.params else None


@dataclass
class Failure:
    status: int
    description: str
    retry_after: int | None = None
    delay_s: float = 0.0


class FakeBotApi:
    """Start with :meth:`start`; point PTB at :attr:`base_url` / :attr:`base_file_url`; :meth:`stop` at the end."""

    def __init__(self, token: str, *, can_read_all_group_messages: bool = False) -> None:
        """``can_read_all_group_messages``: what getMe reports — False is Telegram's default (privacy mode on);
        the fake still delivers every pushed update, so tests say what a privacy-mode bot would not see."""
        self.token = token
        self.can_read_all_group_messages = can_read_all_group_messages
        self.calls: list[Call] = []
        self.poll_offsets: list[int] = []  # the offset of every getUpdates: confirms updates up to offset - 1
        self._updates: list[dict[str, Any]] = []
        self._update_ids = itertools.count(1)
        self._message_ids = itertools.count(1000)
        self._file_ids = itertools.count(1)
        self._files: dict[str, bytes] = {}
        self._messages: dict[int, dict[str, Any]] = {}  # what the bot sent, by message_id, as it reads now
        self._failures: dict[str, list[Failure]] = {}
        self._cond = threading.Condition()
        self._stopping = False
        self._down = False
        self._group_limit = 0
        self._clock: Callable[[], float] = time.monotonic
        self._group_sends: dict[str, deque[float]] = {}
        self._restart_backlog: tuple[int, float] = (0, 0.0)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler_class(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, name="fake-bot-api", daemon=True
        )

    # -- lifecycle --------------------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/bot"

    @property
    def base_file_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/file/bot"

    def start(self) -> FakeBotApi:
        self._thread.start()
        return self

    def stop(self) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        self._server.shutdown()
        self._server.server_close()

    # -- what tests inject ------------------------------------------------------------------------------
    def fail_next(
        self,
        method: str,
        status: int,
        description: str = "",
        *,
        retry_after: int | None = None,
        delay_s: float = 0.0,
    ) -> None:
        """The next call of ``method`` fails with ``status`` (429 with retry_after, 400 …) or is answered late."""
        text = description or {429: "Too Many Requests: retry later", 400: "Bad Request: injected"}.get(status, "error")
        with self._cond:
            self._failures.setdefault(method, []).append(Failure(status, text, retry_after, delay_s))

    def limit_groups(
        self, per_minute: int = 20, *, clock: Callable[[], float] = time.monotonic, recent: int = 0
    ) -> None:
        """Enforce Telegram's group limit strictly: at most ``per_minute`` sends and edits to one group in any 60 s
        of ``clock`` (a sliding window); one more is refused with 429 and ``retry_after`` = the whole seconds until
        the oldest leaves the window. ``recent``: sends every group already had just now (a bot that restarted:
        Telegram remembers what it sent, the bot does not)."""
        with self._cond:
            self._group_limit, self._clock = per_minute, clock
            self._group_sends.clear()
            self._restart_backlog = (recent, clock())

    def set_down(self, down: bool) -> None:
        """While down, every call but getUpdates answers 502 Bad Gateway (an outage between the bot and
        Telegram)."""
        with self._cond:
            self._down = down

    def _over_group_limit(self, method: str, params: dict[str, str], now: float) -> int | None:
        """Seconds to wait when this call would break the group limit (and counts it when it does not)."""
        chat = params.get("chat_id", "")
        if not self._group_limit or method not in LIMITED or not chat.startswith("-"):
            return None
        with self._cond:
            if chat not in self._group_sends:
                recent, at = self._restart_backlog
                self._group_sends[chat] = deque([at] * recent)
            window = self._group_sends[chat]
            while window and window[0] <= now - 60.0:
                window.popleft()
            if len(window) >= self._group_limit:
                return max(1, math.ceil(window[len(window) - self._group_limit] + 60.0 - now))
            window.append(now)
        return None

    def add_file(self, content: bytes) -> str:
        """Store a file the bot can fetch with getFile; returns its file_id."""
        file_id = f"file-{next(self._file_ids)}"
        self._files[file_id] = content
        return file_id

    def file_content(self, file_id: str) -> bytes | None:
        return self._files.get(file_id)

    def push_update(self, body: dict[str, Any]) -> int:
        """Queue an update (``body`` = {"message": …}); returns its update_id."""
        with self._cond:
            update_id = next(self._update_ids)
            self._updates.append({"update_id": update_id, **body})
            self._cond.notify_all()
        return update_id

    def message(
        self,
        *,
        chat_id: int,
        user_id: int,
        text: str | None = None,
        thread_id: int | None = None,
        date: float | None = None,
        sender_chat_id: int | None = None,
        username: str = "member",
        document: tuple[str, bytes] | None = None,
        caption: str | None = None,
        entities: list[dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """A Message dict as Telegram would send it (a ``bot_command`` entity added for a leading ``/word``)."""
        chat_type = "private" if chat_id > 0 else "supergroup"
        msg: dict[str, Any] = {
            "message_id": next(self._message_ids),
            "date": int(date if date is not None else time.time()),
            "chat": {
                "id": chat_id,
                "type": chat_type,
                **({"is_forum": True} if thread_id else {}),
                **({"title": "Sutro"} if chat_id < 0 else {"first_name": username}),
            },
            "from": {"id": user_id, "is_bot": False, "first_name": username, "username": username},
        }
        if thread_id is not None:
            msg.update(message_thread_id=thread_id, is_topic_message=True)
        if sender_chat_id is not None:
            msg["sender_chat"] = {"id": sender_chat_id, "type": "supergroup", "title": "Sutro"}
        for key, value, ents_key in (("text", text, "entities"), ("caption", caption, "caption_entities")):
            if value is None:
                continue
            msg[key] = value
            ents = list(entities or []) if key == "text" else []
            if value.startswith("/"):
                ents.insert(0, {"type": "bot_command", "offset": 0, "length": len(value.split()[0])})
            if ents:
                msg[ents_key] = ents
        if document is not None:
            name, content = document
            file_id = self.add_file(content)
            msg["document"] = {
                "file_id": file_id,
                "file_unique_id": file_id + "u",
                "file_name": name,
                "file_size": len(content),
            }
        return msg

    def push_message(self, **kwargs: Any) -> dict[str, Any]:
        msg = self.message(**kwargs)
        self.push_update({"message": msg})
        return msg

    def push_button_press(self, *, card: dict[str, Any], user_id: int, data: str, username: str = "member") -> str:
        """A member pressing an inline button under ``card`` (a message the bot sent: a sendMessage result).

        Returns the callback query id (the bot should answer it with answerCallbackQuery).
        """
        query_id = f"cbq{next(self._message_ids)}"
        query = {
            "id": query_id,
            "from": {"id": user_id, "is_bot": False, "first_name": username, "username": username},
            "message": card,
            "chat_instance": "ci-1",
            "data": data,
        }
        self.push_update({"callback_query": query})
        return query_id

    # -- what tests read back ---------------------------------------------------------------------------
    def delivered(self, method: str | None = None, chat_id: int | None = None) -> list[Call]:
        """Successful calls, optionally of one method and to one chat."""
        with self._cond:
            return [
                c
                for c in self.calls
                if c.status == 200
                and (method is None or c.method == method)
                and (chat_id is None or c.params.get("chat_id") == str(chat_id))
            ]

    def wait_for(self, predicate: Any, timeout: float = 5.0) -> list[Call]:
        """Block until ``predicate(calls)`` is true (calls = successful ones); returns them. Fails on timeout."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                ok = [c for c in self.calls if c.status == 200]
                if predicate(ok):
                    return ok
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out; calls were: {[(c.method, c.params.get('text')) for c in ok]}")
                self._cond.wait(left)

    # -- the API ----------------------------------------------------------------------------------------
    def handle(
        self, method: str, params: dict[str, str], files: dict[str, tuple[str, bytes]]
    ) -> tuple[int, dict[str, Any]]:
        with self._cond:
            failures = self._failures.get(method)
            failure = failures.pop(0) if failures else None
        if failure is not None and failure.delay_s:
            time.sleep(failure.delay_s)
        call = Call(method, params, files, at=time.monotonic(), clock=self._clock())
        if self._down and method != "getUpdates":
            failure = Failure(502, "Bad Gateway")
        if failure is None or failure.status == 200:
            wait = self._over_group_limit(method, params, call.clock)
            if wait is not None:
                failure = Failure(429, f"Too Many Requests: retry after {wait}", retry_after=wait)
        if failure is not None and failure.status != 200:
            call.status, call.retry_after = failure.status, failure.retry_after
            body: dict[str, Any] = {
                "ok": False,
                "error_code": failure.status,
                "description": failure.description,
            }
            if failure.retry_after is not None:
                body["parameters"] = {"retry_after": failure.retry_after}
            self._record(call)
            return failure.status, body
        if method == "editMessageText" and not self._knows(params):
            call.status = 400
            self._record(call)
            return 400, {"ok": False, "error_code": 400, "description": "Bad Request: message to edit not found"}
        if (problem := refusal(method, params, files)) is not None:
            call.status = 400
            self._record(call)
            return 400, {"ok": False, "error_code": 400, "description": problem}
        if method in ("sendMessage", "editMessageText") and len(visible_text(params)) > MESSAGE_LIMIT:
            call.status = 400
            self._record(call)
            return 400, {"ok": False, "error_code": 400, "description": "Bad Request: message is too long"}
        if method == "getUpdates":
            result: Any = self._get_updates(params)
            if not result:  # empty long polls are noise in the record
                return 200, {"ok": True, "result": result}
        else:
            result = self._answer(method, params, files)
        call.result = result
        self._record(call)
        return 200, {"ok": True, "result": result}

    def _knows(self, params: dict[str, str]) -> bool:
        """Whether the message an edit names was sent by the bot to that chat."""
        with self._cond:
            msg = self._messages.get(int(params.get("message_id", "0") or 0))
        return msg is not None and str(msg["chat"]["id"]) == params.get("chat_id")

    def _record(self, call: Call) -> None:
        with self._cond:
            self.calls.append(call)
            self._cond.notify_all()

    def _get_updates(self, params: dict[str, str]) -> list[dict[str, Any]]:
        offset = int(params.get("offset", "0") or 0)
        self.poll_offsets.append(offset)
        deadline = time.monotonic() + float(params.get("timeout", "0") or 0)
        with self._cond:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
            while not self._updates and not self._stopping and time.monotonic() < deadline:
                self._cond.wait(deadline - time.monotonic())
            return list(self._updates)

    def _sent(self, params: dict[str, str], **extra: Any) -> dict[str, Any]:
        chat_id = int(params["chat_id"])
        msg: dict[str, Any] = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": {"id": chat_id, "type": "private" if chat_id > 0 else "supergroup"},
            "from": {"id": BOT_ID, "is_bot": True, "first_name": "Sutro", "username": BOT_USERNAME},
        }
        if params.get("message_thread_id"):
            msg.update(message_thread_id=int(params["message_thread_id"]), is_topic_message=True)
        msg.update(extra)
        return msg

    def _answer(self, method: str, params: dict[str, str], files: dict[str, tuple[str, bytes]]) -> Any:
        if method == "getMe":
            return {
                "id": BOT_ID,
                "is_bot": True,
                "first_name": "Sutro",
                "username": BOT_USERNAME,
                "can_join_groups": True,
                "can_read_all_group_messages": self.can_read_all_group_messages,
                "supports_inline_queries": False,
            }
        if method == "sendMessage":
            msg = self._sent(params, text=params.get("text", ""))
            if params.get("reply_markup"):
                msg["reply_markup"] = json.loads(params["reply_markup"])
            with self._cond:
                self._messages[msg["message_id"]] = msg
            return msg
        if method == "editMessageText":  # the message as it now reads (its chat and topic kept)
            with self._cond:
                msg = dict(self._messages[int(params["message_id"])])
                msg.update(text=params.get("text", ""), edit_date=int(time.time()))
                msg.pop("reply_markup", None)
                if params.get("reply_markup"):
                    msg["reply_markup"] = json.loads(params["reply_markup"])
                self._messages[msg["message_id"]] = msg
            return msg
        if method in ("sendDocument", "sendPhoto"):
            field_name = "document" if method == "sendDocument" else "photo"
            name, content = files.get(field_name, ("", b""))
            file_id = self.add_file(content)
            if method == "sendPhoto":
                return self._sent(
                    params,
                    photo=[{"file_id": file_id, "file_unique_id": file_id + "u", "width": 640, "height": 480}],
                )
            return self._sent(params, document={"file_id": file_id, "file_unique_id": file_id + "u", "file_name": name})
        if method == "getFile":
            file_id = params["file_id"]
            return {
                "file_id": file_id,
                "file_unique_id": file_id + "u",
                "file_size": len(self._files[file_id]),
                "file_path": f"documents/{file_id}",
            }
        return True
