"""Scaling sweeps: one method over a grid of n and k (and seeds), one typed row per run.

The group's standing question is whether a method still works as n and k grow ("does it still work at n=50,
k=5?"; cybertronai/SutroYaro:docs/findings/exp_d_scaling.md and exp_curriculum.md). :func:`sweep` runs the
grid in order through :func:`engine.methods.run_method` (fully traced, so each row carries the primary metric),
turns a refused point (over a method's n cap, k > n, a scan over the subset limit) into a row that says why
instead of stopping the sweep, and :func:`largest_solved` reads off the largest n solved for every seed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from engine.errors import BadParameter
from engine.methods import METHODS
from engine.methods.runner import run_with
from engine.metrics.clock import DMC

MAX_POINTS = 200
"""Largest grid (len(ns) × len(ks) × len(seeds)) one sweep may run."""


@dataclass(frozen=True)
class SweepRow:
    """One grid point: its coordinates, whether it passed, accuracy (None if refused), the primary metric
    ``dmc@1`` (whole run; None if refused), wall seconds, and a one-line reason when refused or failed."""

    n: int
    k: int
    seed: int
    ok: bool
    accuracy: float | None
    dmc: float | None
    wall_s: float
    note: str = ""


def sweep(
    method: str,
    ns: Sequence[int],
    ks: Sequence[int],
    seeds: Sequence[int] = (0,),
    params: Mapping[str, str | int | float] | None = None,
    *,
    progress: Callable[[str, float | None], None] | None = None,
) -> list[SweepRow]:
    """Run ``method`` at every (n, k, seed) of the grid with the other ``params`` fixed; rows in grid order.

    Raises :class:`BadParameter` for an empty grid or one over :data:`MAX_POINTS`, and the method's own
    UnknownName for an unknown method or key (checked on the first point, before anything long runs).
    """
    points = [(n, k, s) for n in ns for k in ks for s in seeds]
    if not points:
        raise BadParameter("the sweep grid is empty", hint="give at least one n, one k and one seed")
    if len(points) > MAX_POINTS:
        raise BadParameter(
            f"the sweep grid has {len(points):,} points",
            hint=f"the limit is {MAX_POINTS}: fewer values of n, k or seeds",
        )
    METHODS.get(method)  # an unknown method is refused before the first run
    fixed = dict(params or {})
    rows: list[SweepRow] = []
    for i, (n, k, seed) in enumerate(points):
        if progress is not None:
            progress(f"{method} n={n} k={k} seed={seed} ({i + 1}/{len(points)})", i / len(points))
        try:
            result = run_with(METHODS, method, {**fixed, "n": n, "k": k, "seed": seed})
        except BadParameter as err:  # this point is outside the method's range: say so, go on
            rows.append(SweepRow(n, k, seed, False, None, None, 0.0, err.one_line()))
            continue
        rows.append(
            SweepRow(
                n=n,
                k=k,
                seed=seed,
                ok=result.ok,
                accuracy=result.accuracy,
                dmc=result.metrics.get(DMC),
                wall_s=result.wall_s,
                note=result.failure or result.note or "",
            )
        )
    return rows


def largest_solved(rows: Sequence[SweepRow], k: int) -> int | None:
    """The largest n at which every seed passed for this k (None if none did)."""
    by_n: dict[int, list[bool]] = {}
    for row in rows:
        if row.k == k:
            by_n.setdefault(row.n, []).append(row.ok)
    solved = [n for n, oks in by_n.items() if oks and all(oks)]
    return max(solved) if solved else None
