"""Per-buffer attribution against a plain-Python reference, on every built-in method in both scopes.

The reference replays the event log one event at a time with the clock rule of docs/metrics.md#reuse-distance-and-dmc
(a write stamps its buffer, a read of a stamped buffer has distance clock − stamp, every event advances the clock by
its size), names each buffer from its recorded creation site one buffer at a time, and sums per name with Python
integers (``math.sqrt`` for ``dmc``). The table the runner stores (:func:`engine.methods.runner.measured`) must give
the same names and integers, and floats within 1e-12 relative: whatever shortcuts the fast path takes for small or
large runs, it may not change a stored value."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field

import pytest

from engine.attribution import ONE_STEP, WHOLE_RUN, NamingEventLog, ScopeAttribution
from engine.attribution.buffers import BufferAttribution
from engine.attribution.histogram import MAX_ROWS, OTHER
from engine.attribution.naming import UNNAMED, cached_site_name
from engine.methods import METHODS
from engine.methods.runner import measured, place_step, resolve, run_traced
from engine.metrics.clock import ARD, ARD_PER_READ, DMC
from tests.engine.test_attribution_buffers import small_params


def reference_names(log: NamingEventLog) -> list[str]:
    """The name of every buffer id, one buffer at a time from its code object, offset and label."""
    ends = [*list(log.code_starts)[1:], len(log.site_offsets)]
    names = []
    for code, start, end in zip(log.codes, log.code_starts, ends, strict=True):
        for buf in range(start, end):
            names.append(cached_site_name(code, log.site_offsets[buf], log.labels.get(buf, "")))
    names[0] = UNNAMED
    return names


@dataclass
class Totals:
    reads: int = 0
    floats: int = 0
    dist: int = 0
    read_dist: int = 0
    dmc: float = 0.0
    max_d: int = 0
    written: set[int] = field(default_factory=set)
    largest: int = 0
    bins: dict[int, int] = field(default_factory=dict)


def reference_table(log: NamingEventLog) -> tuple[dict[str, Totals], list[float]]:
    """Per name: the sums of the module docstring, event by event; and every read's s·√d, in event order."""
    names = reference_names(log)
    is_write, buffer, size = (a.tolist() for a in log.arrays())
    clock, stamp = 0, {}
    per: dict[str, Totals] = {}
    terms = []
    for w, b, s in zip(is_write, buffer, size, strict=True):
        t = per.setdefault(names[b], Totals())
        if w:
            stamp[b] = clock
            t.written.add(b)
            t.largest = max(t.largest, s)
        elif b in stamp:
            d = clock - stamp[b]
            t.reads += 1
            t.floats += s
            t.dist += s * d
            t.read_dist += d
            t.dmc += s * math.sqrt(d)
            terms.append(s * math.sqrt(d))
            t.max_d = max(t.max_d, d)
            exponent = max(d, 1).bit_length() - 1
            t.bins[exponent] = t.bins.get(exponent, 0) + s
        clock += s
    return {name: t for name, t in per.items() if t.reads}, terms


def assert_matches_reference(log: NamingEventLog, table: ScopeAttribution) -> None:
    per, terms = reference_table(log)
    floats = sum(t.floats for t in per.values())
    reads = sum(t.reads for t in per.values())
    dist = sum(t.dist for t in per.values())
    read_dist = sum(t.read_dist for t in per.values())
    order = sorted(per, key=lambda name: (-per[name].dist, -per[name].floats, name))
    assert [r.name for r in table.rows] == order
    assert (table.reads, table.floats_read, table.distance_sum, table.read_distance_sum) == (
        reads,
        floats,
        dist,
        read_dist,
    )
    for row in table.rows:
        assert row == BufferAttribution(**{f.name: getattr(row, f.name) for f in dataclasses.fields(row)})
        t = per[row.name]
        assert (row.buffers, row.size, row.reads, row.floats_read) == (len(t.written), t.largest, t.reads, t.floats)
        assert (row.distance_sum, row.read_distance_sum, row.max_distance) == (t.dist, t.read_dist, t.max_d)
        assert row.dmc == pytest.approx(t.dmc, rel=1e-12, abs=1e-300)
        assert row.mean_distance == (t.dist / t.floats if t.floats else 0.0)
        assert row.ard == (t.dist / floats if floats else 0.0)
        assert row.ard_per_read == t.read_dist / reads
    assert table.metrics[ARD] == (dist / floats if floats else 0.0)
    assert table.metrics[ARD_PER_READ] == (read_dist / reads if reads else 0.0)
    assert table.metrics[DMC] == pytest.approx(math.fsum(terms), rel=1e-12, abs=1e-300)
    histogram = dict(zip(table.histogram.names, table.histogram.rows, strict=True))
    assert table.histogram.total() == dict(sorted(_stacked([t.bins for t in per.values()]).items()))
    kept = [name for name in histogram if name != OTHER]
    assert len(kept) == min(len(per), MAX_ROWS)
    for name in kept:
        assert histogram[name] == per[name].bins
    smallest_kept = min((per[name].floats for name in kept), default=0)
    assert all(per[name].floats <= smallest_kept for name in per if name not in histogram)


def _stacked(rows: list[dict[int, int]]) -> dict[int, int]:
    out: dict[int, int] = {}
    for row in rows:
        for b, v in row.items():
            out[b] = out.get(b, 0) + v
    return out


@pytest.mark.parametrize("name", METHODS.names())
def test_every_method_table_matches_the_event_by_event_reference(name: str) -> None:
    method = METHODS.get(name)
    task, values = resolve(METHODS, name, small_params(method))
    outcome, log, *_ = run_traced(method, values, task, NamingEventLog())
    assert isinstance(log, NamingEventLog)
    assert log.buffer_names() == reference_names(log)
    metrics, table = measured(log, WHOLE_RUN)
    assert table is not None and table.scope == WHOLE_RUN
    assert_matches_reference(log, table)
    assert metrics[DMC] == table.metrics[DMC]
    if outcome.one_step is not None:
        step_log = NamingEventLog()
        place_step(*outcome.one_step, step_log)
        step_metrics, step_table = measured(step_log, ONE_STEP)
        assert step_table is not None and step_table.scope == ONE_STEP
        assert step_log.buffer_names() == reference_names(step_log)
        assert_matches_reference(step_log, step_table)
        assert step_metrics[DMC] == step_table.metrics[DMC]
