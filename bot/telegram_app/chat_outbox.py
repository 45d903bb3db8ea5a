"""The chat outbox: every message and edit the bot sends waits its turn here, paced to Telegram's limits.

- **Order.** One sender task per chat paces its sends with :class:`~bot.telegram_app.send_rate.SendRate`; a 429
  holds the chat for ``retry_after`` and the same item goes again — nothing is skipped. When more waits than the
  chat's minute allows, what a member is waiting for goes first (:class:`Rank`): computed results, then direct
  answers (``/help``, a refusal, a page), then acknowledgements of queued jobs, then attachments (charts, files),
  each rank in the order handed in (a result by when it was computed). So a burst of acknowledgements and refusals
  never holds up a finished result, and one member's chart photos never hold up another member's text answer.
- **One message per job** (:class:`JobMessage`): the acknowledgement, its progress edits and the final result are
  one message. A result that arrives while the acknowledgement still waits is sent in its place (one send, no
  edit); progress keeps only its latest line.
- **Pressure.** Progress edits are the first thing dropped: one goes out only when nothing else waits for the
  chat and more than three quarters of the group's minute budget is left (answers that come later find it
  there). The final result is never dropped.
- **Outages.** An item that keeps failing for longer than ``patience_s`` is stored (storage/chat_messages.py)
  with everything behind it in its topic; the topic is then sent from storage, oldest first, until it is empty,
  and replies stored by an earlier run of the bot go out when it starts again.

Telegram-free: the Bot API calls are the :class:`Transport`'s (delivery.py); its failures arrive as the
exceptions below.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from bot.incidents import report_incident
from bot.reply import Button, OutFile
from bot.telegram_app.send_rate import Pace, SendRate
from bot.telegram_app.stored_replies import StoredReplies, ToStore
from storage.chat_messages import Topic
from storage.database import SessionFactory
from storage.errors import StorageError

log = logging.getLogger("sutro.telegram")

PATIENCE_S = 120.0
"""How long an item may keep failing (429s, network errors) before it is stored and sent when possible."""
STORED_RETRY_S = 30.0
"""How long a topic sent from storage waits after a failed try."""
MAX_BACKOFF_S = 30.0


class SendLater(Exception):
    """Not delivered, try again: Telegram's 429 (``retry_after_s`` given) or a network failure (None)."""

    def __init__(self, reason: str, retry_after_s: float | None = None) -> None:
        super().__init__(reason)
        self.retry_after_s = retry_after_s


class TargetGone(Exception):
    """A progress edit whose message no longer exists (deleted) or can no longer be edited. (A final edit in
    that case is sent as a new message by the transport instead.)"""


class Refused(Exception):
    """Telegram refused the item for good (a bad request, the bot removed from the chat)."""


class Rank(enum.IntEnum):
    """Which waiting item the chat's sender takes first (lowest rank first; within a rank, the oldest)."""

    RESULT = 0
    """A job's result: its final edit, or its acknowledgement that still waits and now carries the result."""
    ANSWER = 1
    """A direct answer: a read-only command's reply, a refusal, a usage line, a redrawn page."""
    ACKNOWLEDGEMENT = 2
    """"queued as job 12, position 3": the member already knows the bot heard them once anything is sent."""
    ATTACHMENT = 3
    """A chart or a file following a reply's text."""


@dataclass(eq=False)
class Outgoing:
    """One send or edit waiting for its turn. kind: ``text``, ``edit``, ``photo`` or ``document``."""

    topic: Topic
    kind: str
    text: str = ""
    reply_to: int | None = None
    buttons: list[Button] = field(default_factory=list)
    file: OutFile | None = None
    message_id: int | None = None
    job: JobMessage | None = None
    durable: bool = True
    row_id: int | None = None
    failing_since: float | None = None
    attempts: int = 0
    progress: bool = False
    done: asyncio.Future[int | None] = field(default_factory=lambda: asyncio.get_running_loop().create_future())
    seq: int = 0

    @property
    def rank(self) -> Rank:
        """How urgent the item is now (an acknowledgement becomes a result when its job finishes before it is sent)."""
        if self.kind in ("photo", "document"):
            return Rank.ATTACHMENT
        if self.job is not None and (self.kind == "edit" or self.job.finished):
            return Rank.RESULT
        if self.job is not None:
            return Rank.ACKNOWLEDGEMENT
        return Rank.ANSWER

    def settle(self, message_id: int | None) -> None:
        if not self.done.done():
            self.done.set_result(message_id)


