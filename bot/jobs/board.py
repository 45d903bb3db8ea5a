"""The job board: the line of queued jobs, the workers that take them, positions, limits, duplicates and cancel.

A job is one command invocation that runs through an :class:`~bot.executors.base.Executor`: a local worker process
(bot/executors/local.py) or a task on a Dask cluster (bot/executors/dask_cluster.py). Members get an id at once
(``#N``) and a position in line; at most ``workers`` jobs run at a time; a member may have at most
``per_member`` jobs queued or running and submit at most ``rate_per_minute`` per minute. Which queued job a free
worker takes is fair_queue.py's rule: members take turns, one member cannot hold every worker while others wait,
and a member whose jobs keep ending on resource limits goes after everyone else.

The same request (:func:`~bot.executors.keys.job_key`: same command, arguments, options and attachments; the same
member too unless the command's answer is shared) sent while its job is queued or running *attaches* to that job
instead of starting another: each asker is told so, sees its progress and gets its answer in their own chat.
``cancel`` removes a queued job or kills a running one (its owner, or an admin) for everyone attached to it.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from bot.command import Command
from bot.executors.base import Execution, Executor, JobKilled
from bot.executors.keys import job_key
from bot.incidents import incident_line, report_incident
from bot.invocation import Caller, Invocation, UsageError
from bot.jobs.fair_queue import FairShare, LimitFailures, line_order, pick
from bot.jobs.labels import job_label
from bot.jobs.limits import RateWindow
from bot.reply import Reply
from engine.progress import Progress
from engine.result import FailureKind

if TYPE_CHECKING:
    from tools.config.policy import RunPolicy

State = Literal["queued", "running", "done", "cancelled", "stopped"]


def member_key(caller: Caller) -> object:
    """Whose quota a job counts against: the user, or the chat for anonymous admins."""
    return ("user", caller.user_id) if caller.user_id is not None else ("chat", caller.chat_id, caller.name)


def _ignore_progress(line: str, fraction: float | None = None) -> None:
    """Default progress sink."""


@dataclass(eq=False)
class Asker:
    """Someone waiting for a job's answer: who sent the job, or sent the same request while it was queued or
    running; ``on_progress`` is where their copy of the progress goes (their acknowledgement message)."""

    caller: Caller
    on_progress: Progress = _ignore_progress


HELD_FACTOR = 4
"""A member's jobs past ``limits.queue_per_member`` wait behind everyone else's (held) rather than being refused,
up to this many times that number; past it a new job is refused."""


@dataclass(frozen=True)
class Held:
    """The place in line of a member's held jobs: a member of its own, pushed back behind every other member
    (fair_queue.py's push-back rule), so a member's backlog never delays anyone else's job."""

    member: Hashable


@dataclass(eq=False)
class Job:
    """One queued or running command invocation, and everyone waiting for its answer (``askers``, the owner first).

    ``outcome`` is shared: every asker gets the same reply, each in their own chat.
    """

    id: int
    command: Command
    invocation: Invocation
    submitted_at: float
    key: str = ""
    askers: list[Asker] = field(default_factory=list)
    state: State = "queued"
    started_at: float | None = None
    finished_at: float | None = None
    cancelled_by: str | None = None
    stop_reason: str | None = None
    wall_limit_s: float | None = None
    held: bool = False
    """Sent while its member already had their share of jobs queued or running: it waits behind every other
    member's queued jobs (:meth:`JobBoard.submit`)."""
    timed_out: bool = False
    last_progress: str = ""
    worker: Execution | None = None
    outcome: asyncio.Future[tuple[Reply, int]] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )

    @property
    def owner(self) -> Caller:
        return self.invocation.caller

    def on_progress(self, line: str, fraction: float | None = None) -> None:
        """A progress line, to every asker."""
        self.last_progress = line
        for asker in list(self.askers):
            asker.on_progress(line, fraction)

    def describe(self) -> str:
        """``/run local_update n=20`` — the command as the member typed it (approximately)."""
        words = [
            f"/{self.command.name}",
            *self.invocation.args,
            *(f"{k}={v}" for k, v in self.invocation.options.items()),
        ]
        return " ".join(words)


