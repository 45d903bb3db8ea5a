"""The fair queue: turns between members, a cap on one member's running jobs while others wait, and limit failures
pushing a member back — the pure rule (bot/jobs/fair_queue.py) on hand-made cases, then the board with real local
workers, where the order jobs start in is read from the jobs themselves."""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter

import pytest

from bot.app import run_in_worker
from bot.commands.base import Caller, Invocation
from bot.executors.local import ProcessRunner
from bot.jobs.board import Job, JobBoard
from bot.jobs.fair_queue import FairShare, LimitFailures, line_order, pick
from bot.settings import Settings
from tests.bot.fixture_commands import LIMITED, SLEEPY
from tools.config.policy import RunPolicy

ANN = Caller(name="ann", user_id=1)
BOB = Caller(name="bob", user_id=2)
TAGS = itertools.count(1)


def _never(member: object) -> bool:
    return False


# -- the rule -----------------------------------------------------------------------------------------------------
def test_members_take_turns_the_least_recently_served_first() -> None:
    waiting = ["ann", "ann", "ann", "bob"]
    assert pick(waiting, Counter(), cap=1, pushed_back=_never, last_start={}) == 0  # nobody served: oldest job
    assert pick(waiting, Counter(), cap=1, pushed_back=_never, last_start={"ann": 5}) == 3  # bob's turn
    assert pick(waiting, Counter(), cap=1, pushed_back=_never, last_start={"ann": 5, "bob": 6}) == 0
    assert line_order(waiting, pushed_back=_never, last_start={}) == [0, 3, 1, 2]
    assert pick([], Counter(), cap=1, pushed_back=_never, last_start={}) is None


def test_the_cap_binds_only_while_another_member_waits_and_never_idles_a_worker() -> None:
    # bob started more recently, so by turns ann would go; but ann already has cap (1) jobs running
    turns = {"ann": 1, "bob": 2}
    assert pick(["ann", "bob"], Counter({"ann": 1}), cap=1, pushed_back=_never, last_start=turns) == 1
    # ann alone in the line may use every worker
    assert pick(["ann", "ann"], Counter({"ann": 3}), cap=1, pushed_back=_never, last_start=turns) == 0
    # both at the cap: a free worker still takes a job, by turn
    assert pick(["ann", "bob"], Counter({"ann": 1, "bob": 1}), cap=1, pushed_back=_never, last_start=turns) == 0


def test_a_member_over_the_limit_failure_budget_goes_after_everyone_else() -> None:
    turns = {"ann": 1, "bob": 2}
    ann_back = lambda member: member == "ann"  # noqa: E731
    assert pick(["ann", "bob"], Counter(), cap=1, pushed_back=ann_back, last_start=turns) == 1
    assert pick(["ann", "ann"], Counter(), cap=1, pushed_back=ann_back, last_start=turns) == 0  # alone: still runs
    assert line_order(["ann", "ann", "bob", "bob"], pushed_back=ann_back, last_start=turns) == [2, 3, 0, 1]


def test_the_cap_is_every_worker_but_one_unless_the_admins_set_it() -> None:
    assert [FairShare().cap(w) for w in (1, 2, 4)] == [1, 1, 3]
    assert FairShare(running_per_member=2).cap(4) == 2


def test_limit_failures_age_out_after_the_hour() -> None:
    now = [0.0]
    failures = LimitFailures(lambda: now[0])
    failures.record("ann")
    now[0] = 1800.0
    failures.record("ann")
    assert failures.count("ann") == 2 and failures.over_budget("ann", 2) and not failures.over_budget("bob", 1)
    now[0] = 3600.0  # the first one is an hour old
    assert failures.count("ann") == 1 and not failures.over_budget("ann", 2)


# -- the board, with real worker processes ------------------------------------------------------------------------
def _board(**kwargs: object) -> JobBoard:
    return JobBoard(ProcessRunner(Settings(), job=run_in_worker), **kwargs)  # type: ignore[arg-type]


