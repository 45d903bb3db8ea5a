"""One member's waiting job messages go out as one message (a sheet), and the jobs' later results edit it.

Oracles: the rules stated in bot/telegram_app/job_sheet.py and chat_outbox.py — a sheet only ever carries one
member's jobs of one topic, in the order they were queued, replying to the latest command; a job's result replaces
only its own part; a job shown earlier on a message of its own is pointed to its later sheet, and that pointer goes
after everything else; a part too long for its sheet goes alone and the sheet points to it; nothing is sent twice.
"""

from __future__ import annotations

import asyncio
from typing import Any

from sqlmodel import select

from bot.reply import Button
from bot.telegram_app.chat_outbox import ChatOutbox, Outgoing, Refused, SendLater
from bot.telegram_app.job_sheet import MOVED_DONE
from bot.telegram_app.send_rate import Limits, ScaledPace, SendRate
from storage.chat_messages import Topic
from storage.tables import ChatMessage
from tests.bot.test_chat_outbox import RecordingTransport

GROUP = -100400
TOPIC = Topic(GROUP, 3)
ALICE, BOB = 71, 72


def outbox(limits: Limits | None = None) -> tuple[ChatOutbox, RecordingTransport]:
    pace = ScaledPace(50.0)
    transport = RecordingTransport(pace)
    rate = SendRate(limits or Limits(per_chat_gap_s=1.0, group_per_minute=20))
    return ChatOutbox(transport, pace=pace, rate=rate, progress_every_s=2.0), transport


def ack(n: int) -> str:
    return f"job {n} /sleepy n={n}\nqueued"


def result(n: int) -> str:
    return f"job {n} /sleepy n={n}\ndone\n\nslept {n}"


async def settle(box: ChatOutbox) -> None:
    """Until nothing waits in the outbox (pointers included)."""
    while box.waiting():
        await asyncio.sleep(0.01)


async def test_one_members_waiting_acknowledgements_go_out_as_one_message_replying_to_the_latest_command() -> None:
    box, transport = outbox()
    jobs = [box.open_job(TOPIC, reply_to=100 + n, text=ack(n), member=ALICE, tag=f"job {n}") for n in (1, 2, 3)]
    other = box.open_job(TOPIC, reply_to=200, text=ack(9), member=BOB, tag="job 9")
    await settle(box)
    assert [(kind, text) for _, kind, _, text in transport.sent] == [
        ("text", f"{ack(1)}\n\n{ack(2)}\n\n{ack(3)}"),  # Alice's three jobs, in order, one message
        ("text", ack(9)),  # Bob's on its own
    ]
    assert box.tally.sheets == 1 and box.tally.on_sheets == 3 and box.tally.sends == 2
    # each job's result edits the sheet: its own part changes, the others stay
    await jobs[1].finish(result(2), [Button("details", "show 2")])
    await jobs[0].finish(result(1))
    await other.finish(result(9))
    await jobs[2].finish(result(3), [Button("details", "show 3")])
    await box.close()
    edits = [(message_id, text) for _, kind, message_id, text in transport.sent if kind == "edit"]
    assert edits == [
        (1, f"{ack(1)}\n\n{result(2)}\n\n{ack(3)}"),
        (1, f"{result(1)}\n\n{result(2)}\n\n{ack(3)}"),
        (2, result(9)),
        (1, f"{result(1)}\n\n{result(2)}\n\n{result(3)}"),
    ]
    assert len(box.tally.result_waits) == 4  # each result measured once, when its part reached the chat


async def test_results_of_jobs_on_one_sheet_that_wait_together_are_one_edit_of_it() -> None:
    box, transport = outbox()
    jobs = [box.open_job(TOPIC, reply_to=100 + n, text=ack(n), member=ALICE, tag=f"job {n}") for n in (1, 2, 3)]
    await settle(box)
    transport.too_many = [3.0]  # the chat is held while two of them finish
    await asyncio.gather(jobs[2].finish(result(3)), jobs[0].finish(result(1)))
    await box.close()
    assert [(kind, message_id, text) for _, kind, message_id, text in transport.sent] == [
        ("text", 1, f"{ack(1)}\n\n{ack(2)}\n\n{ack(3)}"),
        ("edit", 1, f"{result(1)}\n\n{ack(2)}\n\n{result(3)}"),
    ]
    assert box.tally.pointers == 0  # nothing moved


