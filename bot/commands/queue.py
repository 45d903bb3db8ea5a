"""``queue`` and ``cancel ID``: the bot's pending and running jobs; cancel your own (admins: any).

Jobs are listed in the order they start (the fair queue's turns), each with its owner and, as ``ann +1``, how many
others sent the same request and wait for its answer.

Both read the live job queue of the bot process (``ctx.jobs``); in the terminal each command runs directly, so
there is no queue to show there.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from bot.commands.base import Command, Invocation, Reply, Table, UsageError
from bot.context import AppContext
from bot.jobs.labels import job_label, job_number

if TYPE_CHECKING:
    from bot.jobs.board import JobBoard


def _board(ctx: AppContext) -> JobBoard:
    if ctx.jobs is None:
        raise UsageError("no job queue here", hint="the terminal runs each command directly; use /queue in the chat")
    return ctx.jobs


def _age(since: float | None) -> str:
    return f"{time.monotonic() - since:.0f} s" if since is not None else ""


def show_queue(ctx: AppContext, inv: Invocation) -> Reply:
    board = _board(ctx)
    jobs = board.active()
    rows = [
        [
            job_label(j.id),
            j.state if j.state == "running" else f"queued {board.position(j)}",
            j.owner.name + (f" +{len(j.askers) - 1}" if len(j.askers) > 1 else ""),
            j.describe()[:40],
            _age(j.started_at if j.state == "running" else j.submitted_at),
            j.last_progress[:30],
        ]
        for j in jobs
    ]
    data = {
        "jobs": [
            {
                "id": j.id,
                "state": j.state,
                "owner": j.owner.name,
                "askers": [a.caller.name for a in j.askers],
                "command": j.describe(),
            }
            for j in jobs
        ]
    }
    if not jobs:
        return Reply(text="the queue is empty", data=data)
    running = sum(j.state == "running" for j in jobs)
    return Reply(
        text=f"{running} running, {len(jobs) - running} queued",
        tables=[Table(headers=["job", "state", "who", "command", "for", "progress"], rows=rows)],
        data=data,
    )


def cancel_job(ctx: AppContext, inv: Invocation) -> Reply:
    board = _board(ctx)
    number = job_number(inv.args[0]) if len(inv.args) == 1 else None
    if number is None:
        raise UsageError("cancel needs one job number", hint="usage: /cancel ID (see /queue)")
    job = board.cancel(number, inv.caller)
    return Reply(text=f"cancelling {job_label(job.id)} {job.describe()}", data={"cancelled": job.id})


CANCEL = Command(
    name="cancel",
    summary="Cancel one of your jobs (admins: any job)",
    usage="ID",
    handler=cancel_job,
    cli=False,
    background=False,
)
