"""Duplicates attach: the same request sent while its job is queued or running joins that job on local workers.

The oracle is the fixture's own tally file: one line per execution, written by the worker process itself, so the
number of times the command really ran is counted outside the board.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections import Counter
from pathlib import Path

import pytest

from bot.app import run_in_worker
from bot.commands.base import Caller, Invocation, UsageError
from bot.commands.queue import show_queue
from bot.context import AppContext
from bot.executors.local import ProcessRunner
from bot.jobs.board import JobBoard
from bot.settings import Settings
from tests.bot.fixture_commands import SLEEPY, TALLY
from tests.bot.telegram_harness import GROUP, MEMBER, OTHER_MEMBER, TOPIC, running_bot, shown, texts, until
from tests.fakes.bot_api import Call, FakeBotApi

ANN = Caller(name="ann", user_id=1, chat_id=GROUP)
BOB = Caller(name="bob", user_id=2, chat_id=GROUP, thread_id=TOPIC)
ADMIN = Caller(name="root", user_id=9, is_admin=True)


def _board(**kwargs: object) -> JobBoard:
    return JobBoard(ProcessRunner(Settings(), job=run_in_worker), **kwargs)  # type: ignore[arg-type]


def _tally(caller: Caller, file: Path, **options: str) -> Invocation:
    return Invocation(command="tally", options={"file": str(file), **options}, caller=caller)


def test_a_shared_request_attaches_across_members_an_own_one_only_for_the_same_member(tmp_path: Path) -> None:
    async def scenario() -> None:
        board = _board(per_member=5)
        file = tmp_path / "tally"
        first = board.submit(TALLY, _tally(ANN, file))
        again = _tally(BOB, file)
        assert board.submit(TALLY, again) is first  # another member, same request: the same job
        said = board.acknowledgement(first, again)
        assert said == "same request as job 1 (ann's, position 1): you get its answer too"
        assert board.acknowledgement(first, first.invocation) == "queued as job 1, position 1"
        assert [a.caller.name for a in first.askers] == ["ann", "bob"]
        assert board.submit(TALLY, _tally(BOB, file, steps="2")) is not first  # a different request
        own = dataclasses.replace(TALLY, shared_answer=False)
        mine = board.submit(own, _tally(ANN, tmp_path / "own"))
        assert board.submit(own, _tally(ANN, tmp_path / "own")) is mine  # the same member repeating herself
        assert board.submit(own, _tally(BOB, tmp_path / "own")) is not mine  # another member: their own job
        assert [j.id for j in board.active()] == [1, 2, 3, 4]  # four jobs from seven requests
        listed = show_queue(AppContext(settings=Settings(), jobs=board), Invocation(command="queue", caller=ANN))
        assert listed.data is not None and listed.data["jobs"][0]["askers"] == ["ann", "bob"]
        assert listed.tables[0].rows[0][2] == "ann +1"

    asyncio.run(scenario())


def test_attaching_is_not_a_new_job_for_the_queue_limit_but_counts_for_the_rate_limit(tmp_path: Path) -> None:
    async def scenario() -> None:
        board = _board(per_member=1, rate_per_minute=2)
        job = board.submit(TALLY, _tally(ANN, tmp_path / "t"))
        assert board.submit(TALLY, _tally(ANN, tmp_path / "t")) is job  # over the queue limit of 1, but attached
        with pytest.raises(UsageError, match="rate limit"):
            board.submit(TALLY, _tally(ANN, tmp_path / "t"))

    asyncio.run(scenario())


def test_only_the_owner_or_an_admin_cancels_a_shared_job_and_everyone_hears_it(tmp_path: Path) -> None:
    async def scenario() -> None:
        board = _board()
        job = board.submit(TALLY, _tally(ANN, tmp_path / "t"))
        board.submit(TALLY, _tally(BOB, tmp_path / "t"))
        with pytest.raises(UsageError, match=r"job 1 is ann's \(you sent the same request, so you get its answer\)"):
            board.cancel(job.id, BOB)
        board.cancel(job.id, ADMIN)
        reply, status = await job.outcome
        assert status == 1 and "cancelled by root before it started" in reply.text
        assert board.submit(TALLY, _tally(BOB, tmp_path / "t")) is not job  # finished: a repeat is a new job

    asyncio.run(scenario())


@pytest.mark.slow
async def test_two_askers_of_one_request_get_one_run_both_progress_and_the_answer(tmp_path: Path) -> None:
    file = tmp_path / "tally"
    board = _board(workers=2)
    await board.start()
    try:
        ann_lines: list[str] = []
        bob_lines: list[str] = []
        first = board.submit(
            TALLY, _tally(ANN, file, steps="3", pause="0.2"), on_progress=lambda line, f=None: ann_lines.append(line)
        )
        while first.state != "running":
            await asyncio.sleep(0.01)
        bobs = _tally(BOB, file, steps="3", pause="0.2")
        joined = board.submit(TALLY, bobs, on_progress=lambda line, f=None: bob_lines.append(line))
        assert joined is first
        assert board.acknowledgement(joined, bobs) == "same request as job 1 (ann's, running): you get its answer too"
        reply, status = await first.outcome
        assert status == 0 and reply.text == "tallied: 1 run(s)"
        assert len(file.read_text().splitlines()) == 1  # both asked, one worker process ran it
        assert ann_lines[0] == "running" and ann_lines[-1] == "tally step 3/3"
        assert bob_lines and bob_lines[-1] == "tally step 3/3"  # the one who joined sees the same progress
        again = board.submit(TALLY, _tally(BOB, file, steps="1", pause="0"))  # finished: sent again, it runs again
        reply, _ = await again.outcome
        assert again is not first and reply.text == "tallied: 2 run(s)"
    finally:
        await board.stop()


@pytest.mark.slow
async def test_in_the_chat_two_members_get_the_one_answer_each_in_their_own_topic(
    fake: FakeBotApi, tmp_path: Path
) -> None:
    file = tmp_path / "tally"
    request = f"/tally file={file} steps=4 pause=0.2"
    async with running_bot(fake):
        fake.push_message(chat_id=GROUP, user_id=MEMBER, username="ann", text=request)
        await until(fake, lambda cs: any("queued as job 1" in t or "job 1 started" in t for t in texts(cs)))
        fake.push_message(chat_id=GROUP, user_id=OTHER_MEMBER, username="bob", thread_id=TOPIC, text=request)
        calls = await until(fake, lambda cs: sum("tallied" in t for t in texts(cs)) == 2)
    now = shown(calls)  # each asker's acknowledgement is edited into the answer (one message per job and asker)
    sent = [c for c in calls if c.method == "sendMessage" and c.result]
    answers = [(c, now[int(c.result["message_id"])]) for c in sent if "tallied" in now[int(c.result["message_id"])]]
    assert [text.splitlines()[-1] for _, text in answers] == ["tallied: 1 run(s)", "tallied: 1 run(s)"]
    assert sorted(c.params.get("message_thread_id", "") for c, _ in answers) == ["", str(TOPIC)]
    assert len(file.read_text().splitlines()) == 1
    bob_ack = next(
        c for c in calls if c.method == "sendMessage" and c.params.get("message_thread_id") == str(TOPIC)
    ).params["text"]
    assert "same request as job 1 (ann's" in bob_ack and "you get its answer too" in bob_ack
    assert not any("#2" in t for t in texts(calls))  # no second job was made


@pytest.mark.slow
async def test_a_member_repeating_a_sleepy_request_attaches_while_another_members_runs_apart(
    fake: FakeBotApi,
) -> None:
    """``sleepy`` is not a shared answer: the same member's repeat attaches, another member's identical one is a job of
    their own (as a note or an idea is)."""
    async with running_bot(fake):
        for user in (MEMBER, MEMBER, OTHER_MEMBER):
            fake.push_message(chat_id=GROUP, user_id=user, text="/sleepy steps=3 pause=0.2")

        def answered(calls: list[Call]) -> bool:  # three answers: both of the member's askings and the other's
            return sum("slept 3 steps" in t for t in texts(calls)) >= 3

        calls = await until(fake, answered)
    # each answer is headed by its job. The updates are handled concurrently, so which asker's job is #1 varies; what
    # holds is two jobs, one answering twice (the member's two askings) and one once (the other member's). A repeat
    # that started a job of its own would make three jobs; an attach across members, one job answering three times.
    answers = Counter(" ".join(t.split()[:2]) for t in texts(calls) if "slept 3 steps" in t)
    assert set(answers) == {"job 1", "job 2"} and sorted(answers.values()) == [1, 2]
    assert SLEEPY.shared_answer is False
