"""Two runs' per-buffer tables side by side: which buffers moved, and how much of the change each explains.

Buffers are matched by name (:mod:`engine.attribution.naming`); names found in one run only are listed as such, so
runs of different methods still compare where their names agree. For a chosen clock metric (default ``ard@1``) each
buffer's *change* is its contribution in B minus its contribution in A; the rows are sorted by the size of that
change, largest first, so the first rows are the ones that explain the difference of the totals (the changes of all
rows, one-sided ones included, add up to B's total minus A's).

A buffer **moved** when its change is at least :data:`MOVED_SHARE` (1 %) of A's total of the metric; otherwise it is
**unchanged**. ``moved_floats_share`` is the part of A's floats read that the moved buffers account for — the founding
sprint's "dW2 and db2 contribute only 1,001 floats out of 19,013 — 5 %" — and ``moved_contribution_share`` the part of
A's total of the metric they carried.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.attribution.buffers import BufferAttribution, ScopeAttribution
from engine.metrics.clock import ARD

MOVED_SHARE = 0.01
"""A buffer moved when its contribution changed by at least this fraction of the baseline run's total."""

MOVED = "moved"
UNCHANGED = "unchanged"
ONLY_A = "only in A"
ONLY_B = "only in B"


@dataclass(frozen=True)
class BufferChange:
    """One buffer name in A and B (None where the run has no such buffer), its change and its verdict."""

    name: str
    a: BufferAttribution | None
    b: BufferAttribution | None
    change: float
    share_of_change: float
    verdict: str


@dataclass(frozen=True)
class AttributionDiff:
    """A → B for ``metric`` in one scope: totals, rows sorted by |change|, and the share that moved."""

    metric: str
    scope: str
    total_a: float
    total_b: float
    rows: tuple[BufferChange, ...]
    moved_floats_share: float
    moved_contribution_share: float

    @property
    def change(self) -> float:
        return self.total_b - self.total_a

    def moved(self) -> list[BufferChange]:
        return [r for r in self.rows if r.verdict == MOVED]

    def unmatched(self) -> list[BufferChange]:
        return [r for r in self.rows if r.verdict in (ONLY_A, ONLY_B)]


def diff_attribution(a: ScopeAttribution, b: ScopeAttribution, metric: str = ARD) -> AttributionDiff:
    """Compare two tables of the same scope (see module docstring). Raises ValueError on different scopes."""
    if a.scope != b.scope:
        raise ValueError(f"cannot compare scope {a.scope!r} with scope {b.scope!r}")
    by_a = {r.name: r for r in a.rows}
    by_b = {r.name: r for r in b.rows}
    total_a, total_b = a.metrics[metric], b.metrics[metric]
    change = total_b - total_a
    threshold = MOVED_SHARE * abs(total_a) if total_a else MOVED_SHARE * abs(total_b)
    rows = []
    for name in sorted(set(by_a) | set(by_b)):
        ra, rb = by_a.get(name), by_b.get(name)
        delta = (rb.contribution(metric) if rb else 0.0) - (ra.contribution(metric) if ra else 0.0)
        if ra is None:
            verdict = ONLY_B
        elif rb is None:
            verdict = ONLY_A
        else:
            verdict = MOVED if abs(delta) >= threshold and delta != 0 else UNCHANGED
        rows.append(BufferChange(name, ra, rb, delta, delta / change if change else 0.0, verdict))
    rows.sort(key=lambda r: (-abs(r.change), r.name))
    moved = [r.a for r in rows if r.verdict == MOVED and r.a is not None]
    return AttributionDiff(
        metric=metric,
        scope=a.scope,
        total_a=total_a,
        total_b=total_b,
        rows=tuple(rows),
        moved_floats_share=sum(r.floats_read for r in moved) / a.floats_read if a.floats_read else 0.0,
        moved_contribution_share=sum(r.contribution(metric) for r in moved) / total_a if total_a else 0.0,
    )


def _number(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:,.3g}"


def mover_lines(diff: AttributionDiff, top: int = 3) -> list[str]:
    """One plain line per top mover: ``dW2: distance 16,005 → 3,002; ard@1 -683.9 (162% of the change)``."""
    lines = []
    for r in diff.rows[:top]:
        if r.a is not None and r.b is not None:
            where = f"distance {_number(r.a.mean_distance)} → {_number(r.b.mean_distance)}"
        else:
            where = r.verdict
        share = f" ({r.share_of_change:.0%} of the change)" if diff.change else ""
        lines.append(f"{r.name}: {where}; {diff.metric} {r.change:+,.4g}{share}")
    return lines


def explain(diff: AttributionDiff, top: int = 3) -> str:
    """One sentence on what moved: the ``top`` movers' distances (A → B), then the share of A's floats read and of
    A's total that all the moved buffers carried."""
    moved = diff.moved()
    if not moved:
        return f"no buffer moved by {MOVED_SHARE:.0%} of {diff.metric} or more"
    parts = ", ".join(
        f"{r.name} {_number(r.a.mean_distance)} → {_number(r.b.mean_distance)}"
        for r in moved[:top]
        if r.a is not None and r.b is not None
    )
    more = f" and {len(moved) - top} more" if len(moved) > top else ""
    return (
        f"{parts}{more}: the {len(moved)} buffers that moved read {diff.moved_floats_share:.0%} of the floats "
        f"and carried {diff.moved_contribution_share:.0%} of {diff.metric} before"
    )
