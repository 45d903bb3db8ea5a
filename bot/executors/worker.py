"""The worker process: run one command invocation away from the bot and send everything back over a pipe.

Runs in a child forked from a clean forkserver. It becomes the leader of its own process group first, so a
cancel can kill it together with anything it started (a sandboxed child). It calls the job it was handed (the
composition root's :data:`~bot.executors.base.WorkerJob`: build a context from the Settings, dispatch the command)
and sends three kinds of messages to the parent:
``("progress", line, fraction)``, ``("log", record_dict)`` and finally ``("done", reply, status)``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from multiprocessing.connection import Connection

from bot.command import Command
from bot.executors.base import WorkerJob
from bot.executors.job_settings import scrub_environment
from bot.incidents import incident_line, report_incident
from bot.invocation import Invocation
from bot.reply import Reply
from bot.settings import Settings


class PipeLogHandler(logging.Handler):
    """Forward log records to the parent (formatted, traceback included) so the operator log is one log."""

    def __init__(self, send: SafeSender) -> None:
        super().__init__(level=logging.INFO)
        self._send = send

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
            if record.exc_info:
                message += "\n" + logging.Formatter().formatException(record.exc_info)
            self._send(("log", {"name": record.name, "levelno": record.levelno, "msg": message}))
        except Exception:  # noqa: BLE001 - logging must never break the job
            self.handleError(record)


class SafeSender:
    """``conn.send`` behind a lock: progress may be reported from several threads of a command."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn
        self._lock = threading.Lock()

    def __call__(self, message: object) -> None:
        with self._lock:
            self._conn.send(message)


def run_job(
    conn: Connection,
    settings: Settings,
    command: Command,
    inv: Invocation,
    job: WorkerJob,
    *,
    deliver_sprint_log: bool = True,
) -> None:
    """Entry point of the worker process (the target of ``multiprocessing.Process``).

    The secret variables inherited from the bot's environment are removed first (the job has its settings).
    """
    with contextlib.suppress(OSError):
        os.setsid()  # own process group: the parent kills the whole group on cancel
    scrub_environment()
    send = SafeSender(conn)
    root = logging.getLogger()
    root.handlers[:] = [PipeLogHandler(send)]
    root.setLevel(logging.INFO)

    def progress(line: str, fraction: float | None = None) -> None:
        send(("progress", str(line), fraction))

    inv.progress = progress
    reply, status = job(settings, command, inv, deliver_sprint_log=deliver_sprint_log)
    try:
        send(("done", reply, status))
    except Exception as exc:  # noqa: BLE001 - e.g. a reply that does not pickle: still answer one line
        incident = report_incident(exc, where=f"sending the reply of {command.name}")
        send(("done", Reply(text=incident_line(incident), ok=False), 3))
    conn.close()
