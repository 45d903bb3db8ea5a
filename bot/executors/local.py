"""The local executor: run one job in a worker process and relay its pipe: progress lines, log records, the reply.

Worker processes come from a ``forkserver`` (started once, with the command layer preloaded), so a job starts in
tens of milliseconds without forking the bot's threads. The pipe is watched by the event loop (``add_reader``);
nothing here blocks the loop. Cancel kills the worker's whole process group (the worker calls ``setsid``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
from collections.abc import Callable
from typing import Any

from bot.command import Command
from bot.executors.base import JobKilled, WorkerJob, picklable
from bot.executors.job_settings import settings_for_local_jobs
from bot.executors.worker import run_job
from bot.incidents import report_incident
from bot.invocation import Invocation
from bot.reply import Reply
from bot.settings import Settings
from engine.blas_threads import ONE_BLAS_THREAD
from engine.progress import Progress

_PRELOAD = [
    "bot.executors.worker",
    "bot.app",
    "bot.commands",
    "bot.services",
    "alembic.command",
    "bot.commands.score",
    "bot.commands.submit",
    "bot.commands.run",
]
"""Imported once by the forkserver, so each worker starts with them loaded (names, not imports of this module).

The command registry imports a handler's module on first call, so without the last three every ``score``,
``submit`` and ``run`` job would import the judging path and the sandbox again: measured 198 -> 105 ms CPU per
``score`` job process (matmul_1x1, its scorer child not counted)."""


class WorkerProcess:
    """One running worker: started by :meth:`run`, killable at any time by :meth:`kill`."""

    def __init__(
        self,
        mp: Any,
        settings: Settings,
        command: Command,
        inv: Invocation,
        job: WorkerJob,
        target: Callable[..., None] = run_job,
    ) -> None:
        self._mp = mp
        self._job = job
        self._target = target
        self._settings = settings
        self._command = command
        self._inv = inv
        self._process: Any = None
        self.killed = False

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    async def run(self, on_progress: Progress) -> tuple[Reply, int]:
        """Start the worker, relay its messages, and return its reply; raises :class:`JobKilled` if it died."""
        loop = asyncio.get_running_loop()
        parent, child = self._mp.Pipe(duplex=False)
        self._process = self._mp.Process(
            target=self._target,
            args=(child, self._settings, self._command, picklable(self._inv), self._job),
            daemon=True,
        )
        await asyncio.to_thread(self._process.start)
        child.close()
        if self.killed:  # cancelled while starting
            self.kill()
        outcome: asyncio.Future[tuple[Reply, int] | None] = loop.create_future()
        result: list[tuple[Reply, int]] = []

        def on_readable() -> None:
            try:
                while parent.poll():
                    self._handle(parent.recv(), on_progress, result)
            except (EOFError, OSError):
                loop.remove_reader(parent.fileno())
                if not outcome.done():
                    outcome.set_result(result[0] if result else None)
            except Exception as exc:  # noqa: BLE001 - a garbled message must not leave the job hanging
                loop.remove_reader(parent.fileno())
                report_incident(exc, where=f"reading the worker pipe of {self._command.name}")
                self.kill()
                if not outcome.done():
                    outcome.set_result(None)

        loop.add_reader(parent.fileno(), on_readable)
        try:
            got = await outcome
        finally:
            if not outcome.done():  # the awaiting task itself was cancelled (bot shutting down)
                loop.remove_reader(parent.fileno())
                self.kill()
            parent.close()
            await asyncio.to_thread(self._process.join, 5)
        if got is None:
            raise JobKilled(f"worker exited with status {self._process.exitcode}")
        return got

    def _handle(self, message: Any, on_progress: Progress, result: list[tuple[Reply, int]]) -> None:
        kind = message[0]
        if kind == "progress":
            on_progress(message[1], message[2])
        elif kind == "log":
            fields = message[1]
            record = logging.makeLogRecord(
                {
                    "name": fields["name"],
                    "levelno": fields["levelno"],
                    "levelname": logging.getLevelName(fields["levelno"]),
                    "msg": "[worker %s] %s",
                    "args": (self.pid, fields["msg"]),
                }
            )
            logging.getLogger(fields["name"]).handle(record)
        elif kind == "done":
            result.append((message[1], message[2]))

    def kill(self) -> None:
        """Kill the worker and every process in its group (SIGKILL: a job gets no chance to ignore it)."""
        self.killed = True
        pid = self.pid
        if pid is None:
            return
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


class ProcessRunner:
    """The local executor: makes :class:`WorkerProcess` objects that share one forkserver.

    ``job`` is what the worker does with a command (the composition root's, :data:`WorkerJob`); ``target`` is the
    process's entry point (default :func:`run_job`; the Dask worker side passes one that also dies with its parent).
    """

    def __init__(self, settings: Settings, *, job: WorkerJob, target: Callable[..., None] = run_job) -> None:
        self._job = job
        self._target = target
        # no command needs the bot token, and a worker runs members' submissions (through the sandbox): leave it out
        self._settings = settings_for_local_jobs(settings)
        # The forkserver (started on the first job) imports numpy while preloading, so its BLAS reads the thread
        # count from the environment it inherits from this process then, and every job process forked from it keeps
        # that BLAS. Jobs run methods (a single seed in the job process itself); the parallelism is jobs and seed
        # children, so one BLAS thread each (measured: a traced lasso, n=20, took 0.26-0.57 CPU s with OpenBLAS's
        # own threads on a loaded 2-core host, 0.03-0.045 s pinned, same result). Set before that start; the bot's
        # own numpy is loaded already and keeps its threads.
        os.environ.update(ONE_BLAS_THREAD)
        self._mp = multiprocessing.get_context("forkserver")
        self._mp.set_forkserver_preload(_PRELOAD)

    def worker(self, command: Command, inv: Invocation) -> WorkerProcess:
        return WorkerProcess(self._mp, self._settings, command, inv, self._job, self._target)
