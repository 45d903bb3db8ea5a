"""End to end under Telegram's sending limits: the real bot against a fake Bot API that enforces a sliding
20-messages-per-minute group limit with 429 ``retry_after``, and through an outage.

The bot's outbox and the fake read one clock running 30× faster than the wall clock (``ScaledPace``), so minutes of
Telegram time pass in seconds; the jobs themselves run in real worker processes in real time.

Oracle: the invariants the issue asks for — every command answered exactly once (its job's part, under a header
naming the command, in one message of its topic that replies to one of the member's commands; a message may carry
several of that member's jobs), each member's results in the order the jobs ran (one worker: the order they were
sent), the fake's window never exceeded, every retry waited out its ``retry_after`` — and issue 31's targets: every
result in the chat within 30 s of being computed (after a restart, of the group's minute having room again), and
``/help`` sent right after ``/records`` answered within 5 s (``/records`` is one message and one chart).
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import Callable

import pytest
from sqlmodel import select

from bot.app import build_context
from bot.commands import COMMANDS
from bot.core.recording import store_result
from bot.telegram_app.send_rate import ScaledPace
from engine.result import RunResult
from storage.tables import CHAT_PENDING, CHAT_SENT, ChatMessage
from tests.bot.telegram_harness import GROUP, Shown, messages, running_bot, settings_for, until
from tests.fakes.bot_api import LIMITED, Call, FakeBotApi
from tools.run_request import NormalisedRequest

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

SPEED = 30.0
MEMBERS = (5001, 5002, 5003)
TOPIC_OF = {5001: 11, 5002: 11, 5003: 12}  # two members share a topic
TELEGRAM_LIMITS = {"telegram_chat_gap_s": 1.0, "telegram_group_per_minute": 20, "telegram_overall_per_s": 30}
TARGET_S = 30.0
"""Issue 31: in the burst, every computed result reaches the chat within 30 s of being computed."""


def command(i: int) -> str:
    """The i-th command of the burst: each slightly different, so each is a job of its own (an identical repeat
    would join the job already queued) and its job's header names it."""
    return f"/sleepy steps=2 pause=0.05{i:02d}"


def final_part(text: str) -> re.Pattern[str]:
    """A job's part once its result is in: its header (naming the command) then the result."""
    return re.compile(rf"job \d+ {re.escape(text)}\ndone in [\d.]+ s\n\nslept 2 steps")


def job_lines(text: str) -> list[tuple[str, str]]:
    """(header, the line under it) of every job part a message shows."""
    return re.findall(r"(job \d+ /sleepy[^\n]*)\n([^\n]*)", text)


def answered_at(calls: list[Call], shown: Shown, pattern: re.Pattern[str]) -> float:
    """When the chat first showed ``pattern`` in ``shown`` (its send, or the edit that carried it)."""
    message_id = str(shown.result["message_id"])
    for c in calls:
        sent_it = c.method == "sendMessage" and c is shown.sent
        edited_it = c.method == "editMessageText" and c.params.get("message_id") == message_id
        if (sent_it or edited_it) and pattern.search(c.params.get("text", "")):
            return c.clock
    raise AssertionError(f"no final part {pattern.pattern!r} in {shown.text!r}")


