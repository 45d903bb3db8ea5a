"""Executors: where the job board's jobs run — local worker processes, or a Dask distributed cluster.

``build_executor(settings)`` picks one: a :class:`~bot.jobs.process.ProcessRunner` (local forkserver workers, the
default) or, when ``SUTRO_DASK_SCHEDULER`` is set, a :class:`~bot.executors.dask_cluster.DaskExecutor`. Both satisfy
:class:`~bot.executors.base.Executor`; the job board and every command are the same either way.
"""

from __future__ import annotations

from bot.executors.base import Execution, Executor
from bot.settings import Settings


def build_executor(settings: Settings) -> Executor:
    """The executor ``settings`` ask for (Dask is imported only when a scheduler address is configured)."""
    if settings.dask_scheduler:
        from bot.executors.dask_cluster import DaskExecutor

        return DaskExecutor(settings)
    from bot.jobs.process import ProcessRunner

    return ProcessRunner(settings)


__all__ = ["Execution", "Executor", "build_executor"]
