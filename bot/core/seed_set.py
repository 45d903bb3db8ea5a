"""A method run over a seed set: each seed in its own worker process, in parallel, combined into one result.

The sparse-parity instance (secret, training rows) and the method's random draws all come from the seed, so one
seed says little: the group classifies a result over several seeds (docs/verdicts.md). A seed set is stored as
*one* run: ``metrics`` hold the mean over the seeds, ``seed_metrics`` the value on each seed (what the verdict's
spread and ``show`` read), ``seeds`` the set.

Parallelism: the seeds (and the baseline's seeds) run as child processes of the job's worker, at most
``SUTRO_JOB_WORKERS`` at a time — the same count of processes the executor runs jobs on. Children rather than a
``multiprocessing`` pool because a job's worker process is daemonic (it may not start ``multiprocessing``
children); they share its process group, so cancelling the job kills them too. A set of one seed, or one worker,
runs in this process.

Run as ``python -m bot.core.seed_set``, this module is that child: it reads one pickled :class:`SeedTask` on
stdin and writes the pickled :class:`~engine.result.RunResult` (or the engine error) on stdout.
"""

from __future__ import annotations

import os
import pickle
import statistics
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from engine.errors import EngineError
from engine.progress import Progress, no_progress
from engine.result import RunResult


class SeedRunFailed(EngineError):
    """A seed's child process died without a result (killed, out of memory)."""


@dataclass(frozen=True)
class SeedTask:
    """One seed of one method: the method's name and its raw parameters with ``seed`` set."""

    method: str
    params: dict[str, Any]


def run_here(task: SeedTask) -> RunResult:
    """Run ``task`` in this process (fully traced, as every method run)."""
    from engine.methods import run_method

    return run_method(task.method, task.params)


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
    """The results of ``tasks`` in their order: in child processes, at most ``workers`` at once (in this process
    when there is one task or one worker). An engine error in a child is raised here. Progress names each run by
    ``label`` and reports the share of runs done."""
    if len(tasks) <= 1 or workers <= 1:
        results = []
        for i, task in enumerate(tasks):
            progress(f"{label(task)} ({i + 1} of {len(tasks)})", i / len(tasks))
            results.append(run_here(task))
        return results
    done: list[int] = []
    counting = threading.Lock()  # one report at a time, so the counts and shares arrive in increasing order

    def one(task: SeedTask) -> RunResult:
        result = _run_child(task)
        with counting:
            done.append(1)
            progress(f"{label(task)} done ({len(done)} of {len(tasks)})", len(done) / len(tasks))
        return result

    progress(f"running {len(tasks)} seed runs, {min(workers, len(tasks))} at a time", 0.0)
    with ThreadPoolExecutor(max_workers=min(workers, len(tasks))) as pool:
        return list(pool.map(one, tasks))


ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
"""A child's BLAS on one thread: the seeds are the parallelism, and each child's own BLAS threads would contend
for the same cores (measured: one local_update n=20 seed took 4.3 s in a child with BLAS threads, 2.5 s without).
Training is unchanged (same steps, same accuracy); dmc's float sums may differ from a multi-threaded run in the last
digits (about 1e-14 relative)."""


def _run_child(task: SeedTask) -> RunResult:
    proc = subprocess.run(
        [sys.executable, "-m", "bot.core.seed_set"],
        input=pickle.dumps(task),
        capture_output=True,
        check=False,
        env={**os.environ, **ONE_THREAD},
    )
    if proc.returncode != 0 or not proc.stdout:
        last = (proc.stderr.decode("utf-8", "replace").strip().splitlines() or ["no output"])[-1]
        raise SeedRunFailed(f"{task.method} seed {task.params.get('seed')} ended without a result ({last})")
    answer = pickle.loads(proc.stdout)  # noqa: S301 - our own child's answer, over a private pipe
    if isinstance(answer, tuple):
        raise EngineError(answer[1], hint=answer[2])
    assert isinstance(answer, RunResult)
    return answer


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


def _child() -> None:
    task = pickle.load(sys.stdin.buffer)  # noqa: S301 - written by our own parent
    try:
        answer: object = run_here(task)
    except EngineError as exc:  # sent as text: not every error class rebuilds from its pickled arguments
        answer = ("error", exc.message, exc.hint)
    sys.stdout.buffer.write(pickle.dumps(answer))
    sys.stdout.buffer.flush()


if __name__ == "__main__":
    _child()