class JobBoard:
    """The queue in the bot process. ``submit`` is synchronous and immediate; the result is awaited separately."""

    def __init__(
        self,
        runner: Executor,
        *,
        workers: int = 2,
        per_member: int = 3,
        rate_per_minute: int = 10,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._runner = runner
        self._workers = max(1, workers)
        self._per_member = per_member
        self._rate_per_minute = rate_per_minute
        self._rate = RateWindow(rate_per_minute, 60.0, clock)
        self._clock = clock
        self._ids = itertools.count(1)
        self._waiting: list[Job] = []
        self._running: list[Job] = []
        self._by_key: dict[str, Job] = {}
        self._share = FairShare()
        self._limit_failures = LimitFailures(clock)
        self._turns = itertools.count()
        self._last_start: dict[object, int] = {}
        self._wakeup = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._loop: asyncio.AbstractEventLoop | None = None

    # -- lifecycle ------------------------------------------------------------------------------------
    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._tasks = [asyncio.create_task(self._work(), name=f"job-worker-{i}") for i in range(self._workers)]

    async def stop(self, reason: str = "the bot is shutting down") -> None:
        """Stop taking jobs: queued ones and running ones end with a one-line reply saying so."""
        for job in list(self._waiting):
            job.stop_reason = reason
            text = f"{job_label(job.id)} {job.describe()} was not run: {reason}; send it again"
            self._finish(job, Reply(text=text, ok=False), 1)
        self._waiting.clear()
        running = list(self._running)
        for job in running:
            job.stop_reason = reason
            if job.worker is not None:
                job.worker.kill()
        if running:
            await asyncio.wait([job.outcome for job in running], timeout=5)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []
        for job in running:  # a worker that did not end in time
            text = f"{job_label(job.id)} {job.describe()} was stopped: {reason}; send it again"
            self._finish(job, Reply(text=text, ok=False), 1)

    # -- members' operations --------------------------------------------------------------------------
    def submit(
        self,
        command: Command,
        inv: Invocation,
        on_progress: Progress = _ignore_progress,
        *,
        policy: RunPolicy | None = None,
        per_member: int | None = None,
        wall_limit_s: float | None = None,
    ) -> Job:
        """Put a job in line, or attach to the queued or running job of the same request; raise
        :class:`UsageError` on the queue limit or the rate limit.

        ``policy``: the admins' rules read by the caller for this request (``/config``): ``limits.queue_per_member``,
        ``limits.job_wall_s`` (a job is stopped once it has run that long) and the fairness settings, which then
        apply to the whole board. ``per_member`` / ``wall_limit_s`` override the first two. An attached request
        is not a new job: it counts against the rate limit, not the queue limit.
        """
        if policy is not None:
            self._share = FairShare(policy.running_per_member, policy.limit_failures_per_hour)
            per_member = policy.queue_per_member if per_member is None else per_member
            wall_limit_s = policy.job_wall_s if wall_limit_s is None else wall_limit_s
        key = job_key(command, inv)
        member = member_key(inv.caller)
        same = self._by_key.get(key)
        held = False
        if same is None:
            share = self._per_member if per_member is None else per_member
            mine = [j for j in self.active() if member_key(j.owner) == member]
            if len(mine) >= HELD_FACTOR * share:
                ids = ", ".join(job_label(j.id) for j in mine[:8]) + (" …" if len(mine) > 8 else "")
                raise UsageError(
                    f"you already have {len(mine)} jobs queued or running ({ids}), the most one member may",
                    hint="wait for one to finish, or /cancel ID",
                )
            held = len(mine) >= share
        wait = self._rate.retry_in(member)
        if wait > 0:
            raise UsageError(
                f"rate limit: at most {self._rate_per_minute} jobs a minute per member",
                hint=f"try again in {wait:.0f} s",
            )
        self._rate.record(member)
        if same is not None:
            same.askers.append(Asker(inv.caller, on_progress))
            return same
        job = Job(
            id=next(self._ids),
            command=command,
            invocation=inv,
            submitted_at=self._clock(),
            key=key,
            askers=[Asker(inv.caller, on_progress)],
            wall_limit_s=wall_limit_s,
            held=held,
        )
        self._waiting.append(job)
        self._by_key[key] = job
        self._wakeup.set()
        return job

    def acknowledgement(self, job: Job, inv: Invocation) -> str:
        """The first line the sender of ``inv`` sees for ``job`` (what :meth:`submit` returned for ``inv``): its
        place in line, or that ``inv`` joined the job of the same request."""
        position = self.position(job)
        if job.invocation is not inv:
            whose = "yours" if member_key(job.owner) == member_key(inv.caller) else f"{job.owner.name}'s"
            where = f"position {position}" if position else "running"
            return f"same request as {job_label(job.id)} ({whose}, {where}): you get its answer too"
        name = job_label(job.id)
        if job.held and position:
            return f"queued as {name}, position {position}: you have several jobs waiting, it starts after others'"
        return f"queued as {name}, position {position}" if position else f"{name} started"

    def position(self, job: Job) -> int:
        """0 while running (or finished), else 1-based place in line (the order fair_queue.py would start them)."""
        if job not in self._waiting:
            return 0
        order = line_order(
            [line_key(j) for j in self._waiting], pushed_back=self._pushed_back, last_start=self._last_start
        )
        return order.index(self._waiting.index(job)) + 1

    def limit_failures(self, caller: Caller) -> int:
        """How many of ``caller``'s jobs ended on a resource limit within the last hour."""
        return self._limit_failures.count(member_key(caller))

    def active(self) -> list[Job]:
        """Running jobs, then queued ones in the order they would start."""
        order = line_order(
            [line_key(j) for j in self._waiting], pushed_back=self._pushed_back, last_start=self._last_start
        )
        return [*self._running, *(self._waiting[i] for i in order)]

    def cancel(self, job_id: int, caller: Caller) -> Job:
        """Cancel job ``job_id`` (owner or admin); raises :class:`UsageError` when not found or not allowed.

        Safe to call from another thread (commands run off the event loop): the change is made on the loop.
        """
        try:
            current: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            current = None
        if self._loop is not None and current is not self._loop:
            return asyncio.run_coroutine_threadsafe(self._cancel_on_loop(job_id, caller), self._loop).result(10)
        return self._cancel(job_id, caller)

    async def _cancel_on_loop(self, job_id: int, caller: Caller) -> Job:
        return self._cancel(job_id, caller)

    def _cancel(self, job_id: int, caller: Caller) -> Job:
        job = next((j for j in self.active() if j.id == job_id), None)
        if job is None:
            raise UsageError(f"no queued or running {job_label(job_id)}", hint="/queue lists them")
        if not caller.is_admin and member_key(caller) != member_key(job.owner):
            if any(member_key(a.caller) == member_key(caller) for a in job.askers):
                raise UsageError(
                    f"{job_label(job_id)} is {job.owner.name}'s (you sent the same request, so you get its answer)",
                    hint=f"{job.owner.name} or an admin can cancel it",
                )
            raise UsageError(
                f"{job_label(job_id)} is {job.owner.name}'s", hint="you can cancel your own jobs; admins any"
            )
        job.cancelled_by = caller.name
        self._forget(job)  # a request sent from now on is a new job, not one being killed
        if job in self._waiting:
            self._waiting.remove(job)
            said = f"{job_label(job.id)} cancelled by {caller.name} before it started"
            self._finish(job, Reply(text=said, ok=False), 1)
        elif job.worker is not None:
            job.worker.kill()  # the worker task sees the pipe close and finishes the job
        return job

    # -- the workers ----------------------------------------------------------------------------------
    def _pushed_back(self, member: object) -> bool:
        if isinstance(member, Held):
            return True
        return self._limit_failures.over_budget(member, self._share.limit_failures_per_hour)

    def _take_next(self) -> Job | None:
        """The queued job a free worker starts now (fair_queue.py), removed from the line; None when none waits."""
        at = pick(
            [line_key(j) for j in self._waiting],
            Counter(member_key(j.owner) for j in self._running),
            cap=self._share.cap(self._workers),
            pushed_back=self._pushed_back,
            last_start=self._last_start,
        )
        if at is None:
            return None
        job = self._waiting.pop(at)
        self._last_start[line_key(job)] = next(self._turns)
        return job

    async def _work(self) -> None:
        while True:
            while (job := self._take_next()) is None:
                self._wakeup.clear()
                await self._wakeup.wait()
            self._running.append(job)
            job.state = "running"
            job.started_at = self._clock()
            job.on_progress("running", None)
            try:
                reply, status = await self._run(job)
            finally:
                if job in self._running:
                    self._running.remove(job)
            self._finish(job, reply, status)

    async def _run(self, job: Job) -> tuple[Reply, int]:
        job.worker = self._runner.worker(job.command, job.invocation)
        progress = job.on_progress
        timer = None
        if job.wall_limit_s is not None:
            timer = asyncio.get_running_loop().call_later(job.wall_limit_s, self._overran, job)
        try:
            answered = await job.worker.run(progress)
        except JobKilled as exc:
            if job.timed_out:
                text = (
                    f"{job_label(job.id)} {job.describe()} was stopped: it ran past the job time limit "
                    f"({job.wall_limit_s:g} s) — try smaller parameters, or an admin can raise limits.job_wall_s"
                )
                return Reply(text=text, ok=False), 1
            if job.stop_reason is not None:
                text = f"{job_label(job.id)} {job.describe()} was stopped: {job.stop_reason}; send it again"
                return Reply(text=text, ok=False), 1
            if job.cancelled_by is not None:
                said = f"{job_label(job.id)} cancelled by {job.cancelled_by}; its processes were killed"
                return Reply(text=said, ok=False), 1
            incident = report_incident(exc, where=f"worker of {job.command.name}")  # died, not cancelled
            return Reply(text=incident_line(incident), ok=False), 3
        except Exception as exc:  # noqa: BLE001 - an executor's bug must cost one answer, never a board worker
            incident = report_incident(exc, where=f"executor of {job.command.name}")
            return Reply(text=incident_line(incident), ok=False), 3
        finally:
            if timer is not None:
                timer.cancel()
        if job.timed_out:  # the worker answered before the kill landed: its answer stands
            job.timed_out, job.stop_reason = False, None
        return answered

    def _overran(self, job: Job) -> None:
        """The job's wall-clock limit passed while it was running: kill its worker (the run ends as stopped)."""
        if job.state != "running" or job.worker is None:
            return
        job.timed_out = True
        job.stop_reason = f"ran past the job time limit ({job.wall_limit_s:g} s)"
        self._forget(job)
        job.worker.kill()

    def _forget(self, job: Job) -> None:
        """Identical requests no longer attach to ``job`` (it ended, or is being stopped): a repeat is a new job."""
        if self._by_key.get(job.key) is job:
            del self._by_key[job.key]

    def _finish(self, job: Job, reply: Reply, status: int) -> None:
        job.state = "stopped" if job.stop_reason else "cancelled" if job.cancelled_by is not None else "done"
        job.finished_at = self._clock()
        self._forget(job)
        if job.timed_out or reply.failure_kind is FailureKind.LIMIT:
            self._limit_failures.record(member_key(job.owner))
        if not job.outcome.done():
            job.outcome.set_result((reply, status))


def line_key(job: Job) -> Hashable:
    """Who ``job`` queues as in the fair line: its member, or its member's held place (:class:`Held`)."""
    member = member_key(job.owner)
    return Held(member) if job.held else member
