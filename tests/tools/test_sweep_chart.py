"""The sweep chart: one line per k, one mark per n (seeds averaged by hand below), refused points left out, a PNG
of the stated size."""

from __future__ import annotations

from tools.sweep_chart import SweepMark, series, sweep_chart_png


def test_marks_at_one_n_and_k_become_their_mean_and_refused_points_drop_out() -> None:
    marks = [
        SweepMark(n=30, k=3, accuracy=1.0, value=300.0, ok=True),
        SweepMark(n=20, k=3, accuracy=1.0, value=100.0, ok=True),
        SweepMark(n=20, k=3, accuracy=0.5, value=None, ok=False),  # a second seed, failed, unmeasured
        SweepMark(n=20, k=5, accuracy=0.75, value=40.0, ok=False),
        SweepMark(n=100, k=5, accuracy=None, value=None, ok=False),  # refused: over the cap
    ]
    lines = series(marks)
    assert list(lines) == [3, 5]
    assert lines[3] == [
        SweepMark(n=20, k=3, accuracy=0.75, value=100.0, ok=False),  # (1.0 + 0.5) / 2; the one measured value
        SweepMark(n=30, k=3, accuracy=1.0, value=300.0, ok=True),
    ]
    assert lines[5] == [SweepMark(n=20, k=5, accuracy=0.75, value=40.0, ok=False)]


def test_the_chart_is_a_png_of_1000_by_450_pixels() -> None:
    png = sweep_chart_png([SweepMark(n=20, k=3, accuracy=1.0, value=1e3, ok=True)], method="km_min", metric="dmc@1")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert (int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")) == (1000, 450)
