"""Run one job in a worker process and relay its pipe: progress lines, log records, the final reply.

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

from bot.commands.base import Command, Invocation, Reply
from bot.incidents import incident_line, report_incident
from bot.jobs.job_settings import settings_for_local_jobs
from bot.jobs.worker import run_job
from bot.settings import Settings

ProgressSink = Callable[[str, "float | None"], None]

_PRELOAD = ["bot.jobs.worker", "bot.commands", "bot.services", "alembic.command", "alembic.runtime.migration"]


class JobKilled(Exception):
    """The worker process ended without a reply (killed on cancel or crashed)."""


def _picklable(inv: Invocation) -> Invocation:
    """The invocation without its progress callback (the worker installs its own, over the pipe)."""
    return Invocation(
        command=inv.command,
        args=list(inv.args),
        options=dict(inv.options),
        flags=set(inv.flags),
        attachments=list(inv.attachments),
        caller=inv.caller,
    )


class WorkerProcess:
    """One running worker: started by :meth:`run`, killable at any time by :meth:`kill`."""

    def __init__(
        self, mp: Any, settings: Settings, command: Command, inv: Invocation, target: Callable[..., None] = run_job
    ) -> None:
        self._mp = mp
        self._target = target
        self._settings = settings
        self._command = command
        self._inv = inv
        self._process: Any = None
        self.killed = False

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    async def run(self, on_progress: ProgressSink) -> tuple[Reply, int]:
        """Start the worker, relay its messages, and return its reply; raises :class:`JobKilled` if it died."""
        loop = asyncio.get_running_loop()
        parent, child = self._mp.Pipe(duplex=False)
        self._process = self._mp.Process(
            target=self._target, args=(child, self._settings, self._command, _picklable(self._inv)), daemon=True
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

    def _handle(self, message: Any, on_progress: ProgressSink, result: list[tuple[Reply, int]]) -> None:
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

    ``target`` is the function the worker process runs (default :func:`run_job`; the Dask worker side passes one
    that also dies with its parent).
    """

    def __init__(self, settings: Settings, target: Callable[..., None] = run_job) -> None:
        self._target = target
        # no command needs the bot token, and a worker runs members' submissions (through the sandbox): leave it out
        self._settings = settings_for_local_jobs(settings)
        self._mp = multiprocessing.get_context("forkserver")
        self._mp.set_forkserver_preload(_PRELOAD)

    def worker(self, command: Command, inv: Invocation) -> WorkerProcess:
        return WorkerProcess(self._mp, self._settings, command, inv, self._target)


def died_reply(command: Command, exc: JobKilled) -> tuple[Reply, int]:
    """The reply for a worker that died without answering (not cancelled): an incident."""
    incident = report_incident(exc, where=f"worker of {command.name}")
    return Reply(text=incident_line(incident), ok=False), 3
