"""The chat outbox's storage side: replies Telegram would not take for a long while, kept in the database
(storage/chat_messages.py) and read back oldest first per forum topic. Every call runs off the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from storage import chat_messages as stored
from storage.chat_messages import Topic
from storage.database import SessionFactory
from storage.tables import ChatMessage

if TYPE_CHECKING:
    from sqlmodel import Session

    from bot.telegram_app.chat_outbox import Outgoing

T = TypeVar("T")


class StoredReplies:
    """Store, list and settle waiting replies through ``sessions`` (opened on first use)."""

    def __init__(self, sessions: Callable[[], SessionFactory]) -> None:
        self._sessions = sessions

    async def topics(self) -> list[Topic]:
        """Topics with replies waiting (from this run or an earlier one)."""
        return await asyncio.to_thread(self._in_session, lambda s: stored.waiting_topics(s))

    async def store(self, items: list[Outgoing], error: str) -> list[int | None]:
        """Commit ``items`` in order; their row ids (None for a job's result that was put into its waiting,
        stored acknowledgement instead)."""

        def work(session: Session) -> list[int | None]:
            rows: list[int | None] = []
            acks: dict[int, int] = {}  # id(job) -> row of its acknowledgement stored in this batch
            for item in items:
                rows.append(self._store_one(session, item, error, acks))
                if rows[-1] is not None and item.job is not None and item is item.job.opening:
                    acks[id(item.job)] = rows[-1]  # type: ignore[assignment]
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
    def _store_one(session: Session, item: Outgoing, error: str, acks: dict[int, int]) -> int | None:
        job = item.job
        buttons = [[b.label, b.data] for b in item.buttons]
        ack_row = None if job is None else job.stored_row if job.stored_row is not None else acks.get(id(job))
        if (
            item.kind == "edit"
            and job is not None
            and job.message_id is None
            and ack_row is not None
            and stored.replace_pending_text(session, row_id=ack_row, text=item.text, buttons=buttons)
        ):
            return None  # the stored acknowledgement now carries the result
        target = item.message_id if item.message_id is not None else (job.message_id if job else None)
        kind = "text" if item.kind == "edit" and target is None else item.kind
        row = stored.store_message(
            session,
            topic=item.topic,
            kind=kind,
            text=item.text,
            reply_to=item.reply_to,
            message_id=target if kind == "edit" else None,
            buttons=buttons,
            file_name=item.file.name if item.file else None,
            content=item.file.content if item.file else None,
            error=error,
        )
        return row.id
