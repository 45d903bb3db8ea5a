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
- **One member, one message** (:class:`~bot.telegram_app.job_sheet.Sheet`): when several of one member's job
  messages (acknowledgements, results) wait in a topic at once, they go out as one message, a part per job; the
  jobs' later progress and results edit that message. An older message of a job that moved to a later sheet is
  edited to point there, last of all (:attr:`Rank.POINTER`). So a member's burst of commands costs a few messages,
  not two per command, and each result reaches the chat within seconds of being computed.
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
import dataclasses
import enum
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from bot.incidents import report_incident
from bot.reply import Button, OutFile
from bot.telegram_app.job_sheet import Sheet, composed, pointer
from bot.telegram_app.render import MESSAGE_LIMIT, PAGE_PREFIX
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
    POINTER = 4
    """An older message of a job shown on a later sheet, edited to say so: sent only when nothing else waits and
    half the group's minute is left (job_sheet.py)."""


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
    sheet: Sheet | None = None
    """A pointer edit of this sheet (its text is composed when it is sent)."""
    pointer: bool = False
    alone: bool = False
    """Never gathered onto a sheet (Telegram refused the sheet it was on)."""

    @property
    def rank(self) -> Rank:
        """How urgent the item is now (an acknowledgement becomes a result when its job finishes before it is sent)."""
        if self.pointer:
            return Rank.POINTER
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
    sheets: int = 0
    """Messages (sends or edits) that carried several jobs' parts at once."""
    on_sheets: int = 0
    """Job parts delivered on those messages."""
    pointers: int = 0
    rate_limited: int = 0
    stored: int = 0
    sent_from_storage: int = 0
    result_waits: list[float] = field(default_factory=list)
    """Seconds (pace clock) from each job's result being computed to its reaching the chat, in delivery order."""
    results_computed: list[float] = field(default_factory=list)
    """When (pace clock) each of those results was computed, in the same order."""


