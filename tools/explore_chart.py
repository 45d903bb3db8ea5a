"""The progression chart of an /explore loop: the cost of every judged candidate and the best so far, by step, as
PNG bytes (docs/explore.md).

Kept candidates are filled dots on the falling "best so far" line; discarded ones hollow; refused ones (broken
rules) crosses at their cost when it was priced. Dashed lines mark the start's cost and, when the board has one,
its record — so one glance says how far the loop got and how far the record still is.

matplotlib (object API, Agg canvas) is imported inside :func:`explore_chart_png`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

CHART_SIZE_IN = (8.0, 4.0)
CHART_DPI = 100


@dataclass(frozen=True)
class ChartStep:
    """One step: its number, the candidate's cost (None: not priced) and what became of it (kept/discarded/invalid)."""

    number: int
    cost: int | None
    outcome: str


def best_so_far(start_cost: int, steps: Sequence[ChartStep]) -> list[tuple[int, int]]:
    """(step, best cost after it), starting at (0, start_cost): the line the chart draws."""
    best = start_cost
    line = [(0, start_cost)]
    for step in steps:
        if step.outcome == "kept" and step.cost is not None:
            best = min(best, step.cost)
        line.append((step.number, best))
    return line


def explore_chart_png(
    steps: Sequence[ChartStep], *, start_cost: int, record_cost: float | None, title: str, metric: str = "dally@1"
) -> bytes:
    """PNG (800×400 px) of the loop's progression."""
    import io

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=CHART_SIZE_IN, dpi=CHART_DPI, layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.subplots()
    line = best_so_far(start_cost, steps)
    axes.step([x for x, _ in line], [y for _, y in line], where="post", color="C0", label="best so far")
    styles = {"kept": ("o", "C0", "C0"), "discarded": ("o", "none", "C7"), "invalid": ("x", "C3", "C3")}
    for outcome, (marker, face, edge) in styles.items():
        points = [(s.number, s.cost) for s in steps if s.outcome == outcome and s.cost is not None]
        if points:
            axes.scatter(
                [x for x, _ in points],
                [y for _, y in points],
                marker=marker,
                facecolors=face,
                edgecolors=edge if marker == "o" else None,
                color=edge if marker == "x" else None,
                label=outcome,
                zorder=3,
            )
    axes.axhline(start_cost, color="C7", linestyle="--", linewidth=1, label=f"start {start_cost:,}")
    if record_cost is not None:
        axes.axhline(record_cost, color="C2", linestyle="--", linewidth=1, label=f"board record {record_cost:,.0f}")
    axes.set_xlabel("step")
    axes.set_ylabel(metric)
    axes.set_title(title)
    axes.legend(loc="best", fontsize="small")
    out = io.BytesIO()
    figure.savefig(out, format="png")
    return out.getvalue()
