"""The job board: positions, per-member queue limit, rate limit, cancel rights, shutdown, a real worker run."""

from __future__ import annotations

import itertools

import pytest

from bot.app import run_in_worker
from bot.commands.base import Caller, Invocation, UsageError
from bot.executors.local import ProcessRunner
from bot.jobs.board import JobBoard
from bot.settings import Settings
from tests.bot.fixture_commands import BROKEN, SLEEPY

ANN = Caller(name="ann", user_id=1)
BOB = Caller(name="bob", user_id=2)
ADMIN = Caller(name="root", user_id=9, is_admin=True)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


_TAGS = itertools.count(1)


def _inv(caller: Caller, **options: str) -> Invocation:
    """A distinct request each call (a ``tag`` option the fixture ignores): identical ones would attach."""
    return Invocation(command="sleepy", options={"tag": str(next(_TAGS)), **options}, caller=caller)


def _board(**kwargs: object) -> JobBoard:
    return JobBoard(ProcessRunner(Settings(), job=run_in_worker), **kwargs)  # type: ignore[arg-type]


async def test_positions_follow_submission_order_and_close_up_on_cancel() -> None:
    board = _board(per_member=5)
    jobs = [board.submit(SLEEPY, _inv(c)) for c in (ANN, BOB, ANN)]
    assert [j.id for j in jobs] == [1, 2, 3]
    assert [board.position(j) for j in jobs] == [1, 2, 3]
    board.cancel(2, BOB)
    assert [board.position(j) for j in (jobs[0], jobs[2])] == [1, 2]
    reply, status = await jobs[1].outcome
    assert status == 1 and "cancelled by bob before it started" in reply.text


async def test_past_the_per_member_share_jobs_wait_behind_everyone_else_and_past_four_times_it_are_refused() -> None:
    board = _board(per_member=2)
    ann = [board.submit(SLEEPY, _inv(ANN), policy=None) for _ in range(2)]
    held = board.submit(SLEEPY, _inv(ANN))  # over ann's share of 2: accepted, held
    bob = board.submit(SLEEPY, _inv(BOB))  # sent after it, but bob has no backlog
    assert not any(j.held for j in ann) and held.held and not bob.held
    assert [board.position(j) for j in (*ann, bob, held)] == [1, 3, 2, 4]  # ann, bob (turns), ann, then the held one
    assert "after others'" in board.acknowledgement(held, held.invocation)
    assert "after" not in board.acknowledgement(bob, bob.invocation)
    for _ in range(5):  # 2 + 1 + 5 = 8 = 4 × the share
        board.submit(SLEEPY, _inv(ANN))
    with pytest.raises(UsageError, match=r"already have 8 jobs queued or running \(job 1, job 2, .*\), the most"):
        board.submit(SLEEPY, _inv(ANN))
    board.submit(SLEEPY, _inv(BOB))  # another member is not affected


async def test_rate_limit_per_member_over_a_sliding_minute() -> None:
    clock = Clock()
    board = _board(per_member=100, rate_per_minute=2, clock=clock)
    board.submit(SLEEPY, _inv(ANN))
    clock.now += 30
    board.submit(SLEEPY, _inv(ANN))
    with pytest.raises(UsageError) as err:
        board.submit(SLEEPY, _inv(ANN))
    assert "try again in 30 s" in err.value.one_line()
    clock.now += 30  # the first submission left the window
    board.submit(SLEEPY, _inv(ANN))


async def test_only_the_owner_or_an_admin_may_cancel() -> None:
    board = _board()
    job = board.submit(SLEEPY, _inv(ANN))
    with pytest.raises(UsageError, match="job 1 is ann's"):
        board.cancel(job.id, BOB)
    with pytest.raises(UsageError, match="no queued or running job 99"):
        board.cancel(99, ADMIN)
    board.cancel(job.id, ADMIN)
    assert job.state == "cancelled" and job.cancelled_by == "root"


