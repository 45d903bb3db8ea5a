"""Per-buffer attribution of solve() runs under remote arrays: names from the requests, and tables that add up.

Oracles: the hand-computed distances of test_session's worked session (x read at 6, y at 3, y + 1 at 2); the
invariant that the rows' integer sums equal the scope's and the rows' contributions add up to the metrics the
parent metered (``Session.metrics`` / ``per_instance_metrics[0]``).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.attribution.buffers import CLOCK_METRICS, ScopeAttribution
from engine.attribution.run_attribution import WHOLE_RUN
from engine.sandbox import judge_solve
from engine.sandbox.judge import session_attribution
from engine.sandbox.remote.session import Session
from engine.sandbox.tier import TierReport
from tests.engine.sandbox.conftest import submission


def adds_up(table: ScopeAttribution, metrics: dict[str, float]) -> None:
    assert sum(r.floats_read for r in table.rows) == table.floats_read
    assert sum(r.reads for r in table.rows) == table.reads
    assert sum(r.distance_sum for r in table.rows) == table.distance_sum
    assert sum(r.read_distance_sum for r in table.rows) == table.read_distance_sum
    assert table.histogram.floats_read() == table.floats_read
    for metric in CLOCK_METRICS:
        assert math.isclose(sum(r.contribution(metric) for r in table.rows), metrics[metric], rel_tol=1e-12)
        assert math.isclose(table.metrics[metric], metrics[metric], rel_tol=1e-12)


def test_hand_computed_session_by_buffer() -> None:
    x = np.array([[1, -1], [-1, 1]], dtype=np.int64)
    y = np.array([1, -1], dtype=np.int64)
    s = Session([x, y], max_elements=1000, max_ops=100)  # write x (clock 0 -> 4), write y (4 -> 6)
    s.handle({"op": "get", "t": 0, "a": [{"t": [0, 0]}]})  # read x, 1 float: d = 6; a 0-d x[…] written (7 -> 8)
    z = s.handle({"op": "bin", "a": ["add", {"h": 1}, 1]})["r"]["a"][0]  # read y (2): d = 4; write y + k
    s.handle({"op": "meth", "t": z, "a": ["sum"]})  # read y + k (2): d = 2; a 0-d sum written, never read
    attribution = session_attribution(s)
    table = attribution.scope(WHOLE_RUN)
    assert table is not None
    by_name = {r.name: (r.reads, r.floats_read, r.distance_sum) for r in table.rows}
    assert by_name == {"x": (1, 1, 6), "y": (1, 2, 8), "y + k": (1, 2, 4)}
    adds_up(table, s.metrics())


def test_names_follow_the_requests() -> None:
    x = np.ones((4, 3), dtype=np.int64)
    y = np.ones(4, dtype=np.int64)
    s = Session([x, y], max_elements=1000, max_ops=100)
    row = s.handle({"op": "get", "t": 0, "a": [0]})["r"]["a"][0]  # x[0]
    product = s.handle({"op": "bin", "a": ["matmul", {"h": 1}, {"h": 0}]})["r"]["a"][0]
    zeros = s.handle({"op": "np", "a": ["zeros", 3]})["r"]["a"][0]
    total = s.handle({"op": "bin", "a": ["add", {"h": product}, {"h": zeros}]})["r"]["a"][0]
    s.handle({"op": "meth", "t": total, "a": ["sum"]})
    names = [s.name_of(h) for h in (row, product, zeros, total)]
    assert names == ["x[…]", "y @ x", "np.zeros()", "y @ x + np.zeros()"]
    table = session_attribution(s).scope(WHOLE_RUN)
    assert table is not None
    adds_up(table, s.metrics())


@pytest.mark.slow
def test_judged_solve_has_a_table_that_adds_up_to_its_instance(tier: TierReport) -> None:
    if not tier.runs_submissions:
        pytest.skip("this machine cannot run submissions")
    result = judge_solve(submission("gf2_solve"), instances=2)
    assert result.ok and result.buffer_attribution is not None
    table = result.buffer_attribution.scope(WHOLE_RUN)
    assert table is not None
    adds_up(table, result.per_instance_metrics[0])
    names = {r.name for r in table.rows}
    assert {"x", "y"} <= names and len(names) > 4
