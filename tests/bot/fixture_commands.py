"""Test-only commands (fixtures, not product code): they run in real worker processes through the real queue.

Module-level functions so a worker process can import them by reference.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

from bot.commands.base import Command, Invocation, Reply, Table
from bot.context import AppContext
from engine.result import FailureKind


def _sleepy(ctx: AppContext, inv: Invocation) -> Reply:
    """Report ``steps`` progress lines ``pause`` seconds apart; with ``child=PATH`` start a grandchild first that
    writes its pid to PATH and sleeps (to prove cancel kills the whole process group)."""
    steps = int(inv.options.get("steps", "3"))
    pause = float(inv.options.get("pause", "0.1"))
    if "child" in inv.options:
        proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        Path(inv.options["child"]).write_text(f"{os.getpid()} {proc.pid}")
    for i in range(steps):
        inv.progress(f"step {i + 1}/{steps}", (i + 1) / steps)
        time.sleep(pause)
    return Reply(text=f"slept {steps} steps", data={"steps": steps, "pid": os.getpid()})


def _broken(ctx: AppContext, inv: Invocation) -> Reply:
    raise ZeroDivisionError("the fixture divides by zero")


def _attachments(ctx: AppContext, inv: Invocation) -> Reply:
    rows = [[a.name, str(len(a.content)), a.content[:40].decode(errors="replace")] for a in inv.attachments]
    return Reply(
        text=f"{len(inv.attachments)} attachments; args={inv.args} options={inv.options}",
        tables=[Table(headers=["name", "bytes", "head"], rows=rows)],
        data={
            "names": [a.name for a in inv.attachments],
            "contents": [a.content.decode() for a in inv.attachments],
        },
    )


def _wide(ctx: AppContext, inv: Invocation) -> Reply:
    n = int(inv.options.get("rows", "300"))
    return Reply(
        text=f"{n} rows",
        tables=[Table(headers=["i", "square"], rows=[[str(i), str(i * i)] for i in range(n)])],
    )


def _chart(ctx: AppContext, inv: Invocation) -> Reply:
    from bot.commands.base import OutFile

    png = b"\x89PNG\r\n\x1a\n" + b"fixture-bytes"
    return Reply(text="a chart", files=[OutFile(name="chart.png", content=png, mime="image/png")])


def _environment(ctx: AppContext, inv: Invocation) -> Reply:
    token = ctx.settings.telegram_bot_token
    return Reply(text="env", data={"token": token.get_secret_value() if token else None, "pid": os.getpid()})


def _tally(ctx: AppContext, inv: Invocation) -> Reply:
    """Append this worker's pid to the file ``file=PATH`` (one line per execution), report ``steps`` progress lines
    ``pause`` seconds apart, and answer how many executions the file holds: a count no asker can fake."""
    path = Path(inv.options["file"])
    with path.open("a") as out:
        out.write(f"{os.getpid()}\n")
    steps = int(inv.options.get("steps", "3"))
    for i in range(steps):
        inv.progress(f"tally step {i + 1}/{steps}", None)
        time.sleep(float(inv.options.get("pause", "0.1")))
    runs = len(path.read_text().splitlines())
    return Reply(text=f"tallied: {runs} run(s)", data={"runs": runs, "pid": os.getpid()})


def _limited(ctx: AppContext, inv: Invocation) -> Reply:
    """A job that ends on a resource limit, as a sandboxed submission over its CPU limit answers."""
    return Reply(text="FAILED: CPU time limit (1 s) exceeded", ok=False, failure_kind=FailureKind.LIMIT)


TALLY = Command(
    name="tally",
    summary="Test fixture: count executions",
    usage="file=PATH [steps=N] [pause=S]",
    handler=_tally,
    shared_answer=True,
)
"""A command whose answer is shared (as ``run`` and ``submit``): identical requests from any member attach."""
LIMITED = Command(name="limited", summary="Test fixture: a resource-limit failure", usage="", handler=_limited)

ENVIRONMENT = Command(name="environment", summary="Test fixture: what a worker sees", usage="", handler=_environment)


def _sleepy_stopped(ctx: AppContext, inv: Invocation, submitted_at: datetime) -> str:
    """Runs in the bot process after a stopped sleepy job: says so, with the steps it was asked for."""
    assert submitted_at.tzinfo is not None
    return f"cleaned up after a stopped sleepy ({inv.options.get('steps', '3')} steps)"


SLEEPY = Command(
    name="sleepy",
    summary="Test fixture: sleep with progress",
    usage="[steps=N] [pause=S]",
    handler=_sleepy,
    on_stopped=_sleepy_stopped,
)
BROKEN = Command(name="broken", summary="Test fixture: raise", usage="", handler=_broken)
ATTACH = Command(name="attach", summary="Test fixture: list attachments", usage="", handler=_attachments)
WIDE = Command(name="wide", summary="Test fixture: long table", usage="", handler=_wide)
CHART = Command(name="chart", summary="Test fixture: a png", usage="", handler=_chart)
ADMIN_ONLY = Command(name="wipe", summary="Test fixture: admin only", usage="", handler=_wide, admin_only=True)
FIXTURES = (SLEEPY, BROKEN, ATTACH, WIDE, CHART, ADMIN_ONLY, TALLY, LIMITED)


PASTE = Command(
    name="submit", summary="Test fixture: what a pasted block reaches", usage="", handler=_attachments, file_arg=True
)
"""Stands in for ``submit`` (a file-taking command, as the real one): reports the attachments it was given."""
