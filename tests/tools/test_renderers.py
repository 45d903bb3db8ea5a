"""Leaderboard, records, chart and compare on hand-made data whose answers are worked out in the comments."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import matplotlib.image
import pytest

from storage.scores import ScoredRun
from storage.tables import Member, Run
from tools.choices import choose
from tools.compare import compare_runs, metric_cells, shift_cells
from tools.errors import ToolError
from tools.leaderboard import leaderboard_cells, rank_best
from tools.metric_format import format_change, format_value
from tools.records import record_cells, record_history
from tools.records_chart import progression_chart_png
from tools.run_request import NormalisedRequest

T0 = datetime(2026, 11, 16, 9, 0, tzinfo=UTC)


def s(run_id: int, member: str, subject: str, value: float, hour: int) -> ScoredRun:
    return ScoredRun(run_id, member, subject, "dally@1", value, T0 + timedelta(hours=hour))


# oldest first: alice 100 → bob 90 (record, −10) → alice 90 (tie: no record) → carol 70 (record, −20) → bob 75
SCORES = [
    s(1, "alice", "naive", 100, 0),
    s(2, "bob", "naive", 90, 1),
    s(3, "alice", "tiled", 90, 2),
    s(4, "carol", "naive", 70, 3),
    s(5, "bob", "naive", 75, 4),
]


def test_leaderboard_best_per_member_method_ties_earliest_first() -> None:
    board = rank_best(SCORES)
    # best per pair: carol/naive 70 (#4), bob/naive 75 (#5 beats his 90), then alice/tiled 90 (#3) and
    # alice/naive 100 (#1); bob's 90 (#2) is no longer his best.
    assert [(r.rank, r.best.run_id) for r in board] == [(1, 4), (2, 5), (3, 3), (4, 1)]
    tied = rank_best([s(1, "a", "m", 5, 3), s(2, "b", "m", 5, 1), s(3, "a", "m", 5, 0)])
    # a's best among equal values is its earliest run (#3, hour 0); b (#2, hour 1) comes after a (hour 0)
    assert [(r.rank, r.best.member, r.best.run_id) for r in tied] == [(1, "a", 3), (2, "b", 2)]
    cells = leaderboard_cells(board)
    assert cells[0] == ["1", "carol", "naive", "dally@1", "70", "#4", "2026-11-16 12:00"]


def test_record_history_who_beat_whom_by_how_much() -> None:
    history = record_history(SCORES)
    assert [(c.record.run_id, c.previous.run_id if c.previous else None, c.improvement) for c in history] == [
        (1, None, None),
        (2, 1, 10.0),
        (4, 2, 20.0),
    ]
    cells = record_cells(history)
    assert cells[1][5] == "alice (naive, 100, #1)" and cells[1][6] == "−10 (−10.0%)"
    assert cells[2][6] == "−20 (−22.2%)"  # 20 / 90


@pytest.mark.slow
def test_progression_chart_is_a_real_png() -> None:
    png = progression_chart_png(record_history(SCORES), challenge="matmul_4x4", metric="dally@1")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    image = matplotlib.image.imread(io.BytesIO(png), format="png")
    assert image.shape[:2] == (450, 800)
    empty = progression_chart_png([], challenge="c", metric="dally@1")
    assert matplotlib.image.imread(io.BytesIO(empty), format="png").shape[:2] == (450, 800)


def make_run(run_id: int, metrics: dict[str, float], attribution: dict[str, dict[str, float]] | None) -> Run:
    run = Run(
        id=run_id,
        challenge="c",
        kind="ir",
        subject=f"s{run_id}",
        ok=True,
        metrics=metrics,
        result={"attribution": attribution} if attribution is not None else {},
        engine_version="0",
        request_key=f"k{run_id}",
        member_id=1,
        created_at=T0,
    )
    run.member = Member(id=1, name="alice")
    return run


def test_compare_metric_deltas_and_cost_shifts() -> None:
    a = make_run(1, {"dally@1": 200, "ard@1": 4.0}, {"buffer": {"A": 120, "B": 80}})
    b = make_run(2, {"dally@1": 150, "bytedmd@1": 9}, {"buffer": {"A": 40, "B": 90, "C": 20}})
    comparison = compare_runs(a, b)
    assert [(m.metric, m.delta) for m in comparison.metrics] == [
        ("ard@1", None),
        ("bytedmd@1", None),
        ("dally@1", -50),
    ]
    # A: 120→40 (−80), C: 0→20 (+20), B: 80→90 (+10): cost moved from A to C and B; total −50 = dally delta
    assert [(x.label, x.delta) for x in comparison.shifts] == [("A", -80), ("C", 20), ("B", 10)]
    assert sum(x.delta for x in comparison.shifts) == -50
    assert metric_cells(comparison)[2] == ["dally@1", "200", "150", "−50 (−25.0%)"]
    # 120 → 40 is a 3-fold cut: beyond the ratio threshold (one side ≥ 2× the other) it reads as a ratio
    assert shift_cells(comparison)[0] == ["buffer", "A", "120", "40", "−80 (3.0× cheaper)"]
    assert compare_runs(a, make_run(3, {"dally@1": 1}, None)).shifts == []


def test_value_formatting() -> None:
    # one format everywhere in chat: grouped, two decimals from 1 up, three significant digits below 1, no decimals
    # from 1e5 up, scientific only from 1e9 (worked by hand from the rule in tools/metric_format.py)
    assert (format_value(1234.0), format_value(3.14159), format_value(None)) == ("1,234", "3.14", "—")
    assert (format_value(8174.38), format_value(340704.4), format_value(0.5312)) == ("8,174.38", "340,704", "0.531")
    assert (format_value(999_999_999.0), format_value(58_659_867_413.0)) == ("999,999,999", "5.866e+10")
    assert (format_value(float("nan")), format_value(-12.5)) == ("—", "-12.50")
    assert format_change(110, 100) == "+10 (+10.0%)" and format_change(5, None) == "" and format_change(3, 3) == "±0"


def test_choose_suggests_close_names() -> None:
    assert choose("challenge", "matmul", ["matmul", "sparse_parity"]) == "matmul"
    with pytest.raises(ToolError) as err:
        choose("challenge", "matmull", ["matmul", "sparse_parity"])
    assert err.value.one_line() == "unknown challenge 'matmull' — did you mean 'matmul'?"


def test_request_key_ignores_comments_and_param_order_but_not_metric_versions() -> None:
    one = NormalisedRequest("c", "solve", "s", {"n": 2, "k": 3}, "def f():\n    return 1  # one\n", ("dally@1",))
    two = NormalisedRequest("c", "solve", "s", {"k": 3, "n": 2}, "def f():\n\n    return 1\n", ("dally@1",))
    assert one.key == two.key
    assert one.key != NormalisedRequest("c", "solve", "s", {"n": 2, "k": 3}, one.code, ("dally@2",)).key
    assert one.key != NormalisedRequest("c", "solve", "s", {"n": 2, "k": 4}, one.code, ("dally@1",)).key


def test_the_value_axis_is_logarithmic_only_past_a_decade() -> None:
    from tools.published.records import published_scores
    from tools.records_chart import uses_log_axis

    # the group's published progressions (tools/published/snapshot.json): 816,251 → 15,691 spans 52×, 340,704 →
    # 63,290 only 5.4×
    medium = [c.record.value for c in record_history(published_scores("sparse_parity_medium", "dally@1"))]
    matmul = [c.record.value for c in record_history(published_scores("matmul_16x16", "dally@1"))]
    assert (medium[0], medium[-1], uses_log_axis(medium)) == (816251, 15691, True)
    assert (matmul[0], matmul[-1], uses_log_axis(matmul)) == (340704, 63290, False)
    assert not uses_log_axis([5.0]) and not uses_log_axis([0.0, 100.0]) and uses_log_axis([1.0, 10.5])


def test_a_chart_labels_each_record_with_member_and_method_and_draws_member_text_as_typed() -> None:
    from tools.records_chart import point_label

    history = record_history([s(1, "$\\foo{$", "naive", 1000, 0), s(2, "bob", "tiled", 10, 1)])
    assert [point_label(c) for c in history] == ["$\\foo{$ · naive", "bob · tiled"]
    png = progression_chart_png(history, challenge="matmul_4x4", metric="dally@1", board="matmul_4x4 · program")
    assert matplotlib.image.imread(io.BytesIO(png), format="png").shape[:2] == (450, 800)  # log axis, no mathtext


@pytest.mark.slow
def test_importing_the_chart_module_does_not_import_matplotlib() -> None:
    import subprocess
    import sys

    probe = (
        "import sys, tools.records_chart, tools.digest_chart, bot.commands.records, bot.commands.digest_content; "
        "print('matplotlib' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout == "False\n"