class Transport(Protocol):
    """Sends one item; returns the id of the message sent or edited; raises SendLater, TargetGone or Refused."""

    async def transmit(self, item: Outgoing) -> int | None: ...


@dataclass
class Tally:
    """What the outbox did, for the log, ``/status`` and the load bench."""

    sends: int = 0
    edits: int = 0
    progress_edits: int = 0
    progress_dropped: int = 0
    coalesced: int = 0
    rate_limited: int = 0
    stored: int = 0
    sent_from_storage: int = 0
    result_waits: list[float] = field(default_factory=list)
    """Seconds (pace clock) from each job's result being computed to its reaching the chat, in delivery order."""


class JobMessage:
    """The one message of a queued job: opened with the acknowledgement, edited with progress (droppable) and
    finally with the result (never dropped)."""

    def __init__(self, outbox: ChatOutbox, topic: Topic, reply_to: int | None) -> None:
        self.outbox = outbox
        self.topic = topic
        self.reply_to = reply_to
        self.message_id: int | None = None
        self.opening: Outgoing | None = None
        self.in_flight = False
        self.stored_row: int | None = None
        self.shown = ""
        self.progress: str | None = None
        self.progress_at = float("-inf")
        self.finished = False
        self.finished_at: float | None = None

    def report(self, text: str) -> None:
        """The latest progress text (HTML); replaces any that has not gone out yet."""
        if not self.finished and text != self.shown:
            if self.progress is not None:
                self.outbox.tally.progress_dropped += 1
            self.progress = text
            self.outbox.wake(self.topic.chat_id)

    def finish(self, text: str, buttons: list[Button] | None = None) -> asyncio.Future[int | None]:
        """Replace the message with the final ``text`` (HTML); resolves with the message id once delivered
        (None when it was stored for later)."""
        self.finished = True
        self.finished_at = self.outbox.pace.now()
        if self.progress is not None:
            self.outbox.tally.progress_dropped += 1
            self.progress = None
        self.outbox.forget(self)
        opening = self.opening
        if opening is not None and not self.in_flight and opening.row_id is None and not opening.done.done():
            opening.text, opening.buttons = text, list(buttons or [])  # never sent: send the result instead
            opening.seq = self.outbox.next_seq()  # a result is ordered by when it was computed
            self.outbox.tally.coalesced += 1
            self.outbox.wake(self.topic.chat_id)
            return opening.done
        edit = Outgoing(self.topic, "edit", text, reply_to=self.reply_to, buttons=list(buttons or []), job=self)
        return self.outbox.put(edit)


@dataclass
class _Chat:
    topics: dict[Topic, deque[Outgoing]] = field(default_factory=dict)
    stored: dict[Topic, float] = field(default_factory=dict)  # topic sent from storage -> next try (pace time)
    jobs: set[JobMessage] = field(default_factory=set)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    turn: int = 0


