"""The executor interface the job board runs jobs through, and what every executor shares.

An :class:`Executor` turns one command invocation into an :class:`Execution`; the board awaits ``run`` (which
returns the command's reply and exit status, or raises :class:`JobKilled` when the job was killed or its process
died) and calls ``kill`` to cancel. ``kill`` must be safe to call at any time, before ``run`` started included,
and from the event loop (it must not block it).

What a job does in its worker process is a :data:`WorkerJob` handed in by the composition root (``bot.app``):
executors carry commands to processes, they do not know how a command is dispatched.
"""

from __future__ import annotations

from typing import Protocol

from bot.command import Command
from bot.invocation import Invocation
from bot.reply import Reply
from bot.settings import Settings
from engine.progress import Progress


class WorkerJob(Protocol):
    """Run one command in a worker process from the deployment's settings: ``(reply, exit status)``. Must pickle by
    reference (a module-level function): it travels to forkserver children and Dask workers.

    deliver_sprint_log: False for jobs on Dask workers: their sprint-log entries are only saved in the outbox, and
    the bot process delivers them (it alone has the data directory and the Google key).
    """

    def __call__(
        self, settings: Settings, command: Command, inv: Invocation, *, deliver_sprint_log: bool = True
    ) -> tuple[Reply, int]: ...


class JobKilled(Exception):
    """The job ended without a reply (killed on cancel, or its process died)."""


class Execution(Protocol):
    """One job handed to an executor."""

    async def run(self, on_progress: Progress) -> tuple[Reply, int]: ...

    def kill(self) -> None: ...


class Executor(Protocol):
    """Makes executions; one per bot process."""

    def worker(self, command: Command, inv: Invocation) -> Execution: ...


def picklable(inv: Invocation) -> Invocation:
    """The invocation without its progress callback (the worker process installs its own)."""
    return Invocation(
        command=inv.command,
        args=list(inv.args),
        options=dict(inv.options),
        flags=set(inv.flags),
        attachments=list(inv.attachments),
        caller=inv.caller,
    )
