"""Test-only command (a fixture, not product code): run a member's generate() that never returns, in the sandbox.

Module-level so a Dask worker's job process can import it by reference.
"""

from __future__ import annotations

from bot.commands.base import Command, Invocation, Reply
from bot.context import AppContext
from engine.sandbox import Limits, run_generate

LOOP_FOREVER = "def generate():\n    while True:\n        pass\n"


def _runaway(ctx: AppContext, inv: Invocation) -> Reply:
    limits = Limits(cpu_s=float(inv.options.get("cpu", "1")), wall_s=float(inv.options.get("wall", "4")))
    got = run_generate(LOOP_FOREVER, limits, dev_override=ctx.settings.dev_allow_unsandboxed)
    return Reply(text=got.failure or "returned?!", ok=got.ok, data={"tier": got.tier, "wall_s": got.wall_s})


RUNAWAY = Command(name="runaway", summary="Test fixture: a generate() that loops", usage="", handler=_runaway)
