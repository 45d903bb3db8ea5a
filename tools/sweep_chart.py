"""The chart of an n-sweep: accuracy and the primary metric against n, one line per k, as PNG bytes.

The group's scaling question ("does it still work at n=50, k=5?", cybertronai/SutroYaro
``SutroYaro:docs/findings/exp_d_scaling.md``) is read off two panels side by side: test accuracy (with the 95 %
pass line) and the board's primary metric (``dmc@1`` for sparse parity; a log axis when the values span more than
a decade), both against n. A point that was refused (over the method's n cap) has no marker; a failed point is
drawn hollow; points that share n and k (a swept seed) are drawn as their mean (:func:`series`).

matplotlib (object API, Agg canvas: no pyplot, no global figure state, safe in worker threads) is imported inside
:func:`sweep_chart_png`, so importing this module costs nothing until a chart is drawn.
"""

from __future__ import annotations

import io
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from tools.records_chart import uses_log_axis
from tools.user_text import chart

CHART_SIZE_IN = (10.0, 4.5)
CHART_DPI = 100
PASS_ACCURACY = 0.95
"""The accuracy a sparse-parity run must reach to pass (drawn as a dashed line)."""


@dataclass(frozen=True)
class SweepMark:
    """One point of the chart: n, k, the test accuracy (0–1) and the metric's value (None: not measured), and
    whether the run passed."""

    n: int
    k: int
    accuracy: float | None
    value: float | None
    ok: bool


def series(marks: Sequence[SweepMark]) -> dict[int, list[SweepMark]]:
    """k → one mark per n in increasing n, k in increasing order. Marks without an accuracy (refused points) are left
    out; several at one (n, k) (a swept seed or another swept key) become one: the mean accuracy, the mean of the
    measured values, passed only if every one passed."""
    groups: dict[tuple[int, int], list[SweepMark]] = {}
    for mark in marks:
        if mark.accuracy is not None:
            groups.setdefault((mark.k, mark.n), []).append(mark)
    by_k: dict[int, list[SweepMark]] = {}
    for (k, n), group in sorted(groups.items()):
        values = [m.value for m in group if m.value is not None]
        by_k.setdefault(k, []).append(
            SweepMark(
                n=n,
                k=k,
                accuracy=statistics.fmean(m.accuracy for m in group if m.accuracy is not None),
                value=statistics.fmean(values) if values else None,
                ok=all(m.ok for m in group),
            )
        )
    return by_k


def sweep_chart_png(marks: Sequence[SweepMark], *, method: str, metric: str) -> bytes:
    """PNG (1000×450 px): accuracy vs n (left) and ``metric`` vs n (right), one line and colour per k."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=CHART_SIZE_IN, dpi=CHART_DPI, layout="constrained")
    FigureCanvasAgg(figure)
    left, right = figure.subplots(1, 2)
    values: list[float] = []
    for i, (k, line) in enumerate(series(marks).items()):
        colour = f"C{i % 10}"
        ns = [m.n for m in line]
        left.plot(ns, [m.accuracy for m in line], "-", color=colour, label=f"k={k}")
        measured = [m for m in line if m.value is not None]
        right.plot([m.n for m in measured], [m.value for m in measured], "-", color=colour, label=f"k={k}")
        for axes, points in (
            (left, [(m.n, m.accuracy, m.ok) for m in line]),
            (right, [(m.n, m.value, m.ok) for m in measured]),
        ):
            for n, y, ok in points:
                axes.plot([n], [y], "o", color=colour, markerfacecolor=colour if ok else "white")
        values += [float(m.value) for m in measured if m.value is not None]
    left.axhline(PASS_ACCURACY, color="grey", linestyle="--", linewidth=1, label="pass (95 %)")
    left.set_ylim(0.0, 1.05)
    left.set_xlabel("n (bits)")
    left.set_ylabel("test accuracy")
    left.set_title(chart(f"{method}: accuracy vs n"))
    log = uses_log_axis(values)
    if log:
        right.set_yscale("log")
    right.set_xlabel("n (bits)")
    right.set_ylabel(chart(metric + (" (log scale)" if log else "")))
    right.set_title(chart(f"{method}: {metric} vs n"))
    for axes in (left, right):
        axes.grid(True, which="both" if axes is right and log else "major", alpha=0.3)
        axes.legend(fontsize=8)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()