@pytest.mark.parametrize(
    ("paced", "backlog"),
    [(True, False), (True, True), (False, True)],
    ids=["outbox-paced", "outbox-paced-after-restart", "retry-after-only-after-restart"],
)
async def test_thirty_commands_from_three_members_in_five_seconds_are_each_answered_once(
    fake: FakeBotApi, paced: bool, backlog: bool
) -> None:
    pace = ScaledPace(SPEED)
    limits = TELEGRAM_LIMITS if paced else {}
    async with running_bot(fake, pace=pace, job_workers=1, telegram_progress_interval_s=2.0, **limits) as bot:
        # after a restart Telegram still counts 20 recent messages to the group, which the bot cannot know: nothing
        # can reach the group for a minute
        fake.limit_groups(20, clock=pace.now, recent=20 if backlog else 0)
        opens = pace.now() + (60.0 if backlog else 0.0)  # when the group's minute has room again
        pushed: list[tuple[int, int, str]] = []  # (command message id, member, text)
        for i in range(30):
            member = MEMBERS[i % 3]
            msg = fake.push_message(
                chat_id=GROUP, user_id=member, text=command(i), thread_id=TOPIC_OF[member], username=f"m{member}"
            )
            pushed.append((msg["message_id"], member, command(i)))
            await pace.sleep(5.0 / 30)

        def all_answered(calls: list[Call]) -> bool:
            shown = [m.text for m in messages(calls)]
            return all(any(final_part(text).search(s) for s in shown) for _, _, text in pushed)

        def nothing_stale(calls: list[Call]) -> bool:  # every job line in the chat says the job is done
            return all(line.startswith("done") for m in messages(calls) for _, line in job_lines(m.text))

        await until(fake, all_answered, timeout=90)
        await until(fake, nothing_stale, timeout=30)  # older messages of moved jobs point to their result
        await pace.sleep(10)  # nothing more should arrive (a duplicate, a late refusal)
        tally = bot.outbox.tally
    calls = [c for c in fake.calls if c.params.get("chat_id") == str(GROUP)]
    delivered = [c for c in calls if c.status == 200]
    chat = messages(delivered)
    member_of = {m: who for m, who, _ in pushed}
    moments: dict[int, list[tuple[int, float]]] = {m: [] for m in MEMBERS}  # member -> (job, when answered)
    for command_id, member, text in pushed:
        pattern = final_part(text)
        holding = [s for s in chat if pattern.search(s.text)]
        assert len(holding) == 1, (text, [s.text for s in holding])  # answered exactly once, in one message
        [answer] = holding
        assert len(pattern.findall(answer.text)) == 1
        assert answer.thread == str(TOPIC_OF[member])  # in its topic
        replying_to = (answer.sent.json_param("reply_parameters") or {}).get("message_id")
        assert member_of.get(replying_to) == member, (text, replying_to)  # a reply to one of the member's commands
        assert replying_to >= command_id  # to this command or a later one of the member's
        job = int(pattern.search(answer.text).group(0).split()[1])  # type: ignore[union-attr]
        moments[member].append((job, answered_at(delivered, answer, pattern)))
    assert not [s for s in chat if "you already have" in s.text]  # nobody refused (bot/jobs/board.py)
    for member in MEMBERS:  # one worker: a member's jobs ran in the order of their numbers and were answered so
        in_order = [t for _, t in sorted(moments[member])]
        assert in_order == sorted(in_order), (member, sorted(moments[member]))
    for s in chat:
        owners = {pushed[int(i)][1] for i in re.findall(r"pause=0\.05(\d\d)", s.text)}
        assert len(owners) <= 1, s.text  # a sheet carries one member's jobs only

    limited = [c for c in calls if c.method in LIMITED]
    refused = [c for c in limited if c.status == 429]
    for c in refused:  # every retry waited out retry_after (on the fake's clock: the same one the bot ran on)
        assert c.retry_after is not None
        later = [d for d in limited if d.clock > c.clock]
        assert not later or later[0].clock >= c.clock + c.retry_after - 0.1, (c.clock, c.retry_after, later[0].clock)
    ok = [c.clock for c in limited if c.status == 200]
    assert all(sum(1 for t in ok if s - 60 < t <= s) <= 20 for s in ok)  # the fake's window held
    sends = Counter(c.method for c in limited if c.status == 200)
    waits = sorted(tally.result_waits)
    after_open = sorted(
        w - max(0.0, opens - computed) for w, computed in zip(tally.result_waits, tally.results_computed, strict=True)
    )
    print(
        f"\n{'paced by the outbox' if paced else 'retry_after only'}"
        f"{', group minute spent before the burst' if backlog else ''}: 30 commands → {sends['sendMessage']} "
        f"messages, {sends['editMessageText']} edits ({tally.progress_edits} progress, {tally.pointers} pointers "
        f"queued), {len(refused)} answered 429; {tally.sheets} messages carried {tally.on_sheets} job parts; "
        f"{tally.coalesced} acknowledgements replaced by their result before sending"
    )
    print(
        f"result computed → in the chat (Telegram-clock seconds): median {waits[len(waits) // 2]:.1f}, "
        f"worst {waits[-1]:.1f}, over {len(waits)} results; counted from when the group's minute had room again: "
        f"median {after_open[len(after_open) // 2]:.1f}, worst {after_open[-1]:.1f}"
    )
    assert len(waits) == len(pushed)  # every result measured once
    if backlog:
        assert refused, "the restart backlog must have caused at least one 429"
    if paced:
        assert len(refused) <= (1 if backlog else 0)  # the outbox keeps under the window (and learns it from a 429)
        # the target: nothing the bot could have sent sooner waits longer than 30 s (after a restart, nothing can
        # reach the group until the minute Telegram still counts has passed)
        assert after_open[-1] <= TARGET_S, after_open
        if not backlog:
            assert waits[-1] <= TARGET_S, waits


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


