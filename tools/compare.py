"""Compare two stored runs: metric deltas, and where attribution was stored, which buffers/address ranges the cost
moved between (pure).

Attribution (``RunResult.attribution``) is ``{group: {label: cost}}`` — e.g. ``{"buffer": {"A": 120, "B": 40}}``.
A label's delta is ``cost_b - cost_a`` (missing = 0): negative = cost moved away from it, positive = towards it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from storage.tables import Run
from tools.metric_format import format_change, format_value


@dataclass(frozen=True)
class MetricDelta:
    metric: str
    a: float | None
    b: float | None

    @property
    def delta(self) -> float | None:
        return None if self.a is None or self.b is None else self.b - self.a


@dataclass(frozen=True)
class CostShift:
    group: str
    label: str
    a: float
    b: float

    @property
    def delta(self) -> float:
        return self.b - self.a


@dataclass(frozen=True)
class Comparison:
    metrics: list[MetricDelta]
    shifts: list[CostShift]


def _attribution(run: Run) -> dict[str, dict[str, float]]:
    stored: Any = run.result.get("attribution") if isinstance(run.result, dict) else None
    return stored if isinstance(stored, dict) else {}


def compare_runs(a: Run, b: Run) -> Comparison:
    """Deltas of every metric either run has (sorted by name) and the attribution shifts, largest first."""
    names = sorted(set(a.metrics) | set(b.metrics))
    metrics = [MetricDelta(n, a.metrics.get(n), b.metrics.get(n)) for n in names]
    attr_a, attr_b = _attribution(a), _attribution(b)
    shifts = []
    for group in sorted(set(attr_a) & set(attr_b)):
        labels = set(attr_a[group]) | set(attr_b[group])
        for label in labels:
            shift = CostShift(group, label, float(attr_a[group].get(label, 0)), float(attr_b[group].get(label, 0)))
            if shift.delta:
                shifts.append(shift)
    shifts.sort(key=lambda s: (-abs(s.delta), s.group, s.label))
    return Comparison(metrics=metrics, shifts=shifts)


def metric_cells(comparison: Comparison) -> list[list[str]]:
    """Rows: metric, value A, value B, change B vs A."""
    return [
        [
            m.metric,
            format_value(m.a),
            format_value(m.b),
            format_change(m.b, m.a) if m.b is not None else "only in A",
        ]
        for m in comparison.metrics
    ]


def shift_cells(comparison: Comparison) -> list[list[str]]:
    """Rows: group, label, cost A, cost B, change."""
    return [
        [s.group, s.label, format_value(s.a), format_value(s.b), format_change(s.b, s.a)] for s in comparison.shifts
    ]
