"""The weekly digest on a hand-made week whose records, standings, activity and failures are worked out below.

Week: [Mon 16 Nov 09:00, Mon 23 Nov 09:00) UTC.
  #1 alice  sparse_parity_small naive  1500  Nov 10  (before the week: the standing record)
  #2 bob    sparse_parity_small naive  1200  Nov 17  record: beat alice 1500 by 300 = 20.0 %
  #3 carol  sparse_parity_small tiled  1300  Nov 18  no record (1300 > 1200)
  #4 carol  sparse_parity_small tiled  1000  Nov 19  record: beat bob 1200 by 200 = 16.7 %
  #5 bob    matmul_4x4          naive    50  Nov 20  first record of matmul_4x4
  #6 carol  sparse_parity_small tiled  failed "line 3: unknown op"   Nov 21 10:00
  #7 carol  sparse_parity_small tiled  failed "line 3: unknown op"   Nov 21 11:00  (same failure: ×2)
  #8 alice  matmul_4x4          naive  failed "wall time limit"      Nov 22
  #9 dave   sparse_parity_small naive   900  Nov 24  (after the week: left out)
Runs in the week: #2–#8 = 7, of which #6–#8 failed: 4 results (a failed run is not a result); most active by
results: bob 2 (#2, #5), carol 2 (#3, #4); alice's only run failed.
"""

from __future__ import annotations

import struct
from datetime import UTC, datetime
from typing import Any

import pytest

from storage.runs import NewRun, record_run
from tools.digest import render_digest
from tools.digest_chart import activity_chart_png
from tools.digest_week import gather_week

START = datetime(2026, 11, 16, 9, 0, tzinfo=UTC)
END = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
SPS, MM = "sparse_parity_small", "matmul_4x4"

RUNS = [
    (1, "alice", SPS, "naive", 1500.0, None, datetime(2026, 11, 10, 12, tzinfo=UTC)),
    (2, "bob", SPS, "naive", 1200.0, None, datetime(2026, 11, 17, 12, tzinfo=UTC)),
    (3, "carol", SPS, "tiled", 1300.0, None, datetime(2026, 11, 18, 12, tzinfo=UTC)),
    (4, "carol", SPS, "tiled", 1000.0, None, datetime(2026, 11, 19, 12, tzinfo=UTC)),
    (5, "bob", MM, "naive", 50.0, None, datetime(2026, 11, 20, 12, tzinfo=UTC)),
    (6, "carol", SPS, "tiled", None, "line 3: unknown op\ntrace", datetime(2026, 11, 21, 10, tzinfo=UTC)),
    (7, "carol", SPS, "tiled", None, "line 3: unknown op\ntrace", datetime(2026, 11, 21, 11, tzinfo=UTC)),
    (8, "alice", MM, "naive", None, "wall time limit", datetime(2026, 11, 22, 12, tzinfo=UTC)),
    (9, "dave", SPS, "naive", 900.0, None, datetime(2026, 11, 24, 12, tzinfo=UTC)),
]


def store_week(sessions: Any) -> None:
    with sessions() as session:
        for number, member, challenge, subject, value, failure, when in RUNS:
            run = record_run(
                session,
                NewRun(
                    challenge=challenge,
                    kind="ir",
                    subject=subject,
                    ok=failure is None,
                    metrics={} if value is None else {"dally@1": value},
                    request_key=f"req-{number}",
                    member=member,
                    engine_version="test",
                    failure=failure,
                    created_at=when,
                ),
            )
            assert run.id == number


@pytest.fixture
def week(db_sessions: Any) -> Any:
    store_week(db_sessions)
    with db_sessions() as session:
        return gather_week(
            session,
            week="2026-W48",
            start=START,
            end=END,
            challenges=[(SPS, "dally@1"), (MM, "dally@1")],
            sprint_log="https://docs.google.com/document/d/DOC/edit",
        )


def test_records_of_the_week_name_who_was_beaten_and_by_how_much(week: Any) -> None:
    by_challenge = {c.challenge: c for c in week.challenges}
    sps = [
        (r.record.run_id, r.previous.run_id if r.previous else None, r.improvement) for r in by_challenge[SPS].records
    ]
    assert sps == [(2, 1, 300.0), (4, 2, 200.0)]
    assert [(r.record.run_id, r.previous) for r in by_challenge[MM].records] == [(5, None)]
    text = render_digest(week).text
    assert "• sparse_parity_small dally@1: bob 1,200 (naive, #2) beat alice 1,500 (#1) by 300 (20.0%)" in text
    assert "• sparse_parity_small dally@1: carol 1,000 (tiled, #4) beat bob 1,200 (#2) by 200 (16.7%)" in text
    assert "• matmul_4x4 dally@1: bob 50 (naive, #5) — first record" in text
    assert "dave" not in text and "900" not in text  # after the week


