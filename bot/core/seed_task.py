"""One seed of a method run: what a seed-set worker is handed, and how it runs in this process."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.result import RunResult


@dataclass(frozen=True)
class SeedTask:
    """One seed of one method: the method's name and its raw parameters with ``seed`` set.

    attribution: whether the run also says where its cost went (per-buffer tables, ByteDMD by argument). A stored
    set keeps the first seed's tables only (:func:`bot.core.seed_set.combine`), so the other seeds leave them out:
    the same metrics (tested), about 15 % less work per seed (measured on local_update n=20).
    """

    method: str
    params: dict[str, Any]
    attribution: bool = True


def run_here(task: SeedTask) -> RunResult:
    """Run ``task`` in this process (fully traced, as every method run)."""
    from engine.methods import run_method

    return run_method(task.method, task.params, attribution=task.attribution)
