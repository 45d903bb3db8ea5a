"""Sweeps: one method over a grid of parameter values (n, k, seeds, lr …), one typed row per run.

The group's standing question is whether a method still works as n and k grow ("does it still work at n=50,
k=5?"; cybertronai/SutroYaro:docs/findings/exp_d_scaling.md and exp_curriculum.md), and their hyper-parameter
studies vary one key at a time (lr, batch, hidden). A :class:`Grid` is read from ``key=v1,v2,…`` options: every key
given more than one value is an axis, the rest are fixed; the points are the axes' product, the last axis varying
fastest. :func:`sweep_grid` runs the points in order through :func:`engine.methods.run_method` (fully traced, so each
row carries the primary metric ``dmc@1``), turns a refused point (over a method's n cap, k > n, a scan over the
subset limit) into a row that says why instead of stopping the sweep, and :func:`largest_solved` reads off the
largest n solved for every seed.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from engine.errors import BadParameter
from engine.methods import METHODS, method_values
from engine.methods.params import COMMON_DEFAULTS
from engine.methods.runner import run_with
from engine.metrics.clock import DMC
from engine.result import RunResult

MAX_POINTS = 200
"""Largest grid one sweep may run whatever the admins set (a deployment's own limit is usually lower)."""

ALIASES = {"seeds": "seed"}
"""Sweep spellings of run keys (``seeds=0,1,2`` sweeps ``seed``)."""


@dataclass(frozen=True)
class Grid:
    """The swept keys with their values (as given, duplicates dropped) and the fixed keys, in the order given."""

    axes: tuple[tuple[str, tuple[str, ...]], ...]
    fixed: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, options: Mapping[str, str]) -> Grid:
        """``{"n": "20,30", "lr": "0.1"}`` → axis n, fixed lr. An empty item (``n=20,,30``) is refused in one line."""
        axes: list[tuple[str, tuple[str, ...]]] = []
        fixed: list[tuple[str, str]] = []
        for raw_key, text in options.items():
            key = ALIASES.get(raw_key, raw_key)
            values = tuple(dict.fromkeys(item.strip() for item in str(text).split(",")))
            if any(not item for item in values):
                raise BadParameter(f"{raw_key}={text} has an empty value", hint=f"e.g. {key}=20,30,50")
            if len(values) > 1:
                axes.append((key, values))
            else:
                fixed.append((key, values[0]))
        return cls(axes=tuple(axes), fixed=tuple(fixed))

    @property
    def size(self) -> int:
        """Number of points (1 for a grid without axes: a single run)."""
        size = 1
        for _, values in self.axes:
            size *= len(values)
        return size

    @property
    def keys(self) -> tuple[str, ...]:
        """The swept keys, in order."""
        return tuple(key for key, _ in self.axes)

    def points(self) -> list[dict[str, str]]:
        """Every point's full parameters (fixed keys and its coordinates), the last axis varying fastest."""
        fixed = dict(self.fixed)
        combos = itertools.product(*(values for _, values in self.axes))
        return [{**fixed, **dict(zip(self.keys, combo, strict=True))} for combo in combos]

    def check(self, limit: int = MAX_POINTS) -> None:
        """BadParameter (one line, with the limit) for a grid over ``limit`` points."""
        limit = min(limit, MAX_POINTS)
        if self.size > limit:
            counts = " × ".join(f"{len(values)} {key}" for key, values in self.axes)
            raise BadParameter(
                f"the sweep grid has {self.size:,} points ({counts})",
                hint=f"the limit is {limit}: fewer values",
            )