def test_standings_activity_failures_and_link(week: Any) -> None:
    digest = render_digest(week)
    first_line = digest.text.splitlines()[0]
    assert first_line.startswith("Weekly digest 2026-W48: 4 result(s), 3 new record(s)")
    assert (
        "Most active: bob 2 results, carol 2 results" in digest.text
        and "alice" not in digest.text.split("Most active:")[1].split("\n")[0]
    )
    failures = digest.text.split("Failures worth a look (3 failed run(s)):\n")[1].split("\n\n")[0].splitlines()
    assert failures == [
        "• #8 alice matmul_4x4/naive: wall time limit",
        "• #7 carol sparse_parity_small/tiled ×2: line 3: unknown op",
    ]
    assert digest.text.endswith("Sprint log: https://docs.google.com/document/d/DOC/edit")
    sps_table = next(t for t in digest.tables if t.title == "sparse_parity_small — dally@1")
    assert sps_table.rows == [
        ["1", "carol", "tiled", "1,000", "#4"],
        ["2", "bob", "naive", "1,200", "#2"],
        ["3", "alice", "naive", "1,500", "#1"],
    ]


def test_a_disabled_challenge_is_left_out(db_sessions: Any) -> None:
    store_week(db_sessions)
    with db_sessions() as session:
        week = gather_week(session, week="W", start=START, end=END, challenges=[(SPS, "dally@1")], sprint_log="x")
    digest = render_digest(week)
    assert "matmul_4x4 dally@1" not in digest.text and [t.title for t in digest.tables] == [
        "sparse_parity_small — dally@1"
    ]


def test_an_empty_week_says_so(db_sessions: Any) -> None:
    with db_sessions() as session:
        week = gather_week(session, week="W", start=START, end=END, challenges=[(SPS, "dally@1")], sprint_log="x")
    text = render_digest(week).text
    assert (
        "New records: none this week" in text
        and "no results this week" in text
        and "Failures worth a look: none" in text
    )


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    return struct.unpack(">II", png[16:24])


def test_the_chart_is_a_real_png_of_the_weeks_runs(week: Any) -> None:
    import io

    import matplotlib.image

    png = activity_chart_png(week.runs, week=week.week)
    assert png_size(png) == (800, 450)
    pixels = matplotlib.image.imread(io.BytesIO(png))
    assert pixels.shape[:2] == (450, 800)
    empty = activity_chart_png([], week="W")
    assert png_size(empty) == (800, 450) and empty != png  # bars drawn only when there are runs


def test_each_board_has_its_own_section_and_records(db_sessions: Any) -> None:
    # sparse parity: gf2 (solver) 500 on n=20 k=3, gf2 (solver) 90 on n=6 k=2, sgd (training) 700 on n=20 k=3 —
    # three boards; the cheap n=6 run is a record on its own board only, and sgd's 700 is the first record of the
    # training board, not a loss against gf2's 500
    runs = [
        ("gf2", {"n": 20, "k": 3}, 500.0, "alice"),
        ("gf2", {"n": 6, "k": 2}, 90.0, "bob"),
        ("sgd", {"n": 20, "k": 3}, 700.0, "carol"),
    ]
    with db_sessions() as session:
        for i, (subject, params, value, member) in enumerate(runs, start=1):
            record_run(
                session,
                NewRun(
                    challenge="sparse_parity",
                    kind="method",
                    subject=subject,
                    ok=True,
                    metrics={"dmc@1": value},
                    request_key=f"sp-{i}",
                    member=member,
                    engine_version="test",
                    params=params,
                    created_at=datetime(2026, 11, 17 + i, 12, tzinfo=UTC),
                ),
            )
        week = gather_week(
            session, week="W", start=START, end=END, challenges=[("sparse_parity", "dmc@1")], sprint_log="x"
        )
    sections = {c.challenge: [(r.record.member, r.record.value) for r in c.records] for c in week.challenges}
    assert sections == {
        "sparse_parity n=6 k=2 · solver": [("bob", 90.0)],
        "sparse_parity n=20 k=3 · solver": [("alice", 500.0)],
        "sparse_parity n=20 k=3 · training (energy to reach the target accuracy)": [("carol", 700.0)],
    }


def test_each_board_counts_its_week_and_keeps_its_whole_progression(week: Any) -> None:
    # the progression a board's chart draws is /records's: the group's published records on that board in the
    # group's order (tools/published/snapshot.json: sparse_parity_small 22,238, 6,918, 1,932 as the table lists
    # them; matmul_4x4 1,316 on 29 Apr, 800 on 30 Apr, 689 … 667 in September, all before this week), then ours in time
    # order — only values below the record so far are records
    from tools.records_chart import uses_log_axis

    boards = {c.challenge.split(" ")[0]: c for c in week.challenges}
    small, matmul = boards[SPS], boards[MM]
    assert (small.active, matmul.active) == (3, 1)  # scored in the week: #2, #3, #4; #5 (failures have no score)
    assert [c.record.value for c in small.history] == [22238.0, 6918.0, 1932.0, 1500.0, 1200.0, 1000.0]
    assert [c.record.value for c in matmul.history] == [1316.0, 800.0, 689.0, 683.0, 681.0, 675.0, 667.0, 50.0]
    assert [c.record.run_id for c in small.history] == [0, 0, 0, 1, 2, 4]  # published entries have no run
    assert uses_log_axis([c.record.value for c in small.history])  # 22,238 / 1,000 > 10
    assert uses_log_axis([c.record.value for c in matmul.history])  # 1,316 / 50 > 10
    # the week's record lines are unchanged: bob's 1,200 beat alice's 1,500 (stored results only)
    assert [(r.record.member, r.previous.member if r.previous else None) for r in small.records] == [
        ("bob", "alice"),
        ("carol", "bob"),
    ]
