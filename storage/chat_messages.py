"""Keyword-only queries for chat replies kept through an outage: store, list what waits per topic, mark sent.

A reply the Telegram edge could not deliver for a long while is committed here; it is sent later strictly oldest
first within its forum topic (``chat_id``, ``thread_id``): :func:`oldest_pending` gives a topic's head, and a
topic whose head is waiting holds back everything after it, so answers never overtake each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_
from sqlmodel import Session, col, select

from storage.tables import CHAT_PENDING, CHAT_SENT, ChatMessage
from storage.timestamps import utcnow


@dataclass(frozen=True)
class Topic:
    """Where replies go: a chat and, in a forum group, a topic (None: the chat's main thread)."""

    chat_id: int
    thread_id: int | None


def store_message(
    session: Session,
    *,
    topic: Topic,
    kind: str,
    text: str = "",
    reply_to: int | None = None,
    message_id: int | None = None,
    buttons: list[list[str]] | None = None,
    file_name: str | None = None,
    content: bytes | None = None,
    error: str | None = None,
) -> ChatMessage:
    """Commit one waiting reply and return it (its id orders it within the topic)."""
    row = ChatMessage(
        chat_id=topic.chat_id,
        thread_id=topic.thread_id,
        reply_to=reply_to,
        kind=kind,
        text=text,
        message_id=message_id,
        buttons=list(buttons or []),
        file_name=file_name,
        content=content,
        last_error=error[:2000] if error else None,
    )
    session.add(row)
    session.commit()
    session.refresh(row)
    return row


def _in_topic(topic: Topic) -> Any:
    thread = col(ChatMessage.thread_id)
    same_thread = thread.is_(None) if topic.thread_id is None else thread == topic.thread_id
    return and_(col(ChatMessage.chat_id) == topic.chat_id, same_thread)


def oldest_pending(session: Session, *, topic: Topic) -> ChatMessage | None:
    """The topic's oldest waiting reply, or None when nothing waits there."""
    query = select(ChatMessage).where(_in_topic(topic), ChatMessage.state == CHAT_PENDING)
    return session.exec(query.order_by(col(ChatMessage.id)).limit(1)).first()


def waiting_topics(session: Session) -> list[Topic]:
    """Every topic with a waiting reply, in the order of their oldest reply."""
    rows = session.exec(
        select(ChatMessage.chat_id, ChatMessage.thread_id)
        .where(ChatMessage.state == CHAT_PENDING)
        .order_by(col(ChatMessage.id))
    ).all()
    return list(dict.fromkeys(Topic(chat_id, thread_id) for chat_id, thread_id in rows))


def replace_pending_text(session: Session, *, row_id: int, text: str, buttons: list[list[str]]) -> bool:
    """Put ``text`` in place of waiting text reply ``row_id`` (a job's acknowledgement replaced by its result);
    False when it was sent meanwhile (commit)."""
    row = session.get(ChatMessage, row_id)
    if row is None or row.state != CHAT_PENDING or row.kind != "text":
        return False
    row.text = text
    row.buttons = list(buttons)
    session.commit()
    return True


def mark_sent(session: Session, *, row_id: int, sent_message_id: int | None) -> None:
    """Record that reply ``row_id`` reached the chat (commit)."""
    row = session.get(ChatMessage, row_id)
    assert row is not None, row_id
    row.state = CHAT_SENT
    row.sent_at = utcnow()
    row.sent_message_id = sent_message_id
    row.content = None  # the file went out; keep the row small
    session.commit()


def count_failure(session: Session, *, row_id: int, error: str) -> None:
    """Count one more failed try of reply ``row_id`` (commit)."""
    row = session.get(ChatMessage, row_id)
    assert row is not None, row_id
    row.attempts += 1
    row.last_error = error[:2000]
    session.commit()


def pending_count(session: Session) -> int:
    """How many replies wait to be sent."""
    return len(session.exec(select(ChatMessage.id).where(ChatMessage.state == CHAT_PENDING)).all())