class ReplyRecorder(RecordingTransport):
    """Also keeps each send's reply_to and buttons."""

    def __init__(self, pace: ScaledPace) -> None:
        super().__init__(pace)
        self.replies: list[int | None] = []
        self.buttons: list[list[str]] = []

    async def transmit(self, item: Outgoing) -> int | None:
        message_id = await super().transmit(item)
        self.replies.append(item.reply_to)
        self.buttons.append([b.label for b in item.buttons])
        return message_id


async def test_results_of_jobs_shown_alone_gather_on_a_new_message_and_the_old_ones_point_to_it_last() -> None:
    pace = ScaledPace(50.0)
    transport = ReplyRecorder(pace)
    box = ChatOutbox(transport, pace=pace, rate=SendRate(Limits(per_chat_gap_s=1.0, group_per_minute=20)))
    first = box.open_job(TOPIC, reply_to=101, text=ack(1), member=ALICE, tag="job 1")
    await settle(box)
    second = box.open_job(TOPIC, reply_to=102, text=ack(2), member=ALICE, tag="job 2")
    await settle(box)
    assert [text for *_, text in transport.sent] == [ack(1), ack(2)]  # each went alone (nothing else waited)
    transport.too_many = [5.0]  # the chat is held: both results wait together
    answer = box.put(Outgoing(TOPIC, "text", "an answer for Bob", reply_to=300))
    done = [first.finish(result(1), [Button("details", "show 1")]), second.finish(result(2))]
    await asyncio.gather(*done, answer)
    await settle(box)
    await box.close()
    texts = [text for *_, text in transport.sent]
    assert texts[2:4] == [f"{result(1)}\n\n{result(2)}", "an answer for Bob"]  # one message, results first
    assert transport.replies[2] == 102 and transport.buttons[2] == ["job 1: details"]
    pointers = transport.sent[4:]  # the old acknowledgements, edited last, say where the result went
    assert sorted((message_id, text) for _, kind, message_id, text in pointers if kind == "edit") == [
        (1, f"job 1 /sleepy n=1\n{MOVED_DONE}"),
        (2, f"job 2 /sleepy n=2\n{MOVED_DONE}"),
    ]
    assert len(texts) == 6 and box.tally.pointers == 2


async def test_a_result_too_long_for_its_sheet_goes_alone_and_the_sheet_points_to_it() -> None:
    box, transport = outbox()
    jobs = [box.open_job(TOPIC, reply_to=100 + n, text=ack(n), member=ALICE, tag=f"job {n}") for n in (1, 2)]
    await settle(box)
    long = result(1) + "\n" + "x" * 4050
    await jobs[0].finish(long)
    await settle(box)
    await box.close()
    kinds = [(kind, message_id) for _, kind, message_id, _ in transport.sent]
    assert kinds == [("text", 1), ("text", 2), ("edit", 1)]
    assert transport.sent[1][3] == long
    assert transport.sent[2][3] == f"job 1 /sleepy n=1\n{MOVED_DONE}\n\n{ack(2)}"
    assert jobs[1].message_id == 1 and jobs[0].message_id == 2


async def test_a_result_with_page_buttons_leaves_its_sheet_since_a_page_press_redraws_the_whole_message() -> None:
    box, transport = outbox()
    jobs = [box.open_job(TOPIC, reply_to=100 + n, text=ack(n), member=ALICE, tag=f"job {n}") for n in (1, 2)]
    await settle(box)
    await jobs[0].finish(result(1), [Button("page 2 ›", "pg:records page=2")])
    await settle(box)
    await box.close()
    assert [(kind, message_id, text) for _, kind, message_id, text in transport.sent] == [
        ("text", 1, f"{ack(1)}\n\n{ack(2)}"),
        ("text", 2, result(1)),
        ("edit", 1, f"job 1 /sleepy n=1\n{MOVED_DONE}\n\n{ack(2)}"),
    ]


