"""The Dask executor (bot side): submit each job to a Dask distributed cluster, with the database as its ledger.

``run`` writes the ledger row (``enqueue``: the same job key while queued or running attaches to that job instead
of starting another), submits :func:`~bot.executors.dask_worker.run_on_worker` under a Dask key derived from the
ledger row, and awaits it without blocking the event loop. A worker that dies mid-run is the scheduler's to retry
(``distributed.scheduler.allowed-failures``); when it gives up, the row is marked failed with that reason. ``kill``
sets the ledger's cancel flag; the worker running the job sees it within ``CANCEL_POLL_S`` and kills the job's
process group.

Progress lines come back as Dask events (``PROGRESS_TOPIC``, one subscription per client) and are handed to the
job's progress sink on the bot's event loop, so a member sees the same progress as with local workers.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

from distributed import Client, Future
from distributed.client import FutureCancelledError

from bot.command import Command
from bot.executors.base import JobKilled, WorkerJob, picklable
from bot.executors.dask_worker import PROGRESS_TOPIC, Outcome, run_on_worker
from bot.executors.job_settings import settings_for_cluster_jobs
from bot.executors.keys import job_key
from bot.executors.local import ProcessRunner, WorkerProcess
from bot.incidents import incident_line, report_incident
from bot.invocation import Invocation
from bot.reply import Reply
from bot.settings import Settings
from engine.progress import Progress
from storage.database import SessionFactory
from storage.errors import StorageError
from storage.jobs import enqueue, finish, request_cancel
from storage.tables import JOB_CANCELLED, JOB_FAILED, JobRecord

CONNECT_TIMEOUT_S = 10
"""How long the bot waits for the Dask scheduler when it first needs it (seconds)."""


def dask_key(row: JobRecord) -> str:
    """The Dask task key of the ledger row's current submission (a re-run of a finished key gets a new one)."""
    return f"sutro-job-{row.key}-{row.submitted_at.timestamp():.6f}"


class DaskExecution:
    """One job on the cluster: started by :meth:`run`, cancellable at any time by :meth:`kill`."""

    def __init__(self, executor: DaskExecutor, command: Command, inv: Invocation) -> None:
        self._executor = executor
        self._command = command
        self._inv = picklable(inv)
        self.key = job_key(command, inv)
        self.attached = False
        self.killed = False

    async def run(self, on_progress: Progress) -> tuple[Reply, int]:
        """Submit (or attach to) the job and return its reply; raises :class:`JobKilled` when it was cancelled.

        A database or cluster that cannot be reached is answered in one line (never an exception to the board).
        """
        if self.killed:  # cancelled before it was submitted: it never reaches the cluster
            try:
                await asyncio.to_thread(self._cancel_unsubmitted)
            except StorageError as exc:
                return Reply(text=f"{self._command.name} was not started: {exc.one_line()}", ok=False), 1
            raise JobKilled("cancelled before it started")
        try:
            future = await asyncio.to_thread(self._submit)
        except StorageError as exc:
            return Reply(text=f"{self._command.name} was not started: {exc.one_line()}", ok=False), 1
        except (OSError, TimeoutError) as exc:
            reason = f"the Dask cluster at {self._executor.address} did not answer ({type(exc).__name__}: {exc})"
            hint = "check SUTRO_DASK_SCHEDULER and that the scheduler runs, then send it again"
            return Reply(text=f"{self._command.name} was not started: {reason} — {hint}", ok=False), 1
        if self.killed:  # cancelled while it was being submitted
            self.kill()
        on_progress(f"running on the cluster ({self._executor.address})", None)
        unlisten = self._executor.listen(self.key, asyncio.get_running_loop(), on_progress)
        try:
            outcome = await self._outcome(future)
        except FutureCancelledError as exc:
            raise JobKilled("the cluster cancelled the task") from exc
        except Exception as exc:  # noqa: BLE001 - KilledWorker and friends: recorded, answered in one line
            return await asyncio.to_thread(self._failed, exc)
        finally:
            unlisten()
            future.release()
        state, reply, status = outcome
        if state == JOB_CANCELLED or reply is None:
            raise JobKilled("cancelled on the cluster")
        return reply, status

    def _submit(self) -> Future:
        """Ledger first, then the cluster: a new task, or the one already running for this key."""
        client = self._executor.client
        row, start = self._enqueue()
        if not start and not self._known(client, dask_key(row)):
            # the ledger says active but the cluster never heard of it (its submitter died): start it again
            with self._executor.ledger() as session:
                finish(session, key=self.key, state=JOB_FAILED, reason="lost: its submitter went away")
            row, start = self._enqueue()
        self.attached = not start
        if not start:
            return Future(dask_key(row), client=client)
        return client.submit(
            run_on_worker,
            self._executor.settings,
            self._command,
            self._inv,
            self.key,
            self._executor.job,
            key=dask_key(row),
            pure=False,
        )

    @staticmethod
    def _known(client: Client, key: str) -> bool:
        def has(dask_scheduler: Any, key: str) -> bool:
            return key in dask_scheduler.tasks

        return bool(client.run_on_scheduler(has, key=key))

    async def _outcome(self, future: Future) -> Outcome:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()

        def settle() -> None:
            if not done.done():
                done.set_result(None)

        def wake(_f: Any) -> None:
            loop.call_soon_threadsafe(settle)

        future.add_done_callback(wake)
        await done
        return await asyncio.to_thread(future.result, 30)  # type: ignore[no-any-return]

    def _enqueue(self) -> tuple[JobRecord, bool]:
        inv, caller = self._inv, self._inv.caller
        words = [f"/{self._command.name}", *inv.args, *(f"{k}={v}" for k, v in inv.options.items())]
        with self._executor.ledger() as session:
            return enqueue(
                session,
                key=self.key,
                command=self._command.name,
                description=" ".join(words),
                member=caller.name,
            )

    def _failed(self, exc: Exception) -> tuple[Reply, int]:
        name = type(exc).__name__
        if name == "KilledWorker":
            reason = f"the workers running it died too often ({exc})"
            with self._executor.ledger() as session:
                finish(session, key=self.key, state=JOB_FAILED, reason=reason)
            return Reply(text=f"{self._command.name} was not finished: {reason}; send it again", ok=False), 3
        incident = report_incident(exc, where=f"cluster task of {self._command.name}")
        with self._executor.ledger() as session:
            finish(session, key=self.key, state=JOB_FAILED, reason=f"{name}: {exc}")
        return Reply(text=incident_line(incident), ok=False), 3

    def _cancel_unsubmitted(self) -> None:
        """Record a job cancelled before its submission: a new ledger row goes straight to ``cancelled`` (no attempt);
        an asker attaching to a job already running asks the cluster to stop that one, as :meth:`kill` does."""
        _row, start = self._enqueue()
        if start:
            with self._executor.ledger() as session:
                finish(session, key=self.key, state=JOB_CANCELLED, reason="cancelled before it started")
        else:
            self._request_cancel()

    def kill(self) -> None:
        """Ask the cluster to stop this job (non-blocking: the ledger write happens on a thread)."""
        self.killed = True
        threading.Thread(target=self._request_cancel, name=f"cancel-{self.key[:8]}", daemon=True).start()

    def _request_cancel(self) -> None:
        with self._executor.ledger() as session:
            request_cancel(session, key=self.key, reason="cancelled")


