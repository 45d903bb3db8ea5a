"""Sweep a built-in method over a grid of parameters (``/sweep local_update lr=0.03,0.1,0.3 n=20``), each point a
stored run.

The grid is read and bounded before anything runs: an unknown method or key is refused with "did you mean", a
grid over the admins' ``limits.sweep_points`` in one line with the limit. Each point is then one method run under
the same stored request as ``/run METHOD`` with those parameters — over the admins' default seed set unless the
seed is swept or named — (:func:`bot.core.run_method.run_registered_methods`):
answered once, stored, compared and logged like any run, so a point run before comes back from the store and a
later ``/show ID`` or ``/compare`` works on it. The seed runs of all points missing from the store run together,
in parallel on the job's workers (:mod:`bot.core.seed_set`), with a progress line per finished seed run. A point
outside the method's range (n over its cap, k > n) becomes a row that says why; the sweep goes on.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.attribution_diff import primary_metric
from bot.core.run_method import MethodRequest, run_registered_methods
from bot.core.seed_set import SeedTask
from bot.core.services import Services
from engine.errors import BadParameter
from engine.methods import Grid, SweepRow, first_point_checked, largest_solved
from engine.metrics import DMC
from engine.progress import Progress, no_progress


@dataclass(frozen=True)
class SweepRequest:
    """A method and the grid of its parameters, checked for unknown names (values are checked per point)."""

    method: str
    grid: Grid

    @classmethod
    def parse(cls, method: str, options: dict[str, str]) -> SweepRequest:
        """UnknownName (method or key, with "did you mean"); BadParameter for an empty value in a list."""
        grid = Grid.parse(options)
        first_point_checked(method, grid)
        return cls(method=method, grid=grid)


@dataclass(frozen=True)
class SweepPoint:
    """One point as run: its row, the stored run (None when the point was refused before running) and its value of
    the sweep's metric (the challenge's primary metric; None when refused or not measured)."""

    row: SweepRow
    run_id: int | None = None
    reused: bool = False
    value: float | None = None


@dataclass(frozen=True)
class SweepOutcome:
    """Every point in grid order, the metric the points report (the challenge's primary metric, the admins'
    ``metric.primary.<challenge>`` else the registry's), and the largest n solved for every seed per k (only when n
    was swept)."""

    request: SweepRequest
    points: tuple[SweepPoint, ...]
    metric: str = DMC

    @property
    def largest_solved(self) -> dict[int, int | None]:
        """k → the largest n at which every run passed; {} when n is not an axis."""
        if "n" not in self.request.grid.keys:
            return {}
        rows = [p.row for p in self.points]
        return {k: largest_solved(rows, k) for k in dict.fromkeys(row.k for row in rows)}


def run_sweep(
    services: Services,
    request: SweepRequest,
    *,
    member: str,
    force: bool = False,
    progress: Progress = no_progress,
) -> SweepOutcome:
    """Check the grid against the admins' limit and the method against the policy, then run every point: the seed
    runs of all points still missing from the store run in parallel on the job's workers
    (:func:`bot.core.run_method.run_registered_methods`), and each point is stored as its own run."""
    policy = services.run_policy()
    policy.check_method(request.method)
    policy.check_sweep(request.grid.size)
    grid, points = request.grid, request.grid.points()
    default_seeds = [int(s) for s in services.tool_config().get("seeds.default")]  # as /run: no seed named
    refused: dict[int, SweepPoint] = {}
    runnable: list[tuple[int, MethodRequest]] = []
    for i, point in enumerate(points):
        try:
            method = MethodRequest.parse(request.method, dict(point))
            if not method.seeds_named:  # the point is the request /run makes: the admins' default seed set
                method = method.with_seeds(default_seeds)
        except BadParameter as err:  # outside the method's range: a row that says why
            refused[i] = SweepPoint(row=SweepRow.refused(point, grid.keys, err.one_line()))
            continue
        runnable.append((i, method))

    def label(task: SeedTask) -> str:  # "sgd n=30 k=5, seed 2": the point's coordinates and the seed
        where = "".join(f" {key}={task.params[key]}" for key in grid.keys if key != "seed" and key in task.params)
        return f"{request.method}{where}, seed {task.params.get('seed')}"

    progress(f"{request.method}: {len(points)} points, {len(runnable)} to run or reuse", 0.0)
    recorded = run_registered_methods(
        services, [method for _, method in runnable], member=member, force=force, progress=progress, label=label
    )
    metric = primary_metric(services, runnable[0][1].challenge) if runnable else None
    ran = {
        i: SweepPoint(
            row=SweepRow.of(points[i], grid.keys, run.result),
            run_id=run.stored.id,
            reused=run.stored.reused,
            value=None if metric is None else run.result.metrics.get(metric),
        )
        for (i, _), run in zip(runnable, recorded, strict=True)
    }
    progress(f"{request.method}: {len(points)} points done", 1.0)
    done = tuple(ran[i] if i in ran else refused[i] for i in range(len(points)))
    return SweepOutcome(request=request, points=done, metric=metric or DMC)
