"""``status``: versions and the job queue's depth (other parts add their lines: sandbox tier, Docs backlog, …)."""

from __future__ import annotations

import platform

import numpy
import telegram

from bot.commands.base import Command, Invocation, Reply, Table
from bot.context import AppContext
from engine.version import __version__


def show_status(ctx: AppContext, inv: Invocation) -> Reply:
    rows = [
        ["sutro", __version__],
        ["python", platform.python_version()],
        ["numpy", numpy.__version__],
        ["python-telegram-bot", telegram.__version__],
    ]
    data: dict[str, object] = {"version": __version__, "python": platform.python_version()}
    if ctx.jobs is not None:
        active = ctx.jobs.active()
        running = sum(j.state == "running" for j in active)
        rows.append(["jobs running", str(running)])
        rows.append(["jobs queued", str(len(active) - running)])
        data.update(jobs_running=running, jobs_queued=len(active) - running)
    else:
        rows.append(["job queue", "none (commands run directly)"])
    return Reply(text=f"sutro {__version__}", tables=[Table(headers=["what", "value"], rows=rows)], data=data)


COMMAND = Command(
    name="status",
    summary="Versions and queue depth",
    usage="",
    handler=show_status,
    background=False,
)
