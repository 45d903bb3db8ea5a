"""The Dask worker side of a job: record the attempt, run the command in a worker process, honour cancel.

:func:`run_on_worker` is the function the bot submits to the cluster. On the Dask worker it marks the ledger row
running (one more attempt), then runs the invocation exactly as the local executor does — a fresh process from a
per-worker forkserver that runs the composition root's job (:data:`~bot.executors.base.WorkerJob`), so a submission
still starts its sandboxed child there — while polling the ledger's cancel flag every :data:`CANCEL_POLL_S` seconds
and killing the process group when it is set. The job's process group dies with its Dask worker (a watcher thread on
the worker's pidfd), so a killed worker leaves no orphan and the scheduler's retry on another worker is the only
copy still running.

Progress lines the command reports go to the bot as Dask events on :data:`PROGRESS_TOPIC` (``{"key", "line",
"fraction"}``; at most one every :data:`PROGRESS_EVERY_S`, the last one always), which the bot side relays to the
member.

Dask worker processes must not be daemonic (a daemonic process may not start children): run workers with
``DASK_DISTRIBUTED__WORKER__DAEMON=False``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import multiprocessing
import os
import select
import signal
import socket
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from bot.command import Command
from bot.executors.base import JobKilled, WorkerJob
from bot.executors.local import ProcessRunner, WorkerProcess
from bot.executors.worker import run_job
from bot.invocation import Invocation
from bot.reply import Reply
from bot.settings import Settings
from storage.database import SessionFactory
from storage.jobs import cancel_is_requested, finish, start_attempt
from storage.tables import JOB_CANCELLED, JOB_DONE, JOB_FAILED

CANCEL_POLL_S = 0.25
"""How often a running job checks the ledger's cancel flag (seconds): the upper bound of cancel latency."""

WATCH_POLL_S = 0.5
"""How often a job checks that its Dask worker still lives, where pidfds are unavailable (seconds)."""

PROGRESS_TOPIC = "sutro-job-progress"
"""The Dask event topic carrying progress lines from workers to the bot."""

PROGRESS_EVERY_S = 0.25
"""Least time between two progress events of one job (seconds); the bot's message edits are throttled further."""

Outcome = tuple[str, Reply | None, int]
"""(final ledger state, the command's reply or None when cancelled, exit status)."""

_runners: dict[tuple[str, WorkerJob], ProcessRunner] = {}
_sessions: dict[str, SessionFactory] = {}
_setup_lock = threading.Lock()  # tasks run on several threads of a worker; Alembic's upgrade is not thread-safe


class DaemonicWorker(RuntimeError):
    """The Dask worker is a daemonic process and so cannot start the job's process."""


def run_job_tied_to_worker(
    worker_pid: int,
    conn: Connection,
    settings: Settings,
    command: Command,
    inv: Invocation,
    job: WorkerJob,
    *,
    at_step: Callable[[str], None] | None = None,
) -> None:
    """:func:`run_job`, plus a watcher thread that kills the job's own process group when the Dask worker process
    ``worker_pid`` dies (a killed worker must leave no orphan running the job a second time).

    The order matters: the job process first leaves its parent's group (``os.setsid``), and only then starts the
    watcher, which signals the group the job leads and nothing else. Were the watcher started first, a worker
    already gone at that moment would make it signal the group the job still shared with the Dask worker, its
    nanny and whatever started the cluster. When no session of its own can be had, the watcher kills only the
    job's process.

    ``at_step``: called with ``"forked"``, ``"own-session"`` and ``"watching"`` as the start goes by (the fault
    tests kill the worker at each of these points; None in production).

    The job's parent is the forkserver, which outlives the worker while any job holds its "alive" pipe, so
    ``PR_SET_PDEATHSIG`` would not fire: the worker is watched directly (a pidfd, else polling).

    Sprint-log entries are only saved: the worker has neither the bot's data directory (Markdown sink) nor the
    Google key (Docs sink); the bot process delivers the outbox.
    """
    step = at_step or _no_step
    step("forked")
    own_group = _own_session()
    step("own-session")
    threading.Thread(target=_die_with, args=(worker_pid, own_group), name="watch-worker", daemon=True).start()
    step("watching")
    run_job(conn, settings, command, inv, job, deliver_sprint_log=False)  # the bot process delivers the outbox


def _no_step(_name: str) -> None:
    """The production ``at_step``: nothing."""


def _own_session() -> bool:
    """Make this process the leader of a new session and process group; True when it leads its group now."""
    with contextlib.suppress(OSError):
        os.setsid()
    return os.getpgid(0) == os.getpid()


