"""Executors: where the job board's jobs run — local worker processes, or a Dask distributed cluster.

``build_executor(settings, job)`` picks one: a :class:`~bot.executors.local.ProcessRunner` (local forkserver
workers, the default) or, when ``SUTRO_DASK_SCHEDULER`` is set, a
:class:`~bot.executors.dask_cluster.DaskExecutor`. Both satisfy :class:`~bot.executors.base.Executor`; the job board
and every command are the same either way.
"""

from __future__ import annotations

from bot.executors.base import Execution, Executor, WorkerJob
from bot.settings import Settings


def build_executor(settings: Settings, job: WorkerJob) -> Executor:
    """The executor ``settings`` ask for, running ``job`` for each command (Dask is imported only when a scheduler
    address is configured)."""
    if settings.dask_scheduler:
        from bot.executors.dask_cluster import DaskExecutor

        return DaskExecutor(settings, job=job)
    from bot.executors.local import ProcessRunner

    return ProcessRunner(settings, job=job)


__all__ = ["Execution", "Executor", "WorkerJob", "build_executor"]
