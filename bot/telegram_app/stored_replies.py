"""The chat outbox's storage side: replies Telegram would not take for a long while, kept in the database
(storage/chat_messages.py) and read back oldest first per forum topic. Every call runs off the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from storage import chat_messages as stored
from storage.chat_messages import Topic
from storage.database import SessionFactory
from storage.tables import ChatMessage

if TYPE_CHECKING:
    from sqlmodel import Session

T = TypeVar("T")


@dataclass(frozen=True)
class ToStore:
    """One waiting reply as it is stored. kind: ``text``, ``edit`` (of ``message_id``), ``photo``, ``document``.

    job: a key naming the job whose message this is (None for other replies); opens_job: it is that job's
    acknowledgement; ack_row: the row holding the job's acknowledgement, when stored earlier and not yet sent — a
    result then replaces that row's text instead of becoming a second message.
    """

    topic: Topic
    kind: str
    text: str = ""
    reply_to: int | None = None
    message_id: int | None = None
    buttons: list[list[str]] = field(default_factory=list)
    file_name: str | None = None
    content: bytes | None = None
    job: int | None = None
    opens_job: bool = False
    ack_row: int | None = None


class StoredReplies:
    """Store, list and settle waiting replies through ``sessions`` (opened on first use)."""

    def __init__(self, sessions: Callable[[], SessionFactory]) -> None:
        self._sessions = sessions

    async def topics(self) -> list[Topic]:
        """Topics with replies waiting (from this run or an earlier one)."""
        return await asyncio.to_thread(self._in_session, lambda s: stored.waiting_topics(s))

    async def store(self, items: list[ToStore], error: str) -> list[int | None]:
        """Commit ``items`` in order; their row ids (None for a job's result that was put into its waiting,
        stored acknowledgement instead)."""

        def work(session: Session) -> list[int | None]:
            rows: list[int | None] = []
            acks: dict[int, int] = {}  # job -> row of its acknowledgement stored in this batch
            for item in items:
                row = self._store_one(session, item, error, acks)
                rows.append(row)
                if row is not None and item.job is not None and item.opens_job:
                    acks[item.job] = row
            return rows

        return await asyncio.to_thread(self._in_session, work)

    async def oldest(self, topic: Topic) -> ChatMessage | None:
        return await asyncio.to_thread(self._in_session, lambda s: stored.oldest_pending(s, topic=topic))

    async def sent(self, row_id: int, message_id: int | None) -> None:
        await asyncio.to_thread(
            self._in_session, lambda s: stored.mark_sent(s, row_id=row_id, sent_message_id=message_id)
        )

    async def failed(self, row_id: int, error: str) -> None:
        await asyncio.to_thread(self._in_session, lambda s: stored.count_failure(s, row_id=row_id, error=error))

    def _in_session(self, work: Callable[[Session], T]) -> T:
        with self._sessions()() as session:
            return work(session)

    @staticmethod
    def _store_one(session: Session, item: ToStore, error: str, acks: dict[int, int]) -> int | None:
        ack_row = item.ack_row if item.ack_row is not None else acks.get(item.job) if item.job is not None else None
        if (
            item.kind == "edit"
            and item.message_id is None
            and ack_row is not None
            and stored.replace_pending_text(session, row_id=ack_row, text=item.text, buttons=item.buttons)
        ):
            return None  # the stored acknowledgement now carries the result
        kind = "text" if item.kind == "edit" and item.message_id is None else item.kind
        row = stored.store_message(
            session,
            topic=item.topic,
            kind=kind,
            text=item.text,
            reply_to=item.reply_to,
            message_id=item.message_id if kind == "edit" else None,
            buttons=item.buttons,
            file_name=item.file_name,
            content=item.content,
            error=error,
        )
        return row.id