def _sleepy(caller: Caller, steps: int, pause: float = 0.1) -> Invocation:
    options = {"steps": str(steps), "pause": str(pause), "tag": str(next(TAGS))}
    return Invocation(command="sleepy", options=options, caller=caller)


def _start_order(jobs: list[Job]) -> list[str]:
    """Jobs named by member and the member's own count (``ann3``), in the order they started."""
    sent: Counter[str] = Counter()
    names = {}
    for job in jobs:
        sent[job.owner.name] += 1
        names[id(job)] = f"{job.owner.name}{sent[job.owner.name]}"
    return [names[id(j)] for j in sorted(jobs, key=lambda j: j.started_at or float("inf"))]


async def _running(*jobs: Job) -> None:
    while any(j.state != "running" for j in jobs):
        await asyncio.sleep(0.01)


@pytest.mark.slow
async def test_a_flood_from_one_member_does_not_hold_back_anothers_job() -> None:
    """ann sends four slow jobs to a board of two workers; bob's one job, sent after them, starts as soon as a worker
    frees (before ann's third), and ann never holds both workers again while bob waits. A first-come queue would
    start ann1 … ann4 and then bob."""
    board = _board(workers=2, per_member=10)
    await board.start()
    try:
        flood = [board.submit(SLEEPY, _sleepy(ANN, steps=6)) for _ in range(4)]
        await _running(*flood[:2])
        bob = board.submit(SLEEPY, _sleepy(BOB, steps=1))
        assert [board.position(j) for j in (*flood[2:], bob)] == [2, 3, 1]  # /queue shows bob next
        await asyncio.gather(*(j.outcome for j in (*flood, bob)))
    finally:
        await board.stop()
    assert _start_order([*flood, bob]) == ["ann1", "ann2", "bob1", "ann3", "ann4"]


@pytest.mark.slow
@pytest.mark.parametrize("first_job_hits_a_limit", [True, False])
async def test_limit_failures_push_a_member_back(first_job_hits_a_limit: bool) -> None:
    """One worker. ann's first job ends on a resource limit (or, as the control, passes); then bob's job runs, so by
    turns ann would go next. With ann over her budget of one limit failure, bob's next job goes first instead."""
    policy = RunPolicy(
        challenges=(),
        methods=(),
        cpu_s=1,
        wall_s=1,
        memory_mib=256,
        job_wall_s=600,
        queue_per_member=10,
        limit_failures_per_hour=1,
    )
    board = _board(workers=1)
    await board.start()
    try:
        if first_job_hits_a_limit:
            first = board.submit(LIMITED, Invocation(command="limited", caller=ANN), policy=policy)
        else:
            first = board.submit(SLEEPY, _sleepy(ANN, steps=1, pause=0), policy=policy)
        await first.outcome
        blocker = board.submit(SLEEPY, _sleepy(BOB, steps=3), policy=policy)
        await _running(blocker)
        ann_next = board.submit(SLEEPY, _sleepy(ANN, steps=1, pause=0), policy=policy)
        bob_next = board.submit(SLEEPY, _sleepy(BOB, steps=1, pause=0), policy=policy)
        await asyncio.gather(blocker.outcome, ann_next.outcome, bob_next.outcome)
    finally:
        await board.stop()
    assert board.limit_failures(ANN) == (1 if first_job_hits_a_limit else 0) and board.limit_failures(BOB) == 0
    assert ann_next.started_at is not None and bob_next.started_at is not None
    assert (bob_next.started_at < ann_next.started_at) is first_job_hits_a_limit


@pytest.mark.slow
async def test_a_job_stopped_by_the_job_time_limit_counts_as_a_limit_failure() -> None:
    board = _board(workers=1)
    await board.start()
    try:
        slow = board.submit(SLEEPY, _sleepy(ANN, steps=400, pause=0.05), wall_limit_s=0.5)
        await slow.outcome
    finally:
        await board.stop()
    assert slow.state == "stopped" and board.limit_failures(ANN) == 1