class JobMessage:
    """The one message of a queued job: opened with the acknowledgement, edited with progress (droppable) and
    finally with the result (never dropped)."""

    def __init__(
        self, outbox: ChatOutbox, topic: Topic, reply_to: int | None, member: int | None = None, tag: str = ""
    ) -> None:
        self.outbox = outbox
        self.topic = topic
        self.reply_to = reply_to
        self.member = member
        """Who asked: one member's waiting job messages go out together (None: never gathered)."""
        self.tag = tag
        """The job's short name (``job 7``), put before its buttons on a sheet."""
        self.head = ""
        """The first line of the acknowledgement (the job's header), kept in a pointer."""
        self.sheet: Sheet | None = None
        self.order = 0
        self.message_id: int | None = None
        self.opening: Outgoing | None = None
        self.in_flight = False
        self.stored_row: int | None = None
        self.shown = ""
        self.progress: str | None = None
        self.progress_at = float("-inf")
        self.finished = False
        self.finished_at: float | None = None
        self.final: str | None = None

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
        self.final = text
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
        while self._waiting_answers() and loop.time() < deadline:
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

    def open_job(
        self, topic: Topic, reply_to: int | None, text: str, *, member: int | None = None, tag: str = ""
    ) -> JobMessage:
        """Queue a job's acknowledgement; the returned JobMessage takes its progress and its result. ``member``:
        who asked (their waiting job messages may share one message); ``tag``: the job's short name."""
        job = JobMessage(self, topic, reply_to, member, tag)
        job.head = text.split("\n", 1)[0]
        job.opening = Outgoing(topic, "text", text, reply_to=reply_to, job=job)
        self._chat(topic.chat_id).jobs.add(job)
        self.put(job.opening)
        job.order = job.opening.seq
        return job

    def next_seq(self) -> int:
        """The next hand-in number: within a rank, items leave in this order."""
        self._seq += 1
        return self._seq

    def forget(self, job: JobMessage) -> None:
        self._chat(job.topic.chat_id).jobs.discard(job)

    def wake(self, chat_id: int) -> None:
        self._chat(chat_id).wake.set()

    def _waiting_answers(self) -> bool:
        """Whether anything but pointer edits waits (those are stored at close: they need no grace)."""
        return any(not i.pointer for chat in self._chats.values() for q in chat.topics.values() for i in q)

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
                parts = self._gather(chat, item)
                if parts:
                    await self._deliver_sheet(chat_id, chat, parts, item)
                else:
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
        first = min(waiting, key=lambda item: (item.rank, item.seq), default=None)
        if first is not None and first.rank is not Rank.POINTER:
            return first, None
        progress, due_in = self._progress_edit(chat_id, chat, now)
        if due_in is not None:
            idle = due_in if idle is None else min(idle, due_in)
        if progress is None and first is not None:  # pointers: when the group's minute is at least half free
            if self.rate.headroom(chat_id, now) > self.rate.limits.group_per_minute // 2:
                return first, None
            idle = self.progress_every_s if idle is None else min(idle, self.progress_every_s)
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
        wire = on_wire(item)
        sheet = job.sheet if job is not None and wire is not item else None
        leaving = False
        if job is not None and sheet is not None and (len(wire.text) > MESSAGE_LIMIT or _pages(item)):
            # too long for the sheet, or a page that redraws its whole message: the job leaves the sheet
            if item.progress:
                self._drop(chat, item)
                return
            item.kind, item.message_id, item.reply_to = "text", None, job.reply_to
            wire, sheet, leaving = item, None, True
        if job is not None and item is job.opening:
            job.in_flight = True
        now = self.pace.now()
        try:
            message_id = await self.transport.transmit(wire)
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
        if job is not None and job.finished_at is not None and item.text == job.final and not item.progress:
            self.tally.result_waits.append(self.pace.now() - job.finished_at)
            self.tally.results_computed.append(job.finished_at)
        if job is not None and sheet is not None:  # the sheet shows the job's new part (a new message if it was gone)
            sheet.parts[job] = item.text
            if not item.progress:
                sheet.buttons[job] = list(item.buttons)
            self._moved_sheet(sheet, message_id if wire.kind == "text" else None)
        elif job is not None and leaving:  # sent as a message of its own: the sheet points to it
            self._leave_sheet(job)
        if job is not None and item.kind in ("text", "edit"):
            job.message_id = message_id if message_id is not None else job.message_id
            job.shown = item.text
        if item.row_id is not None:
            await self._settle_row(chat, item, message_id)
        self._drop(chat, item, message_id)

    # -- sheets: one member's waiting job messages as one message (job_sheet.py) -----------------------------
    def _gather(self, chat: _Chat, item: Outgoing) -> list[Outgoing]:
        """``item`` and the other job messages of its member waiting in its topic, in the order the jobs were
        queued, as many as fit one message; [] when there is only ``item``."""
        if not _gatherable(item):
            return []
        assert item.job is not None
        member = item.job.member
        mine = [
            o
            for o in chat.topics.get(item.topic, ())
            if o is not item and _gatherable(o) and o.job is not None and o.job.member == member
        ]
        out, size = [item], len(item.text)
        heads = {item.job.head}
        for other in sorted(mine, key=_job_order):
            assert other.job is not None
            if other.job.head in heads:  # the member's repeat joined to the same job: each asker's own answer
                continue
            if size + len(other.text) + 2 <= MESSAGE_LIMIT:
                out.append(other)
                heads.add(other.job.head)
                size += len(other.text) + 2
        return sorted(out, key=_job_order) if len(out) > 1 else []

    async def _deliver_sheet(self, chat_id: int, chat: _Chat, parts: list[Outgoing], chosen: Outgoing) -> None:
        """Send ``parts`` (one member's job messages) as one message: an edit of the sheet they are all on, or a
        new sheet replying to the member's latest command."""
        jobs = [o.job for o in parts if o.job is not None]
        old = jobs[0].sheet
        if old is not None and old.message_id is not None and all(j.sheet is old for j in jobs):
            target: Sheet | None = old
            updated = Sheet(old.topic, old.message_id, dict(old.parts), dict(old.buttons))
            for j, o in zip(jobs, parts, strict=True):
                updated.parts[j], updated.buttons[j] = o.text, list(o.buttons)
            text, buttons = updated.text(), updated.keyboard()
            carrier = Outgoing(chosen.topic, "edit", text, buttons=buttons, message_id=old.message_id)
        else:
            target = None
            text, buttons = composed([(j, o.text, list(o.buttons)) for j, o in zip(jobs, parts, strict=True)])
            latest = max((j.reply_to for j in jobs if j.reply_to is not None), default=None)
            carrier = Outgoing(chosen.topic, "text", text, reply_to=latest, buttons=buttons)
        carrier.failing_since, carrier.attempts = chosen.failing_since, chosen.attempts
        openings = [o for o in parts if o.job is not None and o is o.job.opening]
        for o in openings:
            if o.job is not None:
                o.job.in_flight = True
        try:
            message_id = await self.transport.transmit(carrier)
        except SendLater as err:
            now = self.pace.now()
            self._failed(chat_id, carrier, now, err)
            chosen.failing_since, chosen.attempts = carrier.failing_since, carrier.attempts
            if now - (chosen.failing_since or now) >= self.patience_s:
                await self._store_topic(chat_id, chat, chosen.topic, str(err))
            return
        except Refused as err:  # Telegram would not take the sheet: each part goes on its own
            report_incident(err, where=f"sending a sheet of {len(parts)} job messages to chat {chat_id} (refused)")
            for o in parts:
                o.alone = True
            return
        finally:
            for o in openings:
                if o.job is not None:
                    o.job.in_flight = False
        now = self.pace.now()
        self.rate.record(chat_id, now)
        self.tally.sheets += 1
        self.tally.on_sheets += len(parts)
        if carrier.kind == "edit":
            self.tally.edits += 1
        else:
            self.tally.sends += 1
        sheet = target if target is not None else Sheet(chosen.topic)
        for o in parts:
            job = o.job
            assert job is not None
            if job.sheet is not sheet:
                self._point_away(job)
            sheet.parts[job] = o.text
            sheet.buttons[job] = list(o.buttons)
            job.sheet, job.shown = sheet, o.text
            if job.finished_at is not None and o.text == job.final:
                self.tally.result_waits.append(now - job.finished_at)
                self.tally.results_computed.append(job.finished_at)
            self._drop(chat, o, message_id)
        self._moved_sheet(sheet, message_id if carrier.kind == "text" else None)

    def _moved_sheet(self, sheet: Sheet, message_id: int | None) -> None:
        """The sheet is now the message ``message_id`` (None: unchanged); its jobs follow it."""
        if message_id is not None:
            sheet.message_id = message_id
        for job in sheet.parts:
            if isinstance(job, JobMessage) and job.sheet is sheet:
                job.message_id = sheet.message_id

    def _point_away(self, job: JobMessage) -> None:
        """``job`` moves to a newer sheet: the message that showed it until now is edited to say so, last of all."""
        old = job.sheet
        if old is not None:
            old.parts[job] = pointer(job)
            old.buttons.pop(job, None)
            self._queue_pointer(job.topic, old, None)
        elif job.message_id is not None:
            self._queue_pointer(job.topic, None, Outgoing(job.topic, "edit", pointer(job), message_id=job.message_id))

    def _leave_sheet(self, job: JobMessage) -> None:
        """``job``'s part outgrew its sheet and was sent on its own: the sheet points to it."""
        old = job.sheet
        assert old is not None
        job.sheet = None
        old.parts[job] = pointer(job)
        old.buttons.pop(job, None)
        self._queue_pointer(job.topic, old, None)

    def _queue_pointer(self, topic: Topic, sheet: Sheet | None, edit: Outgoing | None) -> None:
        if sheet is not None:
            queue = self._chat(topic.chat_id).topics.get(topic, deque())
            if any(o.pointer and o.sheet is sheet for o in queue):
                return  # one pointer edit of a sheet shows all its moved jobs (its text is composed when sent)
            edit = Outgoing(topic, "edit", "", message_id=sheet.message_id, sheet=sheet)
        assert edit is not None
        edit.pointer = True
        self.tally.pointers += 1
        self.put(edit)

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
            rows = await self.store.store([_stored_form(item) for item in items], error)
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


