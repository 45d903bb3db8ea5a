"""The record progression chart of one board — a step line of the record value over time, one marker per record
labelled with its member and method — or of several boards in one figure, a panel each, as PNG bytes.

When the records span more than a decade (the published sparse-parity medium progression runs from 816,251 to 15,691;
matmul 16×16's, 340,704 to 66,707, does not) the value axis is logarithmic, so the later, smaller improvements stay
visible. Member text is drawn as typed: mathtext and TeX off (:mod:`tools.user_text`).

matplotlib (object API, Agg canvas: no pyplot, no global figure state, safe in worker threads) is imported inside
:func:`progression_chart_png` and :func:`overview_chart_png`, so importing this module — as the records command
does — costs nothing until a chart is drawn.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

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
    from matplotlib.figure import Figure

    figure = Figure(figsize=CHART_SIZE_IN, dpi=CHART_DPI)
    FigureCanvasAgg(figure)
    _draw(figure.add_subplot(), history, metric, f"{board or challenge}: record {metric} over time")
    figure.autofmt_xdate()
    return _png(figure)


MAX_PANELS = 9
"""Boards drawn in one overview figure (three rows of three); ``records`` says which boards were left out."""
PANEL_SIZE_IN = (4.0, 3.0)


def overview_chart_png(panels: Sequence[tuple[str, str, Sequence[RecordChange]]]) -> bytes:
    """PNG of several boards' record progressions in one figure, a panel per board — ``(board name, metric,
    history)``, at most :data:`MAX_PANELS` — up to three across, each drawn as :func:`progression_chart_png` draws
    one board (its own value axis: boards are not comparable)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    if not 0 < len(panels) <= MAX_PANELS:
        raise ValueError(f"an overview draws 1 to {MAX_PANELS} boards, not {len(panels)}")
    columns = min(3, len(panels))
    rows = -(-len(panels) // columns)
    width, height = PANEL_SIZE_IN
    figure = Figure(figsize=(width * columns, height * rows), dpi=CHART_DPI, layout="constrained")
    FigureCanvasAgg(figure)
    grid = figure.subplots(rows, columns, squeeze=False)
    for axes, (board, metric, history) in zip(grid.flat, panels, strict=False):
        _draw(axes, history, metric, board, small=True)
    for axes in list(grid.flat)[len(panels) :]:
        axes.set_visible(False)
    return _png(figure)


def _draw(axes: Any, history: Sequence[RecordChange], metric: str, title: str, *, small: bool = False) -> None:
    """One board's record steps on ``axes``: markers labelled with who set each record, a log value axis past a
    decade."""
    from matplotlib.dates import date2num

    times = [float(date2num(c.record.created_at)) for c in history]
    values = [c.record.value for c in history]
    if times:
        axes.step(times, values, where="post", color="tab:blue")
        axes.plot(times, values, "o", color="tab:blue")
        labelled = list(zip(history, times, strict=True))
        for change, when in labelled[-1:] if small else labelled:  # a panel names only the current record
            axes.annotate(
                point_label(change),  # member text as typed: mathtext and TeX off
                (when, change.record.value),
                textcoords="offset points",
                xytext=(4, 4),
                fontsize=6 if small else 8,
                parse_math=False,
                usetex=False,
            )
    log = uses_log_axis(values)
    if log:
        axes.set_yscale("log")
    axes.xaxis_date()
    axes.set_title(chart(title), fontsize=9 if small else None)
    axes.set_ylabel(chart(metric + (" (log scale)" if log else "")))
    if not small:
        axes.set_xlabel("time (UTC)")
    else:
        axes.tick_params(axis="x", labelrotation=30, labelsize=7)
    axes.grid(True, which="both" if log else "major", alpha=0.3)


def _png(figure: Any) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()
