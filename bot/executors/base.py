"""The executor interface the job board runs jobs through.

An :class:`Executor` turns one command invocation into an :class:`Execution`; the board awaits ``run`` (which
returns the command's reply and exit status, or raises :class:`~bot.jobs.process.JobKilled` when the job was
killed or its process died) and calls ``kill`` to cancel. ``kill`` must be safe to call at any time, before
``run`` started included, and from the event loop (it must not block it).
"""

from __future__ import annotations

from typing import Protocol

from bot.command import Command
from bot.invocation import Invocation
from bot.jobs.process import ProgressSink
from bot.reply import Reply


class Execution(Protocol):
    """One job handed to an executor."""

    async def run(self, on_progress: ProgressSink) -> tuple[Reply, int]: ...

    def kill(self) -> None: ...


class Executor(Protocol):
    """Makes executions; one per bot process."""

    def worker(self, command: Command, inv: Invocation) -> Execution: ...
