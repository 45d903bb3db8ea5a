"""The chat outbox with a recording transport in place of the Bot API (no network), on a fast clock.

Oracles: order and counts follow from the rules stated in bot/telegram_app/chat_outbox.py — one message per job, a
result sent in place of an acknowledgement that has not gone out, progress never sent while answers wait, the
final result never dropped, 429s waited out before the same item goes again.
"""

from __future__ import annotations

import asyncio

from bot.telegram_app.chat_outbox import ChatOutbox, Outgoing, SendLater
from bot.telegram_app.send_rate import Limits, ScaledPace, SendRate
from storage.chat_messages import Topic

GROUP = -100300
TOPIC = Topic(GROUP, 9)


class RecordingTransport:
    """Accepts every item (message ids from 1) unless told to answer the next ones with 429."""

    def __init__(self, pace: ScaledPace) -> None:
        self.pace = pace
        self.sent: list[tuple[float, str, int | None, str]] = []  # (time, kind, message id, text)
        self.too_many: list[float] = []  # retry_after of the next calls
        self.refused_at: list[float] = []

    async def transmit(self, item: Outgoing) -> int | None:
        if self.too_many:
            self.refused_at.append(self.pace.now())
            raise SendLater("429", self.too_many.pop(0))
        message_id = item.message_id if item.kind == "edit" else len(self.sent) + 1
        self.sent.append((self.pace.now(), item.kind, message_id, item.text))
        return message_id


def outbox(limits: Limits, speed: float = 50.0) -> tuple[ChatOutbox, RecordingTransport]:
    pace = ScaledPace(speed)
    transport = RecordingTransport(pace)
    return ChatOutbox(transport, pace=pace, rate=SendRate(limits), progress_every_s=2.0), transport


async def test_a_result_ready_before_its_acknowledgement_went_out_is_sent_instead_of_it() -> None:
    box, transport = outbox(Limits())
    job = box.open_job(TOPIC, reply_to=5, text="job 1 /run\nqueued")
    job.report("job 1 /run\nstep 1")
    done = job.finish("job 1 /run\ndone\n\nresult")
    assert await asyncio.wait_for(done, 5) == 1
    await box.close()
    assert [(kind, text) for _, kind, _, text in transport.sent] == [("text", "job 1 /run\ndone\n\nresult")]
    assert box.tally.coalesced == 1 and box.tally.sends == 1 and box.tally.edits == 0


async def test_progress_waits_while_answers_are_queued_and_the_result_is_never_dropped() -> None:
    box, transport = outbox(Limits(per_chat_gap_s=1.0, group_per_minute=20))
    job = box.open_job(TOPIC, reply_to=5, text="ack")
    while not transport.sent:
        await asyncio.sleep(0.01)
    answers = [box.put(Outgoing(TOPIC, "text", f"answer {i}", reply_to=100 + i)) for i in range(6)]
    for step in range(30):  # a chatty job: a progress line every 0.1 s of Telegram time
        job.report(f"step {step}")
        await box.pace.sleep(0.1)
    final = job.finish("result")
    await asyncio.wait_for(asyncio.gather(final, *answers), 10)
    await box.close()
    texts = [text for _, _, _, text in transport.sent]
    assert texts[0] == "ack" and [t for t in texts if t.startswith("answer")] == [f"answer {i}" for i in range(6)]
    assert texts.count("result") == 1  # a result may pass answers still waiting (chat_outbox.Rank) …
    last_answer = max(i for i, t in enumerate(texts) if t.startswith("answer"))
    assert all(i > last_answer for i, t in enumerate(texts) if t.startswith("step"))  # … progress never does
    progress = [t for t in texts if t.startswith("step")]
    assert len(progress) <= 1 and box.tally.progress_dropped >= 29  # the latest line at most, the rest dropped
    times = [t for t, *_ in transport.sent]
    assert all(b - a >= 1.0 - 0.05 for a, b in zip(times, times[1:], strict=False))  # 1 s apart in one chat


async def test_a_429_is_waited_out_and_the_same_message_goes_again_first() -> None:
    box, transport = outbox(Limits(per_chat_gap_s=0.0, group_per_minute=0, overall_per_s=0))
    transport.too_many = [7.0]
    first = box.put(Outgoing(TOPIC, "text", "first"))
    second = box.put(Outgoing(TOPIC, "text", "second"))
    await asyncio.wait_for(asyncio.gather(first, second), 5)
    await box.close()
    [refused_at] = transport.refused_at
    assert [text for _, _, _, text in transport.sent] == ["first", "second"]
    assert transport.sent[0][0] >= refused_at + 7.0 - 0.05
    assert box.tally.rate_limited == 1


async def test_a_job_edit_goes_to_the_acknowledgement_message() -> None:
    box, transport = outbox(Limits(per_chat_gap_s=0.0, group_per_minute=0, overall_per_s=0))
    job = box.open_job(TOPIC, reply_to=5, text="ack")
    while not transport.sent:
        await asyncio.sleep(0.01)
    await asyncio.wait_for(job.finish("result", None), 5)
    await box.close()
    assert [(kind, message_id, text) for _, kind, message_id, text in transport.sent] == [
        ("text", 1, "ack"),
        ("edit", 1, "result"),
    ]


async def test_when_the_chat_is_busy_results_go_before_answers_acknowledgements_and_attachments() -> None:
    """Hand-worked order under a 1-second gap: the first acknowledgement goes at once; while it goes, another job's
    acknowledgement, a refusal, a chart photo (another topic) and the first job's result are handed in, in that
    order. They leave result, refusal, acknowledgement, photo (one a second); the second job's result, computed
    later, last."""
    box, transport = outbox(Limits(per_chat_gap_s=1.0, group_per_minute=20))
    first = box.open_job(TOPIC, reply_to=1, text="#1 queued")
    while not transport.sent:
        await asyncio.sleep(0.01)
    second = box.open_job(TOPIC, reply_to=2, text="#2 queued")
    refusal = box.put(Outgoing(TOPIC, "text", "/config is for admins only", reply_to=3))
    chart = box.put(Outgoing(Topic(GROUP, 10), "photo", "chart", reply_to=4))
    result = first.finish("#1 done")
    await asyncio.wait_for(asyncio.gather(result, refusal, chart), 10)
    await asyncio.wait_for(second.finish("#2 done"), 5)
    await box.close()
    assert [text for _, _, _, text in transport.sent] == [
        "#1 queued",
        "#1 done",  # the result: an edit of the acknowledgement already sent
        "/config is for admins only",  # a direct answer
        "#2 queued",  # an acknowledgement
        "chart",  # the attachment, after every text that waited
        "#2 done",
    ]


async def test_results_leave_in_the_order_they_were_computed_not_the_order_their_jobs_were_queued() -> None:
    box, transport = outbox(Limits(per_chat_gap_s=1.0, group_per_minute=20))
    blocker = box.put(Outgoing(TOPIC, "text", "first answer", reply_to=1))
    while not transport.sent:  # the chat's next send is a second away
        await asyncio.sleep(0.01)
    early, late = box.open_job(TOPIC, 2, "#1 queued"), box.open_job(TOPIC, 3, "#2 queued")
    late.finish("#2 done")  # computed first
    early.finish("#1 done")
    await asyncio.wait_for(blocker, 5)
    await box.close()
    assert [text for _, _, _, text in transport.sent] == ["first answer", "#2 done", "#1 done"]
    assert box.tally.coalesced == 2 and box.tally.edits == 0  # each result sent in its acknowledgement's place