class ChatOutbox:
    """The bot's outbox. ``put`` an item (or ``open_job`` a job message); a sender task per chat delivers."""

    def __init__(
        self,
        transport: Transport,
        *,
        pace: Pace | None = None,
        rate: SendRate | None = None,
        sessions: Callable[[], SessionFactory] | None = None,
        progress_every_s: float = 3.0,
        patience_s: float = PATIENCE_S,
    ) -> None:
        self.transport = transport
        self.pace = pace or Pace()
        self.rate = rate or SendRate()
        self.store = StoredReplies(sessions) if sessions is not None else None
        self.progress_every_s = progress_every_s
        self.patience_s = patience_s
        self.tally = Tally()
        self._chats: dict[int, _Chat] = {}
        self._rows: dict[int, JobMessage] = {}
        self._closed = False
        self._seq = 0

    # -- lifecycle ------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Pick up replies stored by an earlier run (sent before anything new in their topics)."""
        if self.store is None:
            return
        try:
            topics = await self.store.topics()
        except Exception as err:  # noqa: BLE001 - the bot must start even when the database cannot be read
            log.warning("stored chat replies unreadable at start (%s)", _one_line(err))
            return
        for topic in topics:
            self._chat(topic.chat_id).stored[topic] = self.pace.now()
            self.wake(topic.chat_id)

    async def close(self, grace_s: float = 5.0) -> None:
        """Deliver what is queued for up to ``grace_s`` (wall seconds), then store what is left and stop."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace_s
        while any(q for chat in self._chats.values() for q in chat.topics.values()) and loop.time() < deadline:
            await asyncio.sleep(0.05)
        self._closed = True
        for chat_id, chat in self._chats.items():
            chat.wake.set()
            if chat.task is not None:
                chat.task.cancel()
                await asyncio.gather(chat.task, return_exceptions=True)
            for topic, queue in chat.topics.items():
                if any(item.durable for item in queue):
                    await self._store_topic(chat_id, chat, topic, "the bot stopped before it was sent")
                for item in queue:
                    item.settle(None)
                queue.clear()

    # -- what the handlers use --------------------------------------------------------------------------
    def put(self, item: Outgoing) -> asyncio.Future[int | None]:
        """Queue ``item`` behind everything already waiting in its topic."""
        if self._closed:
            item.settle(None)
            return item.done
        chat = self._chat(item.topic.chat_id)
        item.seq = self.next_seq()
        chat.topics.setdefault(item.topic, deque()).append(item)
        self.wake(item.topic.chat_id)
        return item.done

    def open_job(self, topic: Topic, reply_to: int | None, text: str) -> JobMessage:
        """Queue a job's acknowledgement; the returned JobMessage takes its progress and its result."""
        job = JobMessage(self, topic, reply_to)
        job.opening = Outgoing(topic, "text", text, reply_to=reply_to, job=job)
        self._chat(topic.chat_id).jobs.add(job)
        self.put(job.opening)
        return job

    def next_seq(self) -> int:
        """The next hand-in number: within a rank, items leave in this order."""
        self._seq += 1
        return self._seq

    def forget(self, job: JobMessage) -> None:
        self._chat(job.topic.chat_id).jobs.discard(job)

    def wake(self, chat_id: int) -> None:
        self._chat(chat_id).wake.set()

    def waiting(self) -> int:
        """Items queued in memory (not counting stored ones)."""
        return sum(len(q) for chat in self._chats.values() for q in chat.topics.values())

    # -- the sender task of one chat --------------------------------------------------------------------
    def _chat(self, chat_id: int) -> _Chat:
        chat = self._chats.get(chat_id)
        if chat is None:
            chat = self._chats[chat_id] = _Chat()
        if chat.task is None and not self._closed:
            chat.task = asyncio.create_task(self._serve(chat_id, chat), name=f"chat-outbox-{chat_id}")
        return chat

    async def _serve(self, chat_id: int, chat: _Chat) -> None:
        while not self._closed:
            now = self.pace.now()
            item, idle_s = await self._next(chat_id, chat, now)
            if item is None:
                chat.wake.clear()
                await self._wait(chat.wake, idle_s)
                continue
            wait = self.rate.wait_s(chat_id, now)
            if wait > 0:
                chat.wake.clear()
                await self._wait(chat.wake, wait)
                continue
            try:
                await self._deliver(chat_id, chat, item)
            except Exception as exc:  # noqa: BLE001 - the sender task must outlive any one item
                report_incident(exc, where=f"the chat outbox of {chat_id}")
                self._drop(chat, item)

    async def _wait(self, event: asyncio.Event, seconds: float | None) -> None:
        """Until ``event`` or ``seconds`` of pace time pass (None: until the event)."""
        if seconds is None:
            await event.wait()
            return
        sleeper = asyncio.ensure_future(self.pace.sleep(seconds))
        waiter = asyncio.ensure_future(event.wait())
        await asyncio.wait([sleeper, waiter], return_when=asyncio.FIRST_COMPLETED)
        for task in (sleeper, waiter):
            task.cancel()

    async def _next(self, chat_id: int, chat: _Chat, now: float) -> tuple[Outgoing | None, float | None]:
        """The item to send next, or None and how long to idle (None: until woken).

        Replies stored through an outage go first, oldest first, topics taking turns; then the waiting item of the
        lowest :class:`Rank`, the oldest of that rank (across the chat's topics)."""
        idle: float | None = None
        stored = list(chat.stored)
        for i in range(len(stored)):
            topic = stored[(chat.turn + i) % len(stored)]
            item, retry_in = await self._stored_head(chat_id, chat, topic, now)
            if retry_in is not None:
                idle = retry_in if idle is None else min(idle, retry_in)
            if item is not None:
                chat.turn = (chat.turn + i + 1) % len(stored)
                return item, None
        waiting = [item for topic, queue in chat.topics.items() if topic not in chat.stored for item in queue]
        if waiting:
            return min(waiting, key=lambda item: (item.rank, item.seq)), None
        progress, due_in = self._progress_edit(chat_id, chat, now)
        if due_in is not None:
            idle = due_in if idle is None else min(idle, due_in)
        return progress, idle

    def _progress_edit(self, chat_id: int, chat: _Chat, now: float) -> tuple[Outgoing | None, float | None]:
        """A progress edit when the chat has room for it (none while answers or stored replies wait)."""
        pending = [j for j in chat.jobs if j.progress is not None and j.message_id is not None]
        if not pending or chat.stored:
            return None, None
        if self.rate.headroom(chat_id, now) <= self.rate.limits.group_per_minute * 3 // 4:
            return None, self.progress_every_s  # three quarters of a group's minute are kept for answers
        job = min(pending, key=lambda j: j.progress_at)
        due_in = job.progress_at + self.progress_every_s - now
        if due_in > 0:
            return None, due_in
        assert job.progress is not None
        text, job.progress = job.progress, None
        job.progress_at = now
        return Outgoing(job.topic, "edit", text, message_id=job.message_id, job=job, durable=False, progress=True), None

    async def _deliver(self, chat_id: int, chat: _Chat, item: Outgoing) -> None:
        job = item.job
        if item.kind == "edit" and item.message_id is None and job is not None:
            item.message_id = job.message_id
        if item.kind == "edit" and item.message_id is None:
            item.kind = "text"  # the acknowledgement never reached the chat: send the result as a new message
        if job is not None and item is job.opening:
            job.in_flight = True
        now = self.pace.now()
        try:
            message_id = await self.transport.transmit(item)
        except SendLater as err:
            now = self.pace.now()  # retry_after counts from the answer, not from when the call began
            self._failed(chat_id, item, now, err)
            if item.durable and item.row_id is None and now - (item.failing_since or now) >= self.patience_s:
                await self._store_topic(chat_id, chat, item.topic, str(err))
            elif item.row_id is not None:
                await self._count_stored_failure(chat, item, str(err))
            elif not item.durable and now - (item.failing_since or now) >= self.patience_s:
                log.error("gave up sending to chat %s after %.0f s: %s", chat_id, now - (item.failing_since or 0), err)
                self._drop(chat, item)
            if item.progress:
                self._drop(chat, item)
            return
        except TargetGone:  # a progress edit of a message that was deleted (a final is sent anew by the transport)
            self._drop(chat, item)
            return
        except Refused as err:
            report_incident(err, where=f"sending {item.kind} to chat {chat_id} (refused)")
            if item.row_id is not None:
                await self._settle_row(chat, item, None)
            self._drop(chat, item)
            return
        finally:
            if job is not None and item is job.opening:
                job.in_flight = False
        self.rate.record(chat_id, self.pace.now())
        self._count(item)
        if job is not None and job.finished_at is not None and item.rank is Rank.RESULT and not item.progress:
            self.tally.result_waits.append(self.pace.now() - job.finished_at)
        if job is not None and item.kind in ("text", "edit"):
            job.message_id = message_id if message_id is not None else job.message_id
            job.shown = item.text
        if item.row_id is not None:
            await self._settle_row(chat, item, message_id)
        self._drop(chat, item, message_id)

    def _failed(self, chat_id: int, item: Outgoing, now: float, err: SendLater) -> None:
        item.attempts += 1
        item.failing_since = item.failing_since if item.failing_since is not None else now
        if err.retry_after_s is not None:
            self.tally.rate_limited += 1
            wait = err.retry_after_s
            log.warning("Telegram rate limit in chat %s: waiting %.1f s", chat_id, wait)
        else:
            wait = min(MAX_BACKOFF_S, 0.5 * 2 ** (item.attempts - 1))
            log.warning("Telegram unreachable for chat %s (%s): retry %d in %.1f s", chat_id, err, item.attempts, wait)
        self.rate.hold(chat_id, now + wait)

    def _count(self, item: Outgoing) -> None:
        if item.progress:
            self.tally.progress_edits += 1
        elif item.kind == "edit":
            self.tally.edits += 1
        else:
            self.tally.sends += 1
        if item.row_id is not None:
            self.tally.sent_from_storage += 1

    def _drop(self, chat: _Chat, item: Outgoing, message_id: int | None = None) -> None:
        """Take ``item`` off its queue (delivered as ``message_id``, or given up: None)."""
        queue = chat.topics.get(item.topic)
        if queue and queue[0] is item:
            queue.popleft()
        elif queue and item in queue:
            queue.remove(item)
        item.settle(message_id)

    # -- storage ----------------------------------------------------------------------------------------
    async def _store_topic(self, chat_id: int, chat: _Chat, topic: Topic, error: str) -> None:
        """Move the topic's durable items to storage, in order; later ones follow them there."""
        if self.store is None:
            return  # nowhere to keep them: they stay queued and are retried
        queue = chat.topics.get(topic, deque())
        items = [item for item in queue if item.durable and not item.progress]
        try:
            rows = await self.store.store([_to_store(item) for item in items], error)
        except Exception as err:  # noqa: BLE001 - the database is down: keep them queued rather than lose them
            log.warning("could not store waiting replies (%s); they stay queued", _one_line(err))
            return
        for item, row_id in zip(items, rows, strict=True):
            queue.remove(item)
            if row_id is not None and item.job is not None and item is item.job.opening:
                item.job.stored_row = row_id
                self._rows[row_id] = item.job
            item.settle(None)
        self.tally.stored += sum(r is not None for r in rows)
        if topic not in chat.stored:
            log.warning(
                "chat %s topic %s: Telegram refused replies for a long time; stored, sent when possible",
                chat_id,
                topic.thread_id,
            )
        chat.stored[topic] = self.pace.now() + STORED_RETRY_S

    async def _stored_head(
        self, chat_id: int, chat: _Chat, topic: Topic, now: float
    ) -> tuple[Outgoing | None, float | None]:
        """The topic's oldest stored reply when its retry time has come (new items are stored behind it first)."""
        queue = chat.topics.get(topic)
        if queue and any(item.durable for item in queue):
            await self._store_topic(chat_id, chat, topic, "waiting behind stored replies")
        due = chat.stored[topic]
        if due > now:
            return None, due - now
        assert self.store is not None
        try:
            row = await self.store.oldest(topic)
        except Exception as err:  # noqa: BLE001 - the database is down: try again later
            log.warning("stored chat replies unreadable (%s)", _one_line(err))
            chat.stored[topic] = now + STORED_RETRY_S
            return None, STORED_RETRY_S
        if row is None:
            del chat.stored[topic]  # all caught up: back to sending from memory
            queue = chat.topics.get(topic)
            return (queue[0] if queue else None), None
        job = self._rows.get(row.id) if row.id is not None else None
        file = None
        if row.kind in ("photo", "document"):
            file = OutFile(name=row.file_name or "file", content=row.content or b"")
        item = Outgoing(
            topic,
            row.kind,
            row.text,
            reply_to=row.reply_to,
            buttons=[Button(label, data) for label, data in row.buttons],
            file=file,
            message_id=row.message_id,
            row_id=row.id,
            job=job,
        )
        item.failing_since = now
        return item, None

    async def _settle_row(self, chat: _Chat, item: Outgoing, message_id: int | None) -> None:
        assert self.store is not None and item.row_id is not None
        await self.store.sent(item.row_id, message_id)
        job = self._rows.pop(item.row_id, None)
        if job is not None and message_id is not None:
            job.message_id = message_id
        chat.stored[item.topic] = self.pace.now()  # the next stored reply may go at once

    async def _count_stored_failure(self, chat: _Chat, item: Outgoing, error: str) -> None:
        assert self.store is not None and item.row_id is not None
        await self.store.failed(item.row_id, error)
        chat.stored[item.topic] = self.pace.now() + min(STORED_RETRY_S, max(1.0, item.attempts))


def _one_line(err: Exception) -> str:
    return err.one_line() if isinstance(err, StorageError) else f"{type(err).__name__}: {err}".splitlines()[0]


def _to_store(item: Outgoing) -> ToStore:
    """What is kept of ``item`` in the database (an edit names its message once the acknowledgement went out)."""
    job = item.job
    target = item.message_id if item.message_id is not None else (job.message_id if job else None)
    return ToStore(
        topic=item.topic,
        kind=item.kind,
        text=item.text,
        reply_to=item.reply_to,
        message_id=target if item.kind == "edit" else None,
        buttons=[[b.label, b.data] for b in item.buttons],
        file_name=item.file.name if item.file else None,
        content=item.file.content if item.file else None,
        job=id(job) if job is not None else None,
        opens_job=job is not None and item is job.opening,
        ack_row=job.stored_row if job is not None else None,
    )
