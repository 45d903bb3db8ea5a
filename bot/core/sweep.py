"""Sweep a built-in method over a grid of parameters (``/sweep local_update lr=0.03,0.1,0.3 n=20``), each point a
stored run.

The grid is read and bounded before anything runs: an unknown method or key is refused with "did you mean", a
grid over the admins' ``limits.sweep_points`` in one line with the limit. Each point is then one method run under
the same stored request as ``/run METHOD`` with those parameters — over the admins' default seed set unless the
seed is swept or named — (:func:`bot.core.run_method.run_registered_method`):
answered once, stored, compared and logged like any run, so a point run before comes back from the store and a
later ``/show ID`` or ``/compare`` works on it. A point outside the method's range (n over its cap, k > n) becomes
a row that says why; the sweep goes on.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.run_method import MethodRequest, run_registered_method
from bot.core.services import Services
from engine.errors import BadParameter
from engine.methods.sweep import Grid, SweepRow, first_point_checked, largest_solved
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
    """One point as run: its row, and the stored run (None when the point was refused before running)."""

    row: SweepRow
    run_id: int | None = None
    reused: bool = False


@dataclass(frozen=True)
class SweepOutcome:
    """Every point in grid order, and the largest n solved for every seed per k (only when n was swept)."""

    request: SweepRequest
    points: tuple[SweepPoint, ...]

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
    """Check the grid against the admins' limit and the method against the policy, then run every point."""
    policy = services.run_policy()
    policy.check_method(request.method)
    policy.check_sweep(request.grid.size)
    grid, points = request.grid, request.grid.points()
    default_seeds = [int(s) for s in services.tool_config().get("seeds.default")]  # as /run: no seed named
    done: list[SweepPoint] = []
    for i, point in enumerate(points):
        where = " ".join(f"{key}={point[key]}" for key in grid.keys) or "one point"
        progress(f"{request.method} {where} ({i + 1}/{len(points)})", i / len(points))
        try:
            method = MethodRequest.parse(request.method, dict(point))
            if not method.seeds_named:  # the point is the request /run makes: the admins' default seed set
                method = method.with_seeds(default_seeds)
        except BadParameter as err:  # outside the method's range: a row that says why
            done.append(SweepPoint(row=SweepRow.refused(point, grid.keys, err.one_line())))
            continue
        recorded = run_registered_method(services, method, member=member, force=force)
        done.append(
            SweepPoint(
                row=SweepRow.of(point, grid.keys, recorded.result),
                run_id=recorded.stored.id,
                reused=recorded.stored.reused,
            )
        )
    progress(f"{request.method}: {len(points)} points done", 1.0)
    return SweepOutcome(request=request, points=tuple(done))