@dataclass(frozen=True)
class SweepRow:
    """One grid point: its swept coordinates, the instance (n, k, seed), whether it passed, accuracy (None if
    refused), the primary metric ``dmc@1`` (whole run; None if refused), wall seconds, and a one-line reason when
    refused or failed."""

    n: int
    k: int
    seed: int
    ok: bool
    accuracy: float | None
    dmc: float | None
    wall_s: float
    note: str = ""
    point: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, point: Mapping[str, str], swept: Sequence[str], result: RunResult) -> SweepRow:
        """The row of a point that ran."""
        return cls(
            n=int(result.params.get("n", _instance(point, "n"))),
            k=int(result.params.get("k", _instance(point, "k"))),
            seed=int(result.params.get("seed", _instance(point, "seed"))),
            ok=result.ok,
            accuracy=result.accuracy,
            dmc=result.metrics.get(DMC),
            wall_s=result.wall_s,
            note=result.failure or result.note or "",
            point=tuple((key, point[key]) for key in swept),
        )

    @classmethod
    def refused(cls, point: Mapping[str, str], swept: Sequence[str], reason: str) -> SweepRow:
        """The row of a point outside the method's range, with the reason."""
        return cls(
            n=_instance(point, "n"),
            k=_instance(point, "k"),
            seed=_instance(point, "seed"),
            ok=False,
            accuracy=None,
            dmc=None,
            wall_s=0.0,
            note=reason,
            point=tuple((key, point[key]) for key in swept),
        )


def _instance(point: Mapping[str, str], key: str) -> int:
    """n, k or seed of a point as given (the default when not given or not a whole number)."""
    text = str(point.get(key, ""))
    return int(text) if text.isdigit() else int(COMMON_DEFAULTS[key])


def first_point_checked(method: str, grid: Grid) -> None:
    """Refuse an unknown method or key (UnknownName, "did you mean") before anything long runs; a value out of
    range is not refused here: that point becomes a row that says why."""
    METHODS.get(method)
    with contextlib.suppress(BadParameter):
        method_values(method, grid.points()[0])


def sweep_grid(
    method: str,
    grid: Grid,
    *,
    limit: int = MAX_POINTS,
    progress: Callable[[str, float | None], None] | None = None,
) -> list[SweepRow]:
    """Run ``method`` at every point of ``grid`` (at most ``limit`` points); rows in grid order."""
    grid.check(limit)
    first_point_checked(method, grid)
    rows: list[SweepRow] = []
    points = grid.points()
    for i, point in enumerate(points):
        if progress is not None:
            where = " ".join(f"{key}={point[key]}" for key in grid.keys)
            progress(f"{method} {where} ({i + 1}/{len(points)})", i / len(points))
        try:
            result = run_with(METHODS, method, point)
        except BadParameter as err:  # this point is outside the method's range: say so, go on
            rows.append(SweepRow.refused(point, grid.keys, err.one_line()))
            continue
        rows.append(SweepRow.of(point, grid.keys, result))
    return rows


def sweep(
    method: str,
    ns: Sequence[int],
    ks: Sequence[int],
    seeds: Sequence[int] = (0,),
    params: Mapping[str, str | int | float] | None = None,
    *,
    progress: Callable[[str, float | None], None] | None = None,
) -> list[SweepRow]:
    """:func:`sweep_grid` over n × k × seed with the other ``params`` fixed.

    Raises :class:`BadParameter` for an empty grid or one over :data:`MAX_POINTS`, and the method's own
    UnknownName for an unknown method or key (checked on the first point, before anything long runs).
    """
    if not (ns and ks and seeds):
        raise BadParameter("the sweep grid is empty", hint="give at least one n, one k and one seed")
    axes = tuple((key, tuple(str(v) for v in values)) for key, values in (("n", ns), ("k", ks), ("seed", seeds)))
    fixed = tuple((key, str(value)) for key, value in (params or {}).items())
    return sweep_grid(method, Grid(axes=axes, fixed=fixed), progress=progress)


def largest_solved(rows: Sequence[SweepRow], k: int) -> int | None:
    """The largest n at which every row with this k passed (None if none did)."""
    by_n: dict[int, list[bool]] = {}
    for row in rows:
        if row.k == k:
            by_n.setdefault(row.n, []).append(row.ok)
    solved = [n for n, oks in by_n.items() if oks and all(oks)]
    return max(solved) if solved else None