class RefusesSheets(RecordingTransport):
    """Refuses any message that carries two jobs' parts (as Telegram might refuse a keyboard or a text)."""

    async def transmit(self, item: Outgoing) -> int | None:
        if item.text.count("job ") > 1:
            raise Refused("Bad Request: too much")
        return await super().transmit(item)


async def test_a_refused_sheet_is_sent_part_by_part_and_nothing_is_lost() -> None:
    pace = ScaledPace(50.0)
    transport = RefusesSheets(pace)
    box = ChatOutbox(transport, pace=pace, rate=SendRate(Limits(per_chat_gap_s=1.0, group_per_minute=20)))
    for n in (1, 2):
        box.open_job(TOPIC, reply_to=100 + n, text=ack(n), member=ALICE, tag=f"job {n}").finish(result(n))
    await settle(box)
    await box.close()
    assert [text for *_, text in transport.sent] == [result(1), result(2)]


async def test_a_members_identical_requests_joined_to_one_job_are_each_answered_on_their_own() -> None:
    pace = ScaledPace(50.0)
    transport = ReplyRecorder(pace)
    box = ChatOutbox(transport, pace=pace, rate=SendRate(Limits(per_chat_gap_s=1.0, group_per_minute=20)))
    for reply_to in (101, 102):
        job = box.open_job(TOPIC, reply_to=reply_to, text=ack(1), member=ALICE, tag="job 1")
        job.finish(result(1), [Button("details", "show 1")])
    box.open_job(TOPIC, reply_to=103, text=ack(2), member=ALICE, tag="job 2").finish(result(2))
    await settle(box)
    await box.close()
    # the repeat of job 1 is not put beside it (the same part twice): it goes with job 2, replying to the latest
    assert [text for *_, text in transport.sent] == [f"{result(1)}\n\n{result(2)}", result(1)]
    assert transport.replies == [103, 102] and transport.buttons == [["job 1: details"], ["details"]]
    assert len(box.tally.result_waits) == 3  # each command answered once


class Flaky(RecordingTransport):
    """Telegram unreachable while ``down``."""

    down = False

    async def transmit(self, item: Outgoing) -> int | None:
        if self.down:
            raise SendLater("unreachable")
        return await super().transmit(item)


async def test_an_edit_of_a_shared_message_kept_through_an_outage_keeps_the_whole_message(db_sessions: Any) -> None:
    pace = ScaledPace(50.0)
    transport = Flaky(pace)
    box = ChatOutbox(
        transport,
        pace=pace,
        rate=SendRate(Limits(per_chat_gap_s=1.0, group_per_minute=20)),
        sessions=lambda: db_sessions,
        patience_s=5.0,
    )
    first, second = (box.open_job(TOPIC, 100 + n, ack(n), member=ALICE, tag=f"job {n}") for n in (1, 2))
    await settle(box)
    transport.down = True
    assert await asyncio.wait_for(first.finish(result(1)), 10) is None  # stored, not delivered
    with db_sessions() as session:
        [row] = session.exec(select(ChatMessage)).all()
    assert (row.kind, row.message_id, row.text) == ("edit", 1, f"{result(1)}\n\n{ack(2)}")  # the whole sheet
    transport.down = False
    await asyncio.wait_for(second.finish(result(2)), 10)  # stored behind the stored edit, in order
    for _ in range(500):
        if len(transport.sent) >= 3:
            break
        await asyncio.sleep(0.01)
    await box.close()
    assert [(kind, message_id, text) for _, kind, message_id, text in transport.sent] == [
        ("text", 1, f"{ack(1)}\n\n{ack(2)}"),
        ("edit", 1, f"{result(1)}\n\n{ack(2)}"),
        ("edit", 1, f"{result(1)}\n\n{result(2)}"),
    ]
