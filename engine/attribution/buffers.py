"""Per-buffer attribution of the clock metrics: which named buffers the floats read, and the cost, came from.

For one event sequence (docs/metrics.md#reuse-distance-and-dmc) every counted read has a size s and a distance d.
Reads are grouped by the name of their buffer (:mod:`engine.attribution.naming`), and each group's share of each
clock metric is its part of that metric's sum:

- ``ard@1``          = Σ s·d / S           → a group contributes Σ_group s·d / S   (S: floats read by the run)
- ``ard_per_read@1`` = Σ d / R             → a group contributes Σ_group d / R     (R: counted reads of the run)
- ``dmc@1``          = Σ s·√d              → a group contributes Σ_group s·√d

The integer numerators (Σ s·d, Σ d, floats, reads) are kept exactly, so the groups add up *exactly* to the run's
integers; the float contributions add up to the run's ``ard``/``ard_per_read``/``dmc`` within float rounding
(relative 1e-12 for these sums of at most a few million terms).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.attribution.histogram import ReuseHistogram, reuse_histogram
from engine.metrics.clock import ARD, ARD_PER_READ, DMC, ReadDistances, dmc_sum, read_distances

CLOCK_METRICS = (ARD, ARD_PER_READ, DMC)


@dataclass(frozen=True)
class BufferAttribution:
    """One named buffer (every buffer created under that name) in one scope.

    buffers: distinct buffers with this name. size: floats of the largest of them. reads / floats_read: counted
    reads and their floats. distance_sum: Σ s·d (floats²). read_distance_sum: Σ d (floats).
    mean_distance: Σ s·d / Σ s, the buffer's own per-float reuse distance. max_distance: the farthest read.
    ard / ard_per_read / dmc: contribution to the run's metric of that name (units of the metric).
    other: contributions to metrics that are not clock metrics (an IR run's ``dally@1`` by address ring,
    :mod:`engine.attribution.rings`); empty for a traced run.
    """

    name: str
    buffers: int
    size: int
    reads: int
    floats_read: int
    distance_sum: int
    read_distance_sum: int
    mean_distance: float
    max_distance: int
    ard: float
    ard_per_read: float
    dmc: float
    other: dict[str, float] = field(default_factory=dict)

    def contribution(self, metric: str) -> float:
        """Contribution to ``metric`` (``ard@1``, ``ard_per_read@1``, ``dmc@1`` or one of :attr:`other`)."""
        if metric in self.other:
            return self.other[metric]
        return {ARD: self.ard, ARD_PER_READ: self.ard_per_read, DMC: self.dmc}[metric]


@dataclass(frozen=True)
class ScopeAttribution:
    """The per-buffer table of one scope ("whole run", "one step"), rows by contribution to ``ard@1``, largest first.

    reads / floats_read / distance_sum / read_distance_sum: the run's exact integer totals over counted reads;
    metrics: the run's ``ard@1``, ``ard_per_read@1`` and ``dmc@1`` computed from the same reads.
    """

    scope: str
    rows: tuple[BufferAttribution, ...]
    reads: int
    floats_read: int
    distance_sum: int
    read_distance_sum: int
    metrics: dict[str, float]
    histogram: ReuseHistogram

    def row(self, name: str) -> BufferAttribution | None:
        return next((r for r in self.rows if r.name == name), None)

    def to_dict(self) -> dict[str, Any]:
        """Compact form: per row only what cannot be recomputed (the integers and ``dmc``); the float columns
        are derived again, by the same divisions, in :meth:`from_dict`."""
        return {
            "scope": self.scope,
            "rows": [
                [r.name, r.buffers, r.size, r.reads, r.floats_read, r.distance_sum, r.read_distance_sum]
                + [r.max_distance, r.dmc]
                + ([dict(r.other)] if r.other else [])
                for r in self.rows
            ],
            "reads": self.reads,
            "floats_read": self.floats_read,
            "distance_sum": self.distance_sum,
            "read_distance_sum": self.read_distance_sum,
            "metrics": dict(self.metrics),
            "histogram": self.histogram.to_json(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ScopeAttribution:
        floats, reads = int(data["floats_read"]), int(data["reads"])
        rows = tuple(_stored_row(raw, total_floats=floats, total_reads=reads) for raw in data["rows"])
        return cls(
            scope=str(data["scope"]),
            rows=rows,
            reads=reads,
            floats_read=floats,
            distance_sum=int(data["distance_sum"]),
            read_distance_sum=int(data["read_distance_sum"]),
            metrics={k: float(v) for k, v in data["metrics"].items()},
            histogram=ReuseHistogram.from_json(data["histogram"]),
        )


def _stored_row(raw: list[Any], *, total_floats: int, total_reads: int) -> BufferAttribution:
    """A row of :meth:`ScopeAttribution.to_dict`: the integers, ``dmc``, then the other contributions if any."""
    other = raw[-1] if raw and isinstance(raw[-1], dict) else None
    name, *ints, dmc = raw[:-1] if other is not None else raw
    row = _row(str(name), *(int(v) for v in ints), total_floats=total_floats, total_reads=total_reads, dmc=float(dmc))
    if other is not None:
        row = dataclasses.replace(row, other={str(k): float(v) for k, v in other.items()})
    return row


def _row(
    name: str,
    buffers: int,
    size: int,
    reads: int,
    floats: int,
    dist: int,
    read_dist: int,
    max_distance: int,
    *,
    total_floats: int,
    total_reads: int,
    dmc: float,
) -> BufferAttribution:
    """A row from its integers; the float columns by the divisions the module docstring defines.

    Every field is set at once in the new instance's ``__dict__``: a frozen dataclass's own ``__init__`` sets its
    13 fields one ``object.__setattr__`` at a time (2.8 µs a row against 1.0 µs, and a small run's table is a few
    dozen rows). The instance is the same: equality, ``repr`` and ``dataclasses.replace`` read the fields."""
    row = _new(BufferAttribution)
    vars(row).update(
        name=name,
        buffers=buffers,
        size=size,
        reads=reads,
        floats_read=floats,
        distance_sum=dist,
        read_distance_sum=read_dist,
        mean_distance=dist / floats if floats else 0.0,
        max_distance=max_distance,
        ard=dist / total_floats if total_floats else 0.0,
        ard_per_read=read_dist / total_reads if total_reads else 0.0,
        dmc=dmc,
        other={},
    )
    return row


_new = object.__new__


EXACT = 2**52
"""Float sums of non-negative integers whose float total is below this are exact: the true total is then below
2^53, so every product and partial sum along the way is an integer that float64 represents exactly."""


def _exact_sums(values: npt.NDArray[np.int64], group: npt.NDArray[np.int64], n: int) -> list[int]:
    """Σ of ``values`` per group index in ``range(n)`` in Python integers (a sort; for totals beyond 2^52)."""
    order = np.argsort(group, kind="stable")
    g = group[order]
    starts = np.flatnonzero(np.concatenate(([True], g[1:] != g[:-1])))
    out = [0] * n
    sums = np.add.reduceat(values[order].astype(object), starts).tolist() if g.size else []
    for i, value in zip(g[starts].tolist(), sums, strict=True):
        out[i] = int(value)
    return out


def attribute_events(
    is_write: npt.ArrayLike,
    buffer: npt.ArrayLike,
    size: npt.ArrayLike,
    buffer_names: list[str],
    scope: str,
) -> ScopeAttribution:
    """Per-name attribution of one event sequence; ``buffer_names[b]`` names buffer id b (see module docstring)."""
    names = sorted(set(buffer_names))
    index_of = {name: i for i, name in enumerate(names)}
    name_of_buffer = np.fromiter(map(index_of.__getitem__, buffer_names), dtype=np.int64, count=len(buffer_names))
    return attribute_indexed(is_write, buffer, size, names, name_of_buffer, scope)


def attribute_indexed(
    is_write: npt.ArrayLike,
    buffer: npt.ArrayLike,
    size: npt.ArrayLike,
    names: Sequence[str],
    name_of_buffer: npt.NDArray[np.int64],
    scope: str,
    distances: ReadDistances | None = None,
    dmc: float | None = None,
) -> ScopeAttribution:
    """:func:`attribute_events` with the names given as a table: ``names[name_of_buffer[b]]`` names buffer id b.

    ``distances``: the events' :func:`read_distances` when the caller has them already (the run's metrics are
    computed from the same), else computed here; ``dmc``: the run's ``dmc@1`` from those distances
    (:func:`engine.metrics.clock.metrics_of`), which saves summing it again (an exact sum: a tenth of the table's
    cost on a small run).

    One grouped pass: each per-read column is summed per name by a ``bincount`` (exact below :data:`EXACT`, else
    summed again by :func:`_exact_sums`); written buffers are counted and sized per name from a per-buffer mark,
    not a sort."""
    w = np.asarray(is_write, dtype=bool)
    b = np.asarray(buffer, dtype=np.int64)
    s = np.asarray(size, dtype=np.int64)
    rd = read_distances(w, b, s) if distances is None else distances
    n = len(names)
    g = name_of_buffer[rd.buffer]
    d = rd.distance
    size_f = rd.size.astype(np.float64)
    d_f = d.astype(np.float64)
    root_d = np.sqrt(d_f)
    # per-read columns summed per name (a bincount each: several cost less than one over the stacked columns)
    reads = np.bincount(g, minlength=n).tolist()
    sums = [np.bincount(g, weights=column, minlength=n).tolist() for column in (size_f, size_f * d_f, d_f)]
    integers = (rd.size, rd.size * d, d)  # the same columns, for an exact sum where needed
    floats, dist, read_dist = (
        _exact_sums(values, g, n) if sum(column) >= EXACT else [int(v) for v in column]
        for column, values in zip(sums, integers, strict=True)
    )
    dmc_of = np.bincount(g, weights=size_f * root_d, minlength=n).tolist()
    max_d = np.zeros(n, dtype=np.int64)
    np.maximum.at(max_d, g, d)
    written_buffers = b[w]
    marked = np.zeros(name_of_buffer.size, dtype=bool)
    marked[written_buffers] = True
    count = np.bincount(name_of_buffer[marked], minlength=n).tolist()
    largest = np.zeros(n, dtype=np.int64)
    np.maximum.at(largest, name_of_buffer[written_buffers], s[w])
    total_floats, total_reads = sum(floats), int(g.size)
    total_dist, total_read_dist = sum(dist), sum(read_dist)
    largest_list, max_list = largest.tolist(), max_d.tolist()
    present = sorted((i for i in range(n) if reads[i]), key=lambda i: (-dist[i], -floats[i], names[i]))
    rows = [
        _row(
            names[i],
            count[i],
            largest_list[i],
            reads[i],
            floats[i],
            dist[i],
            read_dist[i],
            max_list[i],
            total_floats=total_floats,
            total_reads=total_reads,
            dmc=dmc_of[i],
        )
        for i in present
    ]
    metrics = {
        ARD: total_dist / total_floats if total_floats else 0.0,
        ARD_PER_READ: total_read_dist / total_reads if total_reads else 0.0,
        # as engine.metrics.clock computes it (an exact sum, whatever the BLAS threads), or the caller's from there
        DMC: dmc_sum(size_f, d_f) if dmc is None else dmc,
    }
    return ScopeAttribution(
        scope=scope,
        rows=tuple(rows),
        reads=total_reads,
        floats_read=total_floats,
        distance_sum=total_dist,
        read_distance_sum=total_read_dist,
        metrics=metrics,
        histogram=reuse_histogram(g, list(names), rd.size, d, per_name=floats),
    )