class DaskExecutor:
    """Runs jobs on the Dask cluster at ``settings.dask_scheduler`` (or on ``client``'s cluster, for tests).

    The jobs get :func:`~bot.executors.job_settings.settings_for_cluster_jobs` (no token, no Anthropic or Google key).
    A command that calls the assistant (``needs_assistant``) runs in a local job process instead, on the bot's host,
    where the Anthropic key is.
    """

    def __init__(self, settings: Settings, client: Client | None = None, *, job: WorkerJob) -> None:
        self.settings = settings_for_cluster_jobs(settings)
        self.job = job
        self._host_settings = settings
        self._local: ProcessRunner | None = None
        self._client = client
        self.address = str(client.scheduler.address) if client is not None else settings.dask_scheduler
        self._ledger: SessionFactory | None = None
        self._lock = threading.Lock()
        self._client_lock = threading.Lock()
        self._listeners: dict[str, list[tuple[asyncio.AbstractEventLoop, Progress]]] = {}
        self._subscribed = False

    @property
    def client(self) -> Client:
        """The cluster client, connected on first use (so the bot starts even while the scheduler is down)."""
        with self._client_lock:
            if self._client is None:
                self._client = Client(self.address, set_as_default=False, timeout=CONNECT_TIMEOUT_S)
            if not self._subscribed:
                self._client.subscribe_topic(PROGRESS_TOPIC, self._on_progress_event)
                self._subscribed = True
            return self._client

    def listen(self, key: str, loop: asyncio.AbstractEventLoop, sink: Progress) -> Callable[[], None]:
        """Relay job ``key``'s progress events to ``sink`` on ``loop``; returns the function that stops it."""
        entry = (loop, sink)
        with self._lock:
            self._listeners.setdefault(key, []).append(entry)

        def stop() -> None:
            with self._lock:
                sinks = self._listeners.get(key, [])
                if entry in sinks:
                    sinks.remove(entry)
                if not sinks:
                    self._listeners.pop(key, None)

        return stop

    def _on_progress_event(self, event: tuple[float, Any]) -> None:
        """A progress event from a worker (called on the client's thread): hand it to the job's sinks."""
        _timestamp, message = event
        if not isinstance(message, dict):
            return
        with self._lock:
            sinks = list(self._listeners.get(str(message.get("key")), []))
        for loop, sink in sinks:
            if not loop.is_closed():
                loop.call_soon_threadsafe(sink, str(message.get("line", "")), message.get("fraction"))

    def ledger(self) -> Any:
        """A new ledger session (the database is opened and migrated on first use)."""
        with self._lock:
            if self._ledger is None:
                from bot.services import open_database

                self._ledger = open_database(self.settings)
        return self._ledger()

    def worker(self, command: Command, inv: Invocation) -> DaskExecution | WorkerProcess:
        if command.needs_assistant:
            with self._lock:
                if self._local is None:
                    self._local = ProcessRunner(self._host_settings, job=self.job)
            return self._local.worker(command, inv)
        return DaskExecution(self, command, inv)

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
