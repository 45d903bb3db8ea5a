"""Reuse-distance charts as PNG bytes: one run's floats read per log₂ distance bin, one stacked bar segment per named
buffer (:func:`reuse_chart_png`), and a run beside its baseline for the sprint log (:func:`comparison_chart_png`);
histograms are :class:`engine.attribution.ReuseHistogram` (docs/metrics.md#reuse-distance-and-dmc).

Uses matplotlib's object API with the Agg canvas (no pyplot, no global figure state, safe in worker threads); import
this module only where a chart is drawn. Buffer names come from member code, so every text drawn from them has
mathtext and TeX off (:func:`tools.user_text.one_line`); titles, whose mathtext cannot be switched off, go through
:func:`tools.user_text.chart`.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from engine.attribution import ReuseHistogram, bin_label
from tools.user_text import chart, one_line

CHART_SIZE_IN = (8.0, 4.5)
CHART_DPI = 100
MAX_LEGEND = 8
"""Buffers with a legend entry and a colour of their own; the rest are stacked as one grey ``(rest)`` segment."""


def _figure() -> tuple[Figure, Axes]:
    """An 800×450 px figure on the Agg canvas and its one axes."""
    figure = Figure(figsize=CHART_SIZE_IN, dpi=CHART_DPI)
    FigureCanvasAgg(figure)
    return figure, figure.add_subplot()


def _png(figure: Figure, axes: Axes, *, title: str, xlabel: str, ylabel: str = "floats read") -> bytes:
    """Title, axis labels and grid as every reuse chart has them, laid out and saved as PNG bytes."""
    axes.set_title(chart(title))
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    axes.grid(True, axis="y", alpha=0.3)
    figure.tight_layout()
    figure.set_layout_engine(None)  # laid out once: savefig then draws once instead of twice (docs/performance.md)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


def reuse_chart_png(
    histogram: ReuseHistogram,
    *,
    title: str,
    distance: str = "reuse distance (floats, log₂ bins)",
    read: str = "floats read",
) -> bytes:
    """PNG (800×450 px) of ``histogram``: x = distance bins (log₂), y = floats read, bars stacked by buffer, the
    buffers with the most floats read at the bottom. ``distance`` / ``read``: the axis labels (an IR program's
    histogram bins reads by address ring, :mod:`engine.attribution.rings`)."""
    figure, axes = _figure()
    present = histogram.bins()
    bins = list(range(present[0], present[-1] + 1)) if present else []  # empty bins too: the x axis stays log₂
    positions = list(range(len(bins)))
    order = sorted(range(len(histogram.names)), key=lambda i: -sum(histogram.rows[i].values()))
    shown, rest = order[:MAX_LEGEND], order[MAX_LEGEND:]
    segments: list[tuple[str, list[int], str | None]] = [
        (one_line(histogram.names[i]), [histogram.rows[i].get(b, 0) for b in bins], None) for i in shown
    ]
    if rest:
        segments.append(("(rest)", [sum(histogram.rows[i].get(b, 0) for i in rest) for b in bins], "0.6"))
    bottom = [0] * len(bins)
    for name, heights, colour in segments:
        axes.bar(positions, heights, bottom=bottom, label=name, color=colour, width=0.8)
        bottom = [a + h for a, h in zip(bottom, heights, strict=True)]
    axes.set_xticks(positions, [bin_label(b) for b in bins], rotation=30, ha="right", fontsize=8)
    if segments:
        legend = axes.legend(fontsize=8, loc="upper left")
        for text in legend.get_texts():  # buffer names are member text: shown as typed
            text.set_parse_math(False)
            text.set_usetex(False)
    else:
        axes.text(0.5, 0.5, "no reads", transform=axes.transAxes, ha="center", parse_math=False)
    return _png(figure, axes, title=title, xlabel=distance, ylabel=read)


def comparison_chart_png(series: Sequence[tuple[str, ReuseHistogram]], *, title: str) -> bytes:
    """A sprint-log entry's chart: grouped bars, one colour per named histogram (e.g. ``sgd`` and
    ``local_update``), over the bins any has."""
    bins = sorted({b for _, histogram in series for b in histogram.total()})
    figure, axes = _figure()
    width = 0.8 / max(len(series), 1)
    for i, (name, histogram) in enumerate(series):
        totals = histogram.total()
        positions = [j + (i - (len(series) - 1) / 2) * width for j in range(len(bins))]
        axes.bar(positions, [totals.get(b, 0) for b in bins], width=width, label=chart(name))
    axes.set_xticks(range(len(bins)), [f"2^{b}" for b in bins])
    if series:
        axes.legend()
    return _png(figure, axes, title=title, xlabel="reuse distance (bin: 2^b ≤ d < 2^(b+1))")