def seed_boards(fake: FakeBotApi) -> None:
    """Stored runs on two boards, each better than the one before: ``/records`` has a table and a chart to send."""
    ctx = build_context(settings_for(fake))
    for challenge, metric in (("matmul_1x1", "dally@1"), ("matmul_2x2", "dally@1")):
        for k in range(6):
            result = RunResult(
                challenge=challenge, subject="p", kind="ir", ok=True, metrics={metric: 900.0 - k}, seeds=[0]
            )
            request = NormalisedRequest(challenge, "ir", "p", {}, f"prog {challenge} {k}", (metric,))
            store_result(ctx, result, request=request, member=f"m{k}")


HELP_TARGET_S = 5.0
"""Issue 31: ``/help`` sent right after ``/records`` is answered within 5 s."""


async def test_help_sent_right_after_records_is_answered_within_five_seconds(fake: FakeBotApi) -> None:
    """``/records`` over several boards is one message with the boards' table and one photo with a panel per board
    (it was a text, a file and a photo per board); ``/help`` from another member right after it is answered at once.
    That attachments never hold up another member's text answer is checked where the outbox ranks them
    (tests/bot/test_chat_outbox.py: a chart photo waits behind an answer handed in after it)."""
    seed_boards(fake)
    pace = ScaledPace(1.0)  # real time: the bot's own handling counts in full
    async with running_bot(fake, commands=COMMANDS, pace=pace, **TELEGRAM_LIMITS):
        fake.limit_groups(20, clock=pace.now)
        records = fake.push_message(chat_id=GROUP, user_id=5001, text="/records", thread_id=11)

        def replying_to(message_id: int) -> Callable[[Call], bool]:
            return lambda c: (c.json_param("reply_parameters") or {}).get("message_id") == message_id

        help_asked = pace.now()
        asked = fake.push_message(chat_id=GROUP, user_id=5002, text="/help", thread_id=12)
        await until(fake, lambda calls: any(map(replying_to(asked["message_id"]), calls)), timeout=60)
        await until(
            fake, lambda calls: any(c.method == "sendPhoto" and replying_to(records["message_id"])(c) for c in calls)
        )
        await pace.sleep(5)  # nothing more should come for /records
    delivered = [c for c in fake.calls if c.status == 200 and c.params.get("chat_id") == str(GROUP)]
    [help_answer] = [c for c in delivered if c.method == "sendMessage" and replying_to(asked["message_id"])(c)]
    assert "/records" in help_answer.params["text"]  # the command list, not an error
    took = help_answer.clock - help_asked
    records_calls = [c for c in delivered if c.method in LIMITED and replying_to(records["message_id"])(c)]
    sent = sorted(c.method for c in records_calls if c.method.startswith("send"))
    # the whole answer: its text with the table of both boards inline, and one chart
    assert sent == ["sendMessage", "sendPhoto"], sent
    texts = [str(c.params.get("text", "")) for c in delivered if c.method in ("sendMessage", "editMessageText")]
    [final] = [t for t in texts if "lower is better" in t]  # the job's result, edited into its message
    assert "matmul_1x1" in final and "matmul_2x2" in final
    print(
        f"\n/help right after /records: answered in {took:.2f} s (Telegram clock); /records sent "
        f"{len(records_calls)} messages and edits (one photo)"
    )
    assert took <= HELP_TARGET_S
