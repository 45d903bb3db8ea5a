"""End to end under Telegram's sending limits: the real bot against a fake Bot API that enforces a sliding
20-messages-per-minute group limit with 429 ``retry_after``, and through an outage.

The bot's outbox and the fake read one clock running 30× faster than the wall clock (``ScaledPace``), so minutes of
Telegram time pass in seconds; the jobs themselves run in real worker processes in real time.

Oracle: the invariants the issue asks for — every command answered exactly once, in its topic, as one message;
each member's results in the order the jobs ran (one worker: the order they were sent); the fake's window never
exceeded; every retry waited out its ``retry_after``.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter

import pytest
from sqlmodel import select

from bot.app import build_context
from bot.telegram_app.send_rate import ScaledPace
from storage.tables import CHAT_PENDING, CHAT_SENT, ChatMessage
from tests.bot.telegram_harness import GROUP, Shown, messages, running_bot, settings_for, until
from tests.fakes.bot_api import LIMITED, Call, FakeBotApi

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

SPEED = 30.0
MEMBERS = (5001, 5002, 5003)
TOPIC_OF = {5001: 11, 5002: 11, 5003: 12}  # two members share a topic
TELEGRAM_LIMITS = {"telegram_chat_gap_s": 1.0, "telegram_group_per_minute": 20, "telegram_overall_per_s": 30}
COMMAND = "/sleepy steps=2 pause=0.05"


def is_final(text: str) -> bool:
    """A job's message once its result is in, or an instant refusal (queue or rate limit of the member)."""
    return "slept 2 steps" in text or "you already have" in text or "rate limit" in text


def answers(calls: list[Call], command_ids: set[int]) -> dict[int, list[Shown]]:
    """Command message id -> the bot's messages replying to it, as the chat shows them."""
    out: dict[int, list[Shown]] = {m: [] for m in command_ids}
    for shown in messages(calls):
        reply_to = (shown.sent.json_param("reply_parameters") or {}).get("message_id")
        if reply_to in out:
            out[reply_to].append(shown)
    return out


def final_moment(calls: list[Call], shown: Shown) -> float:
    """When the chat first showed ``shown``'s final text (its send, or the edit that carried it)."""
    message_id = str(shown.result["message_id"])
    for c in calls:
        sent_it = c.method == "sendMessage" and c is shown.sent
        edited_it = c.method == "editMessageText" and c.params.get("message_id") == message_id
        if (sent_it or edited_it) and is_final(c.params.get("text", "")):
            return c.clock
    raise AssertionError(f"no final text for {shown.text!r}")


@pytest.mark.parametrize("paced", [True, False], ids=["outbox-paced", "retry-after-only"])
async def test_thirty_commands_from_three_members_in_five_seconds_are_each_answered_once(
    fake: FakeBotApi, paced: bool
) -> None:
    pace = ScaledPace(SPEED)
    limits = TELEGRAM_LIMITS if paced else {}
    async with running_bot(fake, pace=pace, job_workers=1, telegram_progress_interval_s=2.0, **limits) as bot:
        # the bot just restarted: Telegram still counts 20 recent messages to the group, which the bot cannot know
        fake.limit_groups(20, clock=pace.now, recent=20)
        pushed: list[tuple[int, int]] = []  # (command message id, member)
        for i in range(30):
            member = MEMBERS[i % 3]
            msg = fake.push_message(
                chat_id=GROUP, user_id=member, text=COMMAND, thread_id=TOPIC_OF[member], username=f"m{member}"
            )
            pushed.append((msg["message_id"], member))
            await pace.sleep(5.0 / 30)
        ids = {m for m, _ in pushed}

        def all_answered(calls: list[Call]) -> bool:
            return all(any(is_final(s.text) for s in got) for got in answers(calls, ids).values())

        calls = await until(fake, all_answered, timeout=90)
        await pace.sleep(10)  # nothing more should arrive (a duplicate, a late refusal)
        tally = bot.outbox.tally
    calls = [c for c in fake.calls if c.params.get("chat_id") == str(GROUP)]
    delivered = [c for c in calls if c.status == 200]
    got = answers(delivered, ids)
    member_of = dict(pushed)
    for command_id, replies in got.items():
        assert len(replies) == 1, (command_id, [r.text for r in replies])  # exactly once, one message
        [reply] = replies
        assert is_final(reply.text)
        assert reply.thread == str(TOPIC_OF[member_of[command_id]])  # in its topic
    jobs = {m: s for m, [s] in got.items() if "slept" in s.text}
    # nobody was refused: past a member's share of 3, jobs wait behind the other members' (bot/jobs/board.py)
    assert len(jobs) == len(got) and not any("you already have" in s.text for [s] in got.values())
    for member in MEMBERS:  # one worker: a member's jobs ran in the order of their numbers; results came in that order
        mine = sorted((int(jobs[m].text.split()[1]), m) for m, who in pushed if who == member and m in jobs)
        by_job: dict[int, list[float]] = {}
        for job, m in mine:  # a repeat of the same command attaches to its job: one job, an answer per asker
            by_job.setdefault(job, []).append(final_moment(delivered, jobs[m]))
        spans = [(min(t), max(t)) for _, t in sorted(by_job.items())]
        # every answer of an earlier job reached the chat before any answer of a later one
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans)), (member, mine, spans)

    limited = [c for c in calls if c.method in LIMITED]
    refused = [c for c in limited if c.status == 429]
    assert refused, "the restart backlog must have caused at least one 429"
    for c in refused:  # every retry waited out retry_after (on the fake's clock: the same one the bot ran on)
        assert c.retry_after is not None
        later = [d for d in limited if d.clock > c.clock]
        assert not later or later[0].clock >= c.clock + c.retry_after - 0.1, (c.clock, c.retry_after, later[0].clock)
    ok = [c.clock for c in limited if c.status == 200]
    assert all(sum(1 for t in ok if s - 60 < t <= s) <= 20 for s in ok)  # the fake's window held
    sends = Counter(c.method for c in limited if c.status == 200)
    print(
        f"\n{'paced by the outbox' if paced else 'retry_after only'}: 30 commands → {sends['sendMessage']} messages, "
        f"{sends['editMessageText']} edits ({tally.progress_edits} of them progress), {len(refused)} answered 429; "
        f"{tally.coalesced} acknowledgements replaced by their result before sending, "
        f"{tally.progress_dropped} progress lines dropped; {len(jobs)} jobs, "
        f"{sum(1 for s in jobs.values() if s.sent.params['text'] != s.text)} of them edited into their result"
    )
    waits = sorted(tally.result_waits)
    print(
        f"result computed → in the chat (Telegram-clock seconds): median {waits[len(waits) // 2]:.1f}, "
        f"worst {waits[-1]:.1f}, over {len(waits)} results"
    )
    if paced:
        assert len(refused) <= 3  # the outbox learnt the window from the first 429 and kept under it
        assert len(waits) == len(jobs)  # every result measured (the 30 s target is not met yet: docs/operations.md)


