"""The Dask executor (bot side): submit each job to a Dask distributed cluster, with the database as its ledger.

``run`` writes the ledger row (``enqueue``: the same job key while queued or running attaches to that job instead
of starting another), submits :func:`~bot.executors.dask_worker.run_on_worker` under a Dask key derived from the
ledger row, and awaits it without blocking the event loop. A worker that dies mid-run is the scheduler's to retry
(``distributed.scheduler.allowed-failures``); when it gives up, the row is marked failed with that reason. ``kill``
sets the ledger's cancel flag; the worker running the job sees it within ``CANCEL_POLL_S`` and kills the job's
process group.

A lost scheduler heals without a restart: the jobs in flight have their ledger rows closed and are submitted once
more when the scheduler answers again (a closed client is replaced; attempts back off, bot/executors/reconnect.py),
else run on the bot's own workers (``dask_fallback_local``) or answered in one line; after each new connection the
rows without a live owner are closed (docs/integrations.md#dask).

Progress lines come back as Dask events (``PROGRESS_TOPIC``, one subscription per client) and are handed to the
job's progress sink on the bot's event loop, so a member sees the same progress as with local workers.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import Counter
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
from bot.executors.reconnect import ConnectBackoff
from bot.incidents import incident_line, report_incident
from bot.invocation import Invocation
from bot.reply import Reply
from bot.settings import Settings
from engine.progress import Progress
from storage.database import SessionFactory
from storage.errors import StorageError
from storage.jobs import active_jobs, enqueue, finish, get_job, request_cancel
from storage.tables import JOB_CANCELLED, JOB_DONE, JOB_FAILED, JobRecord

CONNECT_TIMEOUT_S = 10
"""How long the bot waits for the Dask scheduler when it first needs it (seconds); also how long a connected client
tries to reconnect by itself after losing it, before it closes (and a new one is made on the next use)."""

CONNECTION_LOST = "scheduler-connection-lost"
"""The reason distributed's client gives every future it cancels when it loses its scheduler."""

GONE = frozenset({"closing", "closed", "failed"})
"""Client states after which it never reconnects by itself."""

MAX_SUBMISSIONS = 2
"""A job is submitted at most twice: once, and once more after its cluster was lost."""

RECHECK_S = 0.5
"""How often a job waiting for a lost cluster looks again (seconds; connection attempts keep their back-off)."""


