"""The digest's chart: runs per member during the week, valid and failed stacked, as PNG bytes.

matplotlib object API with the Agg canvas (no pyplot, no global state), as in tools/records_chart.py, imported inside
:func:`activity_chart_png`: building a digest's text costs no matplotlib import.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from storage.digests import WeekRun
from tools.user_text import chart

CHART_SIZE_IN = (8.0, 4.5)
CHART_DPI = 100


def activity_chart_png(runs: Sequence[WeekRun], *, week: str) -> bytes:
    """PNG (800×450 px) of each member's runs this week: valid (blue) and failed (red) stacked."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    members = sorted({r.member for r in runs}, key=lambda m: (-sum(r.member == m for r in runs), m))
    valid = [sum(r.member == m and r.ok for r in runs) for m in members]
    failed = [sum(r.member == m and not r.ok for r in runs) for m in members]
    figure = Figure(figsize=CHART_SIZE_IN, dpi=CHART_DPI)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    if members:
        positions = list(range(len(members)))
        axes.bar(positions, valid, color="tab:blue", label="valid")
        axes.bar(positions, failed, bottom=valid, color="tab:red", label="failed")
        axes.set_xticks(positions, [chart(m) for m in members], rotation=30, ha="right")  # names as typed
        axes.legend()
    else:
        axes.text(0.5, 0.5, "no runs this week", ha="center", va="center", transform=axes.transAxes)
    axes.set_title(chart(f"Runs per member, {week}"))
    axes.set_ylabel("runs")
    axes.grid(True, axis="y", alpha=0.3)
    figure.tight_layout()
    figure.set_layout_engine(None)  # laid out once: savefig then draws once instead of twice (docs/performance.md)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()
