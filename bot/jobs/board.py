"""The job board: the line of queued jobs, the workers that take them, positions, limits and cancel.

A job is one command invocation that runs through an :class:`~bot.executors.base.Executor`: a local worker process
(see process.py) or a task on a Dask cluster (bot/executors/). Members get an id at once
(``#N``) and a position in line; at most ``workers`` jobs run at a time; a member may have at most
``per_member`` jobs queued or running and submit at most ``rate_per_minute`` per minute. ``cancel`` removes a
queued job or kills a running one (its owner, or an admin).
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from bot.command import Command
from bot.executors.base import Execution, Executor, JobKilled
from bot.incidents import incident_line, report_incident
from bot.invocation import Caller, Invocation, UsageError
from bot.jobs.limits import RateWindow
from bot.reply import Reply
from engine.progress import Progress

State = Literal["queued", "running", "done", "cancelled", "stopped"]


def member_key(caller: Caller) -> object:
    """Whose quota a job counts against: the user, or the chat for anonymous admins."""
    return ("user", caller.user_id) if caller.user_id is not None else ("chat", caller.chat_id, caller.name)


def _ignore_progress(line: str, fraction: float | None = None) -> None:
    """Default progress sink."""


@dataclass(eq=False)
class Job:
    """One queued or running command invocation."""

    id: int
    command: Command
    invocation: Invocation
    submitted_at: float
    on_progress: Progress = _ignore_progress
    state: State = "queued"
    started_at: float | None = None
    finished_at: float | None = None
    cancelled_by: str | None = None
    stop_reason: str | None = None
    wall_limit_s: float | None = None
    timed_out: bool = False
    last_progress: str = ""
    worker: Execution | None = None
    outcome: asyncio.Future[tuple[Reply, int]] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )

    @property
    def owner(self) -> Caller:
        return self.invocation.caller

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
            text = f"#{job.id} {job.describe()} was not run: {reason}; send it again"
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
            text = f"#{job.id} {job.describe()} was stopped: {reason}; send it again"
            self._finish(job, Reply(text=text, ok=False), 1)

    # -- members' operations --------------------------------------------------------------------------
    def submit(
        self,
        command: Command,
        inv: Invocation,
        on_progress: Progress = _ignore_progress,
        *,
        per_member: int | None = None,
        wall_limit_s: float | None = None,
    ) -> Job:
        """Put a job in line or raise :class:`UsageError` (queue limit, rate limit).

        ``per_member`` replaces the board's queue limit for this check (the admins' ``limits.queue_per_member``
        read by the caller); ``wall_limit_s`` stops the job once it has run that long (``limits.job_wall_s``).
        """
        key = member_key(inv.caller)
        mine = [j for j in self.active() if member_key(j.owner) == key]
        if len(mine) >= (self._per_member if per_member is None else per_member):
            ids = ", ".join(f"#{j.id}" for j in mine)
            raise UsageError(
                f"you already have {len(mine)} jobs queued or running ({ids})",
                hint="wait for one to finish, or /cancel ID",
            )
        wait = self._rate.retry_in(key)
        if wait > 0:
            raise UsageError(
                f"rate limit: at most {self._rate_per_minute} jobs a minute per member",
                hint=f"try again in {wait:.0f} s",
            )
        self._rate.record(key)
        job = Job(
            id=next(self._ids),
            command=command,
            invocation=inv,
            submitted_at=self._clock(),
            on_progress=on_progress,
            wall_limit_s=wall_limit_s,
        )
        self._waiting.append(job)
        self._wakeup.set()
        return job

    def position(self, job: Job) -> int:
        """0 while running (or finished), else 1-based place in line."""
        return self._waiting.index(job) + 1 if job in self._waiting else 0

    def active(self) -> list[Job]:
        """Running jobs, then queued ones in order."""
        return [*self._running, *self._waiting]

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
            raise UsageError(f"no queued or running job #{job_id}", hint="/queue lists them")
        if not caller.is_admin and member_key(caller) != member_key(job.owner):
            raise UsageError(f"#{job_id} is {job.owner.name}'s job", hint="you can cancel your own jobs; admins any")
        job.cancelled_by = caller.name
        if job in self._waiting:
            self._waiting.remove(job)
            self._finish(job, Reply(text=f"#{job.id} cancelled by {caller.name} before it started", ok=False), 1)
        elif job.worker is not None:
            job.worker.kill()  # the worker task sees the pipe close and finishes the job
        return job

    # -- the workers ----------------------------------------------------------------------------------
    async def _work(self) -> None:
        while True:
            while not self._waiting:
                self._wakeup.clear()
                await self._wakeup.wait()
            job = self._waiting.pop(0)
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

        def progress(line: str, fraction: float | None = None) -> None:
            job.last_progress = line
            job.on_progress(line, fraction)

        timer = None
        if job.wall_limit_s is not None:
            timer = asyncio.get_running_loop().call_later(job.wall_limit_s, self._overran, job)
        try:
            answered = await job.worker.run(progress)
        except JobKilled as exc:
            if job.timed_out:
                text = (
                    f"#{job.id} {job.describe()} was stopped: it ran past the job time limit "
                    f"({job.wall_limit_s:g} s) — try smaller parameters, or an admin can raise limits.job_wall_s"
                )
                return Reply(text=text, ok=False), 1
            if job.stop_reason is not None:
                text = f"#{job.id} {job.describe()} was stopped: {job.stop_reason}; send it again"
                return Reply(text=text, ok=False), 1
            if job.cancelled_by is not None:
                return Reply(text=f"#{job.id} cancelled by {job.cancelled_by}; its processes were killed", ok=False), 1
            incident = report_incident(exc, where=f"worker of {job.command.name}")  # died, not cancelled
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
        job.worker.kill()

    def _finish(self, job: Job, reply: Reply, status: int) -> None:
        job.state = "stopped" if job.stop_reason else "cancelled" if job.cancelled_by is not None else "done"
        job.finished_at = self._clock()
        if not job.outcome.done():
            job.outcome.set_result((reply, status))
