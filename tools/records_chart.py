"""The record progression chart of one board: a step line of the record value over time, one marker per record
labelled with its member and method, as PNG bytes.

When the records span more than a decade (the published sparse-parity medium progression runs from 816,251 to 15,691;
matmul 16×16's, 340,704 to 66,707, does not) the value axis is logarithmic, so the later, smaller improvements stay
visible. Member text is drawn as typed: mathtext and TeX off (:mod:`tools.user_text`).

matplotlib (object API, Agg canvas: no pyplot, no global figure state, safe in worker threads) is imported inside
:func:`progression_chart_png`, so importing this module — as the records command does — costs nothing until a chart
is drawn.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from tools.records import RecordChange
from tools.user_text import chart, one_line

CHART_SIZE_IN = (8.0, 4.5)
CHART_DPI = 100
LOG_SPAN = 10.0
"""Largest max/min ratio of the record values drawn on a linear axis; above it the axis is logarithmic."""


def uses_log_axis(values: Sequence[float]) -> bool:
    """Whether ``values`` (all positive) span more than a decade: ``max / min > 10``."""
    positive = [v for v in values if v > 0]
    return len(positive) == len(values) and len(values) >= 2 and max(positive) / min(positive) > LOG_SPAN


def point_label(change: RecordChange) -> str:
    """``ann · sgd``: who set the record and with what (a published record: its author only)."""
    record = change.record
    return one_line(record.member if record.published else f"{record.member} · {record.subject}")


def progression_chart_png(history: Sequence[RecordChange], *, challenge: str, metric: str, board: str = "") -> bytes:
    """PNG of the record over time (800×450 px); lower is better, so the line only steps down. ``board`` names the
    board in the title (default: the challenge)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.dates import date2num
    from matplotlib.figure import Figure

    figure = Figure(figsize=CHART_SIZE_IN, dpi=CHART_DPI)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    times = [float(date2num(c.record.created_at)) for c in history]
    values = [c.record.value for c in history]
    if times:
        axes.step(times, values, where="post", color="tab:blue")
        axes.plot(times, values, "o", color="tab:blue")
        for change, when in zip(history, times, strict=True):
            axes.annotate(
                point_label(change),  # member text as typed: mathtext and TeX off
                (when, change.record.value),
                textcoords="offset points",
                xytext=(4, 4),
                fontsize=8,
                parse_math=False,
                usetex=False,
            )
    log = uses_log_axis(values)
    if log:
        axes.set_yscale("log")
    axes.xaxis_date()
    axes.set_title(chart(f"{board or challenge}: record {metric} over time"))
    axes.set_ylabel(chart(metric + (" (log scale)" if log else "")))
    axes.set_xlabel("time (UTC)")
    axes.grid(True, which="both" if log else "major", alpha=0.3)
    figure.autofmt_xdate()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()