async def test_replies_kept_through_an_outage_are_sent_in_order_after_a_restart(fake: FakeBotApi) -> None:
    pace = ScaledPace(SPEED)
    overrides = {**TELEGRAM_LIMITS, "telegram_patience_s": 30.0, "job_workers": 1}
    async with running_bot(fake, pace=pace, **overrides):
        fake.set_down(True)  # Telegram becomes unreachable once the bot is up
        first = fake.push_message(chat_id=GROUP, user_id=5001, text="/sleepy steps=1 pause=0.05", thread_id=11)
        await asyncio.sleep(0.2)
        second = fake.push_message(chat_id=GROUP, user_id=5002, text="/help cancel", thread_id=11)
        third = fake.push_message(chat_id=GROUP, user_id=5003, text="/nosuchcommand", thread_id=12)
        await pace.sleep(90)  # Telegram unreachable for longer than the bot's patience
    assert not [c for c in fake.calls if c.status == 200 and c.method in LIMITED]
    with build_context(settings_for(fake)).sessions()() as session:
        kept = session.exec(select(ChatMessage).order_by(ChatMessage.id)).all()
    assert {r.state for r in kept} == {CHAT_PENDING}
    # in order within each topic (topics are stored independently, so their rows may interleave)
    in_11 = [r for r in kept if r.thread_id == 11]
    assert [r.reply_to for r in in_11] == [first["message_id"], second["message_id"]]
    assert [r.reply_to for r in kept if r.thread_id == 12] == [third["message_id"]]
    job_row = in_11[0]  # the job's message: its stored acknowledgement now carries the result (one row, one message)
    assert "slept 1 steps" in job_row.text and "queued" not in job_row.text

    fake.set_down(False)
    async with running_bot(fake, pace=pace, **overrides):
        fourth = fake.push_message(chat_id=GROUP, user_id=5002, text="/help queue", thread_id=11)
        calls = await until(fake, lambda cs: len(messages(cs)) == 4, timeout=30)
        await pace.sleep(10)
    shown = messages(fake.delivered())
    assert len(shown) == 4  # each exactly once
    order = [(s.thread, (s.sent.json_param("reply_parameters") or {}).get("message_id")) for s in shown]
    topic_11 = [m for t, m in order if t == "11"]
    assert topic_11 == [first["message_id"], second["message_id"], fourth["message_id"]]  # stored ones first
    assert [m for t, m in order if t == "12"] == [third["message_id"]]
    [job_message] = [
        s for s in shown if (s.sent.json_param("reply_parameters") or {}).get("message_id") == first["message_id"]
    ]
    assert "slept 1 steps" in job_message.text
    with build_context(settings_for(fake)).sessions()() as session:
        assert {r.state for r in session.exec(select(ChatMessage)).all()} == {CHAT_SENT}
    del calls
