"""A reuse-distance chart (the one ``show``/``run`` send for a run): drawn and saved once, against the same chart saved
with the tight layout engine left on the figure, as before 2026-11-29. With the engine on, ``savefig`` draws the
figure twice (once with drawing switched off, to lay it out again, then for real); laid out once by
``tight_layout()`` and the engine then removed, it draws once. Both must give the same PNG bytes.

Prints the median CPU milliseconds of each (interleaved), the ratio, then the machine and its load.

Run: ``PYTHONPATH=$PWD .venv/bin/python bench/bench_charts.py [--repeat 15]``
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from matplotlib.figure import Figure  # noqa: E402
from measure import interleaved_medians, load_line, machine_line  # noqa: E402

from engine.attribution import ReuseHistogram  # noqa: E402
from tools.reuse_chart import reuse_chart_png  # noqa: E402

HISTOGRAM = ReuseHistogram(
    names=("x_train", "w", "h", "grad"),
    rows=tuple({b: (b * 7 + i) % 50 + 1 for b in range(14)} for i in range(4)),
)
"""Four buffers over 14 log₂ bins: the size of a method run's chart."""


def _engine_kept() -> bytes:
    """The chart as drawn before: removing the layout engine is ignored, so savefig lays the figure out again."""
    original = Figure.set_layout_engine

    def keep(self: Figure, layout: Any = None, **kwargs: Any) -> None:
        if layout is not None:
            original(self, layout, **kwargs)

    Figure.set_layout_engine = keep  # type: ignore[method-assign]
    try:
        return reuse_chart_png(HISTOGRAM, title="run 12: local_update n=20")
    finally:
        Figure.set_layout_engine = original  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    print(load_line())
    now = reuse_chart_png(HISTOGRAM, title="run 12: local_update n=20")
    assert now == _engine_kept(), "the two ways must give the same PNG"
    contenders = {
        "once": lambda: reuse_chart_png(HISTOGRAM, title="run 12: local_update n=20"),
        "engine kept": _engine_kept,
    }
    medians = interleaved_medians(contenders, args.repeat, clock=time.process_time)
    print(f"reuse chart, 800x450 px PNG ({len(now):,} bytes), CPU ms (median of {args.repeat}):")
    print(f"  laid out once, one draw           {1000 * medians['once']:.1f}")
    print(f"  layout engine kept, two draws     {1000 * medians['engine kept']:.1f} (baseline)")
    print(f"  ratio                             {medians['once'] / medians['engine kept']:.2f}")
    print(machine_line())
    print(load_line())


if __name__ == "__main__":
    main()