async def test_stop_answers_every_queued_job() -> None:
    board = _board()
    job = board.submit(SLEEPY, _inv(ANN))
    await board.stop()
    reply, status = await job.outcome
    assert status == 1 and "was not run: the bot is shutting down; send it again" in reply.text


@pytest.mark.slow
async def test_jobs_run_in_worker_processes_and_errors_come_back_as_one_line() -> None:
    import os

    board = _board(workers=2)
    await board.start()
    try:
        lines: list[str] = []
        ok = board.submit(SLEEPY, _inv(ANN, steps="2", pause="0"), on_progress=lambda line, f=None: lines.append(line))
        bad = board.submit(BROKEN, Invocation(command="broken", caller=BOB))
        reply, status = await ok.outcome
        assert status == 0 and reply.data is not None and reply.data["pid"] != os.getpid()
        assert lines == ["running", "step 1/2", "step 2/2"]
        reply, status = await bad.outcome
        assert status == 3 and reply.text.startswith("internal error (incident ")
        assert board.active() == []
    finally:
        await board.stop()


@pytest.mark.slow
async def test_a_worker_never_receives_the_bot_token() -> None:
    from pydantic import SecretStr

    from tests.bot.fixture_commands import ENVIRONMENT

    board = JobBoard(ProcessRunner(Settings(telegram_bot_token=SecretStr("123:secret-token-value")), job=run_in_worker))
    await board.start()
    try:
        job = board.submit(ENVIRONMENT, Invocation(command="environment", caller=ANN))
        reply, status = await job.outcome
    finally:
        await board.stop()
    assert status == 0 and reply.data == {"token": None, "pid": reply.data["pid"]}


@pytest.mark.slow
async def test_cancel_from_a_command_thread_is_applied_on_the_event_loop() -> None:
    import asyncio

    board = _board(workers=1)
    await board.start()
    try:
        running = board.submit(SLEEPY, _inv(ANN, steps="400", pause="0.05"))
        queued = board.submit(SLEEPY, _inv(ANN))
        while running.state != "running":
            await asyncio.sleep(0.01)
        await asyncio.to_thread(board.cancel, queued.id, ANN)  # as /cancel does, off the loop
        await asyncio.to_thread(board.cancel, running.id, ADMIN)
        # wait on the outcomes themselves (a hang is stopped by the pytest timeout): a 5 s budget ran out at load 10
        (q_reply, _), (r_reply, _) = await asyncio.gather(queued.outcome, running.outcome)
    finally:
        await board.stop()
    assert "cancelled by ann before it started" in q_reply.text
    assert "cancelled by root; its processes were killed" in r_reply.text


async def test_the_queue_limit_passed_with_a_submission_overrides_the_boards() -> None:
    """The Telegram front door passes the admins' limits.queue_per_member with each submission."""
    board = _board(per_member=5)
    first = board.submit(SLEEPY, _inv(ANN), per_member=1)
    second = board.submit(SLEEPY, _inv(ANN), per_member=1)
    assert not first.held and second.held  # the override's share (1), not the board's (5)
    for _ in range(2):
        board.submit(SLEEPY, _inv(ANN), per_member=1)
    with pytest.raises(UsageError, match=r"already have 4 jobs queued or running"):
        board.submit(SLEEPY, _inv(ANN), per_member=1)
    assert not board.submit(SLEEPY, _inv(BOB)).held  # without an override the board's own limit (5) applies


@pytest.mark.slow
async def test_a_job_past_its_time_limit_is_stopped_and_says_which_limit() -> None:

    board = _board(workers=1)
    await board.start()
    try:
        slow = board.submit(SLEEPY, _inv(ANN, steps="400", pause="0.05"), wall_limit_s=0.5)
        quick = board.submit(SLEEPY, _inv(BOB, steps="1", pause="0"), wall_limit_s=30)
        reply, status = await slow.outcome
        assert status == 1 and slow.state == "stopped"
        assert "ran past the job time limit (0.5 s)" in reply.text and "limits.job_wall_s" in reply.text
        reply, status = await quick.outcome  # the worker slot was freed
        assert status == 0 and quick.state == "done"
    finally:
        await board.stop()
