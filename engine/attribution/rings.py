"""An IR run's ``dally@1`` by spiral address ring, in the shape of a per-buffer table, so that ``compare`` diffs two IR
runs (or two generate() runs) the way it diffs two method runs.

Under the Dally model (docs/metrics.md#dally-ir-cost) a read of address a costs ⌈√a⌉: ring r holds addresses
(r-1)²+1 … r² (2r-1 of them) and every read there costs r. Each ring is one row:

- name ``ring r (a–b)``, buffers = size = 2r-1 addresses, reads = floats read = the ring's reads (one value each);
- distance_sum = read_distance_sum = r × reads (the ring's cost), so the row's mean and max distance are r — the
  spatial distance of the ring, not a reuse distance; ard / ard_per_read are the same divisions a stored table
  reads back with (cost / reads), dmc 0;
- ``other["dally@1"]`` = r × reads: the rows add up exactly (integers) to the run's ``dally@1``.

The scope is :data:`WHOLE_PROGRAM` and states only ``dally@1``: no clock metric is measured for an IR program, so
none is diffed. Its histogram has the traced runs' shape (:class:`engine.attribution.histogram.ReuseHistogram`,
log₂ bins, one row per ring) over the distance an IR read has, its ring r: bin b holds the reads of the rings with
2^b ≤ r < 2^(b+1), and the rows add up to the program's reads.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.attribution.buffers import BufferAttribution, ScopeAttribution
from engine.attribution.histogram import MAX_ROWS, OTHER, ReuseHistogram
from engine.attribution.run_attribution import Attribution

WHOLE_PROGRAM = "whole program"
DALLY = "dally@1"
EXACT_LIMIT = 2**53
"""Costs from here on are not all exact as floats."""


def ring_name(ring: int) -> str:
    return f"ring {ring} ({(ring - 1) ** 2 + 1}–{ring * ring})"


def ring_histogram(reads_by_ring: Mapping[int, int]) -> ReuseHistogram:
    """Reads by log₂ of their ring, one row per ring (each ring fills one bin: ``r.bit_length() - 1``), the
    :data:`MAX_ROWS` rings with the most reads on rows of their own and the rest summed into ``(other)`` — as
    :func:`engine.attribution.histogram.reuse_histogram` lays out a traced run's, without numpy: an IR program has
    a few dozen rings, and a score takes a fraction of a millisecond."""
    # most reads first, ties by ring: the order must not depend on the order the scorer met the rings in (the
    # line loop and the array path meet them differently)
    rings = sorted((r for r, k in reads_by_ring.items() if k), key=lambda r: (-reads_by_ring[r], r))
    names = [ring_name(r) for r in rings[:MAX_ROWS]]
    rows = [{r.bit_length() - 1: reads_by_ring[r]} for r in rings[:MAX_ROWS]]
    if len(rings) > MAX_ROWS:
        other: dict[int, int] = {}
        for r in rings[MAX_ROWS:]:
            other[r.bit_length() - 1] = other.get(r.bit_length() - 1, 0) + reads_by_ring[r]
        names.append(OTHER)
        rows.append(dict(sorted(other.items())))
    return ReuseHistogram(names=tuple(names), rows=tuple(rows))


def ring_attribution(reads_by_ring: Mapping[int, int], metric: str = DALLY) -> Attribution | None:
    """The per-ring table of an IR run whose reads cost ``ring`` each (``reads_by_ring``: ring → reads); None when
    the cost reaches :data:`EXACT_LIMIT` (addresses of thousands of digits), where a float contribution could no
    longer add up exactly (the run keeps its ring counts in ``RunResult.attribution``)."""
    total_reads = sum(reads_by_ring.values())
    total_cost = sum(r * k for r, k in reads_by_ring.items())
    if total_cost >= EXACT_LIMIT:
        return None
    rows = [
        BufferAttribution(
            name=ring_name(r),
            buffers=2 * r - 1,
            size=2 * r - 1,
            reads=k,
            floats_read=k,
            distance_sum=r * k,
            read_distance_sum=r * k,
            mean_distance=float(r),
            max_distance=r,
            ard=r * k / total_reads,
            ard_per_read=r * k / total_reads,
            dmc=0.0,
            other={metric: float(r * k)},
        )
        for r, k in reads_by_ring.items()
        if k
    ]
    rows.sort(key=lambda row: (-row.distance_sum, row.name))
    histogram = ring_histogram(reads_by_ring)
    scope = ScopeAttribution(
        scope=WHOLE_PROGRAM,
        rows=tuple(rows),
        reads=total_reads,
        floats_read=total_reads,
        distance_sum=total_cost,
        read_distance_sum=total_cost,
        metrics={metric: float(total_cost)},
        histogram=histogram,
    )
    return Attribution(scopes=(scope,))