def _die_with(pid: int, own_group: bool) -> None:
    """Wait for process ``pid`` to exit, then kill this job: its group when it leads one, else this process only.

    Never ``killpg(0)``: the group is named by this process's id, so a signal can reach no other group."""
    try:
        fd = os.pidfd_open(pid)
    except (OSError, AttributeError):
        fd = None
    if fd is not None:
        select.select([fd], [], [])  # readable once the process has exited
    else:
        while True:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(WATCH_POLL_S)
    me = os.getpid()
    if own_group and os.getpgid(0) == me:
        os.killpg(me, signal.SIGKILL)  # the job and everything it started (the sandboxed child)
    else:
        os.kill(me, signal.SIGKILL)


def _worker_name() -> str:
    try:
        from distributed import get_worker

        return str(get_worker().address)
    except (ImportError, ValueError):
        return f"{socket.gethostname()}:{os.getpid()}"


def _ledger(settings: Settings) -> SessionFactory:
    url = f"{settings.database_url}|{settings.data_dir}"
    with _setup_lock:
        if url not in _sessions:
            from bot.services import open_database

            _sessions[url] = open_database(settings)
        return _sessions[url]


def _runner(settings: Settings, job: WorkerJob) -> ProcessRunner:
    if multiprocessing.current_process().daemon:
        raise DaemonicWorker(
            "this Dask worker is a daemonic process and cannot start job processes; "
            "start workers with DASK_DISTRIBUTED__WORKER__DAEMON=False"
        )
    fingerprint = (settings.model_dump_json(), job)
    with _setup_lock:
        if fingerprint not in _runners:
            target = functools.partial(run_job_tied_to_worker, os.getpid())
            _runners[fingerprint] = ProcessRunner(settings, job=job, target=target)
        return _runners[fingerprint]


class ProgressRelay:
    """Sends a job's progress lines to the bot as Dask events (throttled; dropped when not on a Dask worker)."""

    def __init__(self, key: str, clock: Callable[[], float] = time.monotonic) -> None:
        self._key = key
        self._clock = clock
        self._last = -PROGRESS_EVERY_S
        self._held: tuple[str, float | None] | None = None
        try:
            from distributed import get_worker

            self._worker: Any = get_worker()
        except (ImportError, ValueError):
            self._worker = None

    def __call__(self, line: str, fraction: float | None = None) -> None:
        now = self._clock()
        if now - self._last < PROGRESS_EVERY_S:
            self._held = (line, fraction)  # sent by flush() unless a newer line replaces it
            return
        self._send(line, fraction)
        self._last = now

    def flush(self) -> None:
        """Send the line held back by the throttle, if any."""
        if self._held is not None:
            self._send(*self._held)

    def _send(self, line: str, fraction: float | None) -> None:
        self._held = None
        if self._worker is not None:
            self._worker.log_event(PROGRESS_TOPIC, {"key": self._key, "line": line, "fraction": fraction})


async def _supervise(
    process: WorkerProcess, sessions: SessionFactory, key: str, progress: ProgressRelay
) -> tuple[Reply, int] | None:
    """Run ``process`` to the end, killing it when the ledger says cancel; None when it was cancelled."""
    task = asyncio.ensure_future(process.run(progress))
    cancelled = False
    while not task.done():
        await asyncio.wait([task], timeout=CANCEL_POLL_S)
        progress.flush()
        if not task.done() and not cancelled:
            cancelled = await asyncio.to_thread(_cancel_requested, sessions, key)
            if cancelled:
                process.kill()
    progress.flush()
    try:
        return task.result()
    except JobKilled:
        if cancelled or await asyncio.to_thread(_cancel_requested, sessions, key):
            return None
        raise


def _cancel_requested(sessions: SessionFactory, key: str) -> bool:
    with sessions() as session:
        return cancel_is_requested(session, key=key)


def run_on_worker(settings: Settings, command: Command, inv: Invocation, key: str, job: WorkerJob) -> Outcome:
    """Run one job on this Dask worker and record its outcome in the ledger (the task the bot submits)."""
    sessions = _ledger(settings)
    with sessions() as session:
        if start_attempt(session, key=key, worker=_worker_name()) is None:
            return JOB_CANCELLED, None, 1
    process = _runner(settings, job).worker(command, inv)
    try:
        got = asyncio.run(_supervise(process, sessions, key, ProgressRelay(key)))
    except JobKilled as exc:
        reason = f"the job's process died on {_worker_name()}: {exc}"
        with sessions() as session:
            finish(session, key=key, state=JOB_FAILED, reason=reason)
        return JOB_FAILED, Reply(text=f"{command.name} failed: {reason}", ok=False), 3
    if got is None:
        with sessions() as session:
            finish(session, key=key, state=JOB_CANCELLED)
        return JOB_CANCELLED, None, 1
    reply, status = got
    state = JOB_FAILED if status == 3 else JOB_DONE  # 3: an incident (the command crashed)
    with sessions() as session:
        finish(session, key=key, state=state, reason=reply.text if state == JOB_FAILED else None)
    return state, reply, status
