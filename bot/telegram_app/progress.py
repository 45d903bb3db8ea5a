"""A queued job's one message: the acknowledgement, edited with progress while the job runs, then replaced by the
result (a job costs one message, plus one per chart or file its result carries).

Progress lines go to the chat outbox, which keeps only the latest, spaces edits out and drops them first when the
chat is busy (chat_outbox.py); the result is never dropped. Progress reported before the acknowledgement is
queued is shown once it is.
"""

from __future__ import annotations

import html

from bot.reply import Reply
from bot.telegram_app.chat_outbox import JobMessage
from bot.telegram_app.delivery import Courier
from bot.telegram_app.render import MESSAGE_LIMIT, preview, render


class ProgressMessage:
    """The acknowledgement message of one job, kept up to date and finally replaced by the result."""

    def __init__(self, courier: Courier) -> None:
        self._courier = courier
        self._header = ""
        self._job: JobMessage | None = None
        self._early: str | None = None

    def open(self, header: str, line: str, tag: str = "") -> None:
        """Queue the acknowledgement (``header`` names the job, cut to a one-line preview; ``tag`` is its short
        name, ``job 7``, shown before its buttons when it shares a message with the member's other jobs)."""
        self._header = preview(header)
        self._job = self._courier.open_job(self._compose(line), tag=tag)
        if self._early is not None:
            self._job.report(self._compose(self._early))

    def report(self, line: str, fraction: float | None = None) -> None:
        """Called for every progress line (from the event loop); cheap."""
        if fraction is not None:
            line = f"{line} ({100 * fraction:.0f}%)"
        if self._job is None:
            self._early = line
        else:
            self._job.report(self._compose(line))

    async def close(self, line: str, reply: Reply, note: str = "") -> None:
        """Replace the message with the status ``line``, the result and ``note``; then send the result's charts
        and files as replies (queued behind it, in order)."""
        head = self._compose(line)
        tail = f"\n\n{html.escape(note, quote=False)}" if note else ""
        out = render(reply, limit=MESSAGE_LIMIT - len(head) - len(tail) - 2)
        text = f"{head}\n\n{out.html}{tail}"
        if self._job is None:
            await self._courier.send_text(text, buttons=out.buttons)
        else:
            self._job.finish(text, out.buttons)
        for photo in out.photos:
            await self._courier.send_file(photo, photo=True)
        for document in out.documents:
            await self._courier.send_file(document, photo=False)

    def _compose(self, line: str) -> str:
        return f"{html.escape(self._header, quote=False)}\n{html.escape(line, quote=False)}"
