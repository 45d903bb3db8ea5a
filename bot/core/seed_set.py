"""A method run over a seed set: its seeds on the job's workers in parallel, combined into one result.

The sparse-parity instance (secret, training rows) and the method's random draws all come from the seed, so one
seed says little: the group classifies a result over several seeds (docs/verdicts.md). A seed set is stored as
*one* run: ``metrics`` hold the mean over the seeds, ``seed_metrics`` the value on each seed (what the verdict's
spread and ``show`` read), ``seeds`` the set.

Parallelism: the seeds (and the baseline's seeds, in the same queue) run in long-lived child processes of the
job's worker (:mod:`bot.core.seed_pool`), ``SUTRO_JOB_WORKERS`` of them — the same count of processes the executor
runs jobs on. A set of one seed, or one worker, runs in this process. Each seed's result is the same wherever it
runs (tested against a run in this process).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from typing import Any

from bot.core.seed_pool import SeedLimitExceeded, SeedPool, SeedRunFailed
from bot.core.seed_task import SeedTask, run_here
from engine.progress import Progress, no_progress
from engine.result import RunResult

__all__ = ["SeedLimitExceeded", "SeedRunFailed", "SeedTask", "combine", "run_here", "run_tasks"]


def seed_label(task: SeedTask) -> str:
    """``local_update, seed 3``: how progress names one seed run."""
    return f"{task.method}, seed {task.params.get('seed')}"


def run_tasks(
    tasks: Sequence[SeedTask],
    *,
    workers: int,
    progress: Progress = no_progress,
    label: Callable[[SeedTask], str] = seed_label,
) -> list[RunResult]:
    """The results of ``tasks`` in their order: on at most ``workers`` child processes (in this process when there
    is one task or one worker). An engine error of a seed is raised here; so is :class:`SeedRunFailed` when a
    seed's child died. Progress names each run by ``label`` and reports the share of runs done."""
    if len(tasks) <= 1 or workers <= 1:
        results = []
        for i, task in enumerate(tasks):
            progress(f"{label(task)} ({i + 1} of {len(tasks)})", i / len(tasks))
            results.append(run_here(task))
        return results

    def done(count: int, task: SeedTask) -> None:
        progress(f"{label(task)} done ({count} of {len(tasks)})", count / len(tasks))

    size = min(workers, len(tasks))
    progress(f"running {len(tasks)} seed runs on {size} worker processes", 0.0)
    with SeedPool(size) as pool:
        return pool.run(tasks, done)


def combine(results: Sequence[RunResult], *, params: dict[str, Any], wall_s: float) -> RunResult:
    """One result for the seed set of ``results`` (one per seed, in order).

    metrics: the mean of each metric every seed has; seed_metrics: the per-seed values; accuracy: the mean; ok only
    when every seed passed (the first failing seed's reason, prefixed with its seed); per-step figures: means;
    counts, scopes, attribution and the secret of the first seed (the card's per-buffer table is of one seed).
    """
    if not results:
        raise ValueError("a seed set needs at least one result")
    first = results[0]
    seeds = [r.seeds[0] for r in results]
    keys = [k for k in first.metrics if all(k in r.metrics for r in results)]
    seed_metrics = {k: [float(r.metrics[k]) for r in results] for k in keys}
    step_keys = [k for k in first.per_step if all(k in r.per_step for r in results)]
    accuracies = [r.accuracy for r in results if r.accuracy is not None]
    failed = next((r for r in results if not r.ok), None)
    return RunResult(
        challenge=first.challenge,
        subject=first.subject,
        kind=first.kind,
        ok=failed is None,
        params=dict(params),
        seeds=seeds,
        accuracy=statistics.fmean(accuracies) if len(accuracies) == len(results) else None,
        failure=None if failed is None else f"seed {failed.seeds[0]}: {failed.failure}",
        failure_kind=None if failed is None else failed.failure_kind,
        metrics={k: statistics.fmean(v) for k, v in seed_metrics.items()},
        metric_scopes={k: v for k, v in first.metric_scopes.items() if k in seed_metrics},
        wall_s=wall_s,
        counts=dict(first.counts),
        engine_version=first.engine_version,
        buffer_attribution=first.buffer_attribution,
        per_step={k: statistics.fmean(r.per_step[k] for r in results) for k in step_keys},
        secret=first.secret,
        found=first.found,
        method_kind=first.method_kind,
        note=first.note,
        provenance=first.provenance,
        seed_metrics=seed_metrics,
    )
