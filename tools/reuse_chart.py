"""The reuse-distance chart of a sprint-log entry: floats read per log₂ distance bin, the run beside its baseline,
as PNG bytes (800×450 px).

The histogram is the run's own (:class:`engine.attribution.histogram.ReuseHistogram`, all buffers stacked): bin
``b`` counts floats read at a reuse distance ``2^b ≤ d < 2^(b+1)`` (docs/metrics.md#reuse-distance-and-dmc). Bars
further right are reads from further away, which cost more. matplotlib's object API with the Agg canvas, imported
when a chart is drawn (no pyplot, no global state).
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from engine.attribution.histogram import ReuseHistogram
from tools.user_text import chart

CHART_SIZE_IN = (8.0, 4.5)
CHART_DPI = 100


def reuse_chart_png(series: Sequence[tuple[str, ReuseHistogram]], *, title: str) -> bytes:
    """Grouped bars, one colour per named histogram (e.g. ``sgd`` and ``local_update``), over the bins any has."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    bins = sorted({b for _, histogram in series for b in histogram.total()})
    figure = Figure(figsize=CHART_SIZE_IN, dpi=CHART_DPI)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    width = 0.8 / max(len(series), 1)
    for i, (name, histogram) in enumerate(series):
        totals = histogram.total()
        positions = [j + (i - (len(series) - 1) / 2) * width for j in range(len(bins))]
        axes.bar(positions, [totals.get(b, 0) for b in bins], width=width, label=chart(name))
    axes.set_xticks(range(len(bins)), [f"2^{b}" for b in bins])
    axes.set_xlabel("reuse distance (bin: 2^b ≤ d < 2^(b+1))")
    axes.set_ylabel("floats read")
    axes.set_title(chart(title))
    axes.grid(True, axis="y", alpha=0.3)
    if series:
        axes.legend()
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()