def _gatherable(item: Outgoing) -> bool:
    """A member's job message that may share a sheet: an acknowledgement or a result, not yet on its way."""
    job = item.job
    return (
        job is not None
        and job.member is not None
        and item.kind in ("text", "edit")
        and not (item.progress or item.pointer or item.alone or item.done.done() or _pages(item))
        and item.row_id is None
        and job.stored_row is None
        and not (item is job.opening and job.in_flight)
    )


def _pages(item: Outgoing) -> bool:
    """Whether ``item`` carries page buttons: a page press redraws the whole message, so it never shares one."""
    return any(b.data.startswith(PAGE_PREFIX) for b in item.buttons)


def _job_order(item: Outgoing) -> int:
    return item.job.order if item.job is not None else item.seq


def on_wire(item: Outgoing) -> Outgoing:
    """What goes to Telegram for ``item``: a pointer edit of a sheet, or an edit of a job shown on a sheet, is an
    edit of the whole sheet (the job's part replaced); anything else is sent as it is."""
    if item.pointer and item.sheet is not None:
        sheet = item.sheet
        return dataclasses.replace(item, text=sheet.text(), buttons=sheet.keyboard(), message_id=sheet.message_id)
    job = item.job
    if job is None or job.sheet is None or item.kind != "edit" or item.row_id is not None:
        return item
    sheet = job.sheet
    buttons = sheet.keyboard(job, sheet.buttons.get(job, []) if item.progress else item.buttons)
    return dataclasses.replace(item, text=sheet.text(job, item.text), buttons=buttons, message_id=sheet.message_id)


def _stored_form(item: Outgoing) -> ToStore:
    """``item`` as stored; an edit of a job on a sheet counts as shown there from now on (its stored row will
    deliver it, in order), so the sheet's next stored or sent edit carries it too."""
    form = _to_store(item)
    job = item.job
    if job is not None and job.sheet is not None and item.kind == "edit" and not item.progress:
        job.sheet.parts[job] = item.text
        job.sheet.buttons[job] = list(item.buttons)
    return form


def _to_store(item: Outgoing) -> ToStore:
    """What is kept of ``item`` in the database (an edit names its message once the acknowledgement went out; an
    edit of a sheet keeps the whole sheet's text)."""
    job = item.job
    wire = on_wire(item)
    target = wire.message_id if wire.message_id is not None else (job.message_id if job else None)
    return ToStore(
        topic=item.topic,
        kind=item.kind,
        text=wire.text,
        reply_to=item.reply_to,
        message_id=target if item.kind == "edit" else None,
        buttons=[[b.label, b.data] for b in wire.buttons],
        file_name=item.file.name if item.file else None,
        content=item.file.content if item.file else None,
        job=id(job) if job is not None else None,
        opens_job=job is not None and item is job.opening,
        ack_row=job.stored_row if job is not None else None,
    )
