"""The record progression chart: a step line of the record value over time, one marker per record, as PNG bytes.

Uses matplotlib's object API with the Agg canvas (no pyplot, no global figure state, safe in worker threads).
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.dates import date2num
from matplotlib.figure import Figure

from tools.records import RecordChange
from tools.user_text import chart, one_line

CHART_SIZE_IN = (8.0, 4.5)
CHART_DPI = 100


def progression_chart_png(history: Sequence[RecordChange], *, challenge: str, metric: str) -> bytes:
    """PNG of the record over time (800×450 px); lower is better, so the line only steps down."""
    figure = Figure(figsize=CHART_SIZE_IN, dpi=CHART_DPI)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    times = [float(date2num(c.record.created_at)) for c in history]
    values = [c.record.value for c in history]
    if times:
        axes.step(times, values, where="post", color="tab:blue")
        axes.plot(times, values, "o", color="tab:blue")
        for change in history:
            axes.annotate(
                one_line(change.record.member),  # a member's name, shown as typed: mathtext and TeX off
                (float(date2num(change.record.created_at)), change.record.value),
                textcoords="offset points",
                xytext=(4, 4),
                fontsize=8,
                parse_math=False,
                usetex=False,
            )
    axes.xaxis_date()
    axes.set_title(chart(f"{challenge}: record {metric} over time"))
    axes.set_ylabel(chart(metric))
    axes.set_xlabel("time (UTC)")
    axes.grid(True, alpha=0.3)
    figure.autofmt_xdate()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()