class ClusterLost(Exception):
    """The scheduler went away while a job was in flight (its future was cancelled or the client disconnected)."""


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
        self._local: WorkerProcess | None = None

    async def run(self, on_progress: Progress) -> tuple[Reply, int]:
        """Submit (or attach to) the job and return its reply; raises :class:`JobKilled` when it was cancelled.

        A database or cluster that cannot be reached is answered in one line (never an exception to the board). A
        cluster lost while the job is in flight: the ledger row is closed, and the job is submitted once more when
        the scheduler is back within ``dask_requeue_wait_s`` (else run on the bot's own workers where
        ``dask_fallback_local`` allows it, else answered in one line) — see :meth:`_after_loss`.
        """
        if self.killed:  # cancelled before it was submitted: it never reaches the cluster
            try:
                await asyncio.to_thread(self._cancel_unsubmitted)
            except StorageError as exc:
                return Reply(text=f"{self._command.name} was not started: {exc.one_line()}", ok=False), 1
            raise JobKilled("cancelled before it started")
        self._executor.track(self.key)
        try:
            for attempt in range(1, MAX_SUBMISSIONS + 1):
                try:
                    future = await asyncio.to_thread(self._submit)
                except StorageError as exc:
                    return Reply(text=f"{self._command.name} was not started: {exc.one_line()}", ok=False), 1
                except (OSError, TimeoutError) as exc:
                    if self._executor.fallback_local:
                        on_progress(f"the Dask cluster at {self._executor.address} does not answer: running here", None)
                        return await self._run_locally(on_progress)
                    reason = (
                        f"the Dask cluster at {self._executor.address} did not answer ({type(exc).__name__}: {exc})"
                    )
                    hint = "check SUTRO_DASK_SCHEDULER and that the scheduler runs, then send it again"
                    return Reply(text=f"{self._command.name} was not started: {reason} — {hint}", ok=False), 1
                try:
                    return await self._await(future, on_progress)
                except ClusterLost:
                    answer = await self._after_loss(on_progress, attempt)
                    if answer is not None:
                        return answer
            raise AssertionError("unreachable: the last submission answers")  # pragma: no cover
        finally:
            self._executor.untrack(self.key)

    async def _await(self, future: Future, on_progress: Progress) -> tuple[Reply, int]:
        """The submitted task's reply; :class:`ClusterLost` when the scheduler went away before it came back."""
        if self.killed:  # cancelled while it was being submitted
            self.kill()
        on_progress(f"running on the cluster ({self._executor.address})", None)
        unlisten = self._executor.listen(self.key, asyncio.get_running_loop(), on_progress)
        try:
            outcome = await self._outcome(future)
        except FutureCancelledError as exc:
            if exc.reason == CONNECTION_LOST or not self._executor.connected():
                raise ClusterLost(str(exc)) from exc
            raise JobKilled("the cluster cancelled the task") from exc
        except Exception as exc:  # noqa: BLE001 - KilledWorker and friends: recorded, answered in one line
            if not self._executor.connected():
                raise ClusterLost(f"{type(exc).__name__}: {exc}") from exc
            return await asyncio.to_thread(self._failed, exc)
        finally:
            unlisten()
            with contextlib.suppress(Exception):  # a client that lost its scheduler may refuse the release
                future.release()
        state, reply, status = outcome
        if state == JOB_CANCELLED or reply is None:
            raise JobKilled("cancelled on the cluster")
        return reply, status

    async def _after_loss(self, on_progress: Progress, attempt: int) -> tuple[Reply, int] | None:
        """The scheduler went away with this job in flight. None: submit it again (the scheduler is back); else
        the one answer. The ledger row is never left ``queued`` or ``running``: it is closed as failed first
        (a job the ledger says finished is not run twice: its answer is lost, what it stored is kept)."""
        where = self._executor.address
        row = await asyncio.to_thread(self._row)
        if self.killed or (row is not None and row.cancel_requested):
            await asyncio.to_thread(self._close_row, JOB_CANCELLED, "cancelled while the cluster was lost")
            raise JobKilled("cancelled while the cluster was lost")
        if row is not None and row.state == JOB_DONE:
            text = (
                f"{self._command.name} finished on the cluster, but the cluster at {where} was lost before its answer "
                "came back; what it stored is kept — send it again to see the answer"
            )
            return Reply(text=text, ok=False), 1
        await asyncio.to_thread(self._close_row, JOB_FAILED, f"lost: the Dask cluster at {where} went away")
        if attempt >= MAX_SUBMISSIONS:
            text = (
                f"{self._command.name} failed: the Dask cluster at {where} was lost twice while it ran; send it again"
            )
            return Reply(text=text, ok=False), 1
        on_progress(f"the cluster at {where} was lost; your job is queued again", None)
        wait_s = self._executor.requeue_wait_s
        if await asyncio.to_thread(self._executor.wait_for_cluster, wait_s, lambda: self.killed):
            if self.killed:
                raise JobKilled("cancelled while the cluster was lost")
            return None
        if self.killed:
            raise JobKilled("cancelled while the cluster was lost")
        if self._executor.fallback_local:
            on_progress(f"the cluster at {where} is still down; running your job here instead", None)
            return await self._run_locally(on_progress)
        text = (
            f"{self._command.name} failed: the Dask cluster at {where} was lost and has not come back within "
            f"{wait_s:g} s — send it again once the scheduler runs (an admin can set SUTRO_DASK_FALLBACK_LOCAL)"
        )
        return Reply(text=text, ok=False), 1

    async def _run_locally(self, on_progress: Progress) -> tuple[Reply, int]:
        """Run the job on the bot's own worker processes (the admins allowed it while the cluster is down)."""
        self._local = self._executor.local_worker(self._command, self._inv)
        if self.killed:
            raise JobKilled("cancelled before it started")
        return await self._local.run(on_progress)

    def _row(self) -> JobRecord | None:
        with self._executor.ledger() as session:
            return get_job(session, key=self.key)

    def _close_row(self, state: str, reason: str) -> None:
        with self._executor.ledger() as session:
            finish(session, key=self.key, state=state, reason=reason)

    def _submit(self) -> Future:
        """Ledger first, then the cluster: a new task, or the one already running for this key. Raises OSError
        when the scheduler cannot be reached (before any ledger row is written)."""
        client = self._executor.client
        if client.status != "running":
            raise ConnectionError(f"the client is {client.status}")
        row, start = self._enqueue()
        if not start and not self._known(client, dask_key(row)):
            # the ledger says active but the cluster never heard of it (its submitter died): start it again
            with self._executor.ledger() as session:
                finish(session, key=self.key, state=JOB_FAILED, reason="lost: its submitter went away")
            row, start = self._enqueue()
        self.attached = not start
        if not start:
            return Future(dask_key(row), client=client)
        try:
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
        except Exception as exc:  # the row must not stay queued without a task behind it
            self._close_row(JOB_FAILED, f"not submitted: {type(exc).__name__}: {exc}")
            if isinstance(exc, (OSError, TimeoutError)):
                raise
            raise ConnectionError(f"{type(exc).__name__}: {exc}") from exc

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
        if self._local is not None:
            self._local.kill()
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
        self.fallback_local = settings.dask_fallback_local
        self.requeue_wait_s = settings.dask_requeue_wait_s
        self.backoff = ConnectBackoff()
        self._in_flight: Counter[str] = Counter()
        self._swept = False

    @property
    def client(self) -> Client:
        """The cluster client, connected on first use (so the bot starts even while the scheduler is down).

        A client that gave up on a lost scheduler (closed) is replaced by a new connection, so a scheduler that
        comes back is used again without a restart; while attempts fail they are spaced by :class:`ConnectBackoff`
        (an OSError says when the next is due). After each new connection the ledger is swept of rows whose
        owner is gone (:meth:`sweep_orphans`)."""
        with self._client_lock:
            if self._client is not None and self._client.status in GONE:
                self._client = None
                self._subscribed = False
            if self._client is None:
                wait = self.backoff.wait_left()
                if wait > 0:
                    raise ConnectionError(
                        f"unreachable ({self.backoff.last_error or 'no answer'}); next try in {wait:.0f} s"
                    )
                try:
                    self._client = Client(self.address, set_as_default=False, timeout=CONNECT_TIMEOUT_S)
                except (OSError, TimeoutError) as exc:
                    self.backoff.failed(f"{type(exc).__name__}: {exc}"[:200])
                    raise
                self.backoff.succeeded()
                self._swept = False
            if not self._subscribed:
                self._client.subscribe_topic(PROGRESS_TOPIC, self._on_progress_event)
                self._subscribed = True
            client = self._client
        if not self._swept:
            self._swept = True
            with contextlib.suppress(Exception):  # a sweep that fails is tried at the next connection
                self.sweep_orphans(client)
        return client

    def connected(self) -> bool:
        """Whether the client (if any) is connected to its scheduler now; no connection attempt is made."""
        client = self._client
        return client is not None and client.status == "running"

    def reachable(self) -> bool:
        """Whether the scheduler answers: connects (or reconnects) when an attempt is due."""
        try:
            return self.client.status == "running"
        except (OSError, TimeoutError):
            return False

    def wait_for_cluster(self, wait_s: float, give_up: Callable[[], bool] = lambda: False) -> bool:
        """Wait up to ``wait_s`` seconds for the scheduler (the client reconnecting itself, or a new connection
        when it gave up); False when it did not come back, or ``give_up()`` said stop."""
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline and not give_up():
            if self.reachable():
                return True
            time.sleep(min(RECHECK_S, max(0.0, deadline - time.monotonic())))
        return self.reachable() and not give_up()

    def track(self, key: str) -> None:
        """Job ``key`` has a live owner here (so :meth:`sweep_orphans` leaves its row alone)."""
        with self._lock:
            self._in_flight[key] += 1

    def untrack(self, key: str) -> None:
        with self._lock:
            self._in_flight[key] -= 1
            if self._in_flight[key] <= 0:
                del self._in_flight[key]

    def sweep_orphans(self, client: Client) -> list[str]:
        """Close every ledger row ``queued`` or ``running`` that has no live owner — not in flight in this bot and
        unknown to the scheduler (its submitter died, or the cluster that had it was lost) — as failed, so no row
        waits for an answer that cannot come. Returns the keys closed."""

        def sutro_keys(dask_scheduler: Any) -> list[str]:
            return [str(k) for k in dask_scheduler.tasks if str(k).startswith("sutro-job-")]

        known = set(client.run_on_scheduler(sutro_keys))
        closed = []
        with self.ledger() as session:
            for row in active_jobs(session):
                with self._lock:
                    owned = row.key in self._in_flight
                if owned or dask_key(row) in known:
                    continue
                finish(
                    session,
                    key=row.key,
                    state=JOB_FAILED,
                    reason="lost: no live owner (its submitter or cluster went away)",
                )
                closed.append(row.key)
        return closed

    def local_worker(self, command: Command, inv: Invocation) -> WorkerProcess:
        """A job process on the bot's host (assistant commands, and the fallback while the cluster is down)."""
        with self._lock:
            if self._local is None:
                self._local = ProcessRunner(self._host_settings, job=self.job)
        return self._local.worker(command, inv)

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
            return self.local_worker(command, inv)
        return DaskExecution(self, command, inv)

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
