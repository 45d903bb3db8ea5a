"""``bytedmd@2`` of solve() submissions, computed in the parent from the requests it executes.

Oracles: the in-process element tracer (``engine.metrics.bytedmd.bytedmd``) run on the same solve() with real numpy
on the same instance — the remote price must be the same number where the program hands back no tracked scalar
(both honest fixtures: gf2 and brute force); and a hand-worked session (stack depths counted below).
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from engine.metrics.bytedmd import BYTEDMD, bytedmd
from engine.metrics.registry import metrics_for
from engine.sandbox import judge_solve
from engine.sandbox.judge import SCOPE, hidden_instance
from engine.sandbox.limits import DEFAULT_LIMITS
from engine.sandbox.remote import allowlist, client
from engine.sandbox.remote.session import Session
from engine.sandbox.tier import TierReport
from tests.engine.sandbox.conftest import proxies_released, submission


class _SessionReader:
    """The child's reply stream, answered in-process: each readline() takes the request the client just wrote to
    the pipe and hands it to the parent's Session (the wire format both ways, as in the sandbox)."""

    def __init__(self, session: Session, fd_in: int) -> None:
        self.session = session
        self.stream = os.fdopen(fd_in, "rb")

    def readline(self) -> bytes:
        request = json.loads(self.stream.readline())
        return (json.dumps(self.session.handle(request)) + "\n").encode()


def remote_call(source: str, session: Session, *args: Any) -> Any:
    """Run ``solve(x, y, *args)`` from ``source`` against ``session`` through the real client (remote numpy)."""
    fd_in, fd_out = os.pipe()
    real_numpy = sys.modules["numpy"]
    with proxies_released():  # the proxies' releases go to this channel, not the next test's
        try:
            remote = client.connect(
                fd_out, _SessionReader(session, fd_in), sorted(allowlist.FUNCTIONS), sorted(allowlist.DTYPES)
            )
            sys.modules["numpy"] = real_numpy  # connect installs the stand-in; only the solve below may see it
            names: dict[str, Any] = {}
            exec(compile(source, "<solve>", "exec"), names)  # noqa: S102 — the test's own fixture source
            names["np"] = remote
            x, y = (client.RemoteArray(h, tuple(shape), dtype) for h, shape, dtype in _described(session))
            return names["solve"](x, y, *args)
        finally:
            sys.modules["numpy"] = real_numpy
            os.close(fd_out)


def _described(session: Session) -> list[tuple[int, list[int], str]]:
    return [tuple(session.describe(i)["a"]) for i in session.input_ids]  # type: ignore[misc]


def in_process(source: str) -> Callable[..., Any]:
    names: dict[str, Any] = {}
    exec(compile(source, "<solve>", "exec"), names)  # noqa: S102 — the test's own fixture source
    return names["solve"]


@pytest.mark.parametrize("name", ["gf2_solve", "brute_force_solve"])
def test_remote_price_is_at_least_the_in_process_tracer(name: str) -> None:
    """The judge never charges less than the tracer; it charges more where numpy takes values out of tracked
    elements (``==`` on object arrays, ``astype``): the tracer then computes on free plain values, the judge keeps
    them as fresh tracked values (docs/metrics.md#what-a-solve-pays-for). gf2 casts its whole bit matrix, so nearly
    all its work was free in-process; brute force only pays for reading its comparison results."""
    source = submission(name)
    n, k = 12, 3
    for seed in (1, 2):
        inst = hidden_instance(n, k, 60, 10, seed)
        session = Session([inst["x_train"], inst["y_train"]], max_elements=1 << 20, max_ops=20_000)
        answer = remote_call(source, session, n, k)
        solve = in_process(source)
        expected = bytedmd(lambda x, y, solve=solve: solve(x, y, n, k), (inst["x_train"], inst["y_train"]))
        assert sorted(answer) == inst["secret"]
        assert session.metrics()[BYTEDMD] >= expected > 0


def test_hand_worked_session() -> None:
    # y = [c] placed first, then x = [[a, b]]: the stack is a, c (top first); b is never read, so never held.
    s = Session([np.array([[3, 4]]), np.array([5])], max_elements=100, max_ops=10)
    column = s.handle({"op": "get", "t": 0, "a": [{"t": [{"s": [None, None, None]}, 0]}]})["r"]["a"][0]
    product = s.handle({"op": "bin", "a": ["mul", {"h": column}, {"h": 1}]})["r"]["a"][0]  # reads a @1, c @2
    (element,) = s.handle({"op": "meth", "t": product, "a": ["tolist"]})["r"]["l"]  # r stays in the parent
    assert s.handle({"op": "int", "t": element["a"][0]}) == {"r": 15}  # crosses to the child: r read @1
    assert s.metrics()[BYTEDMD] == 1 + 2 + 1


def test_a_value_crossing_to_the_child_is_read_once_as_it_crosses() -> None:
    s = Session([np.array([1, 2, 3])], max_elements=100, max_ops=10)
    total = s.handle({"op": "meth", "t": 0, "a": ["sum"]})["r"]["a"][0]  # a 0-d array held by the parent
    assert s.handle({"op": "int", "t": total}) == {"r": 6}
    # stack 3, 2, 1 (top first). 1+2: reads 1 @3 (cost 2), 2 @2 (cost 2) -> t; t+3: reads t @1 (1), 3 @2 (2)
    # -> s, handed back: s @1 (1)
    assert s.metrics()[BYTEDMD] == 2 + 2 + 1 + 2 + 1


def test_judged_run_reports_bytedmd_with_its_scope(tier: TierReport) -> None:
    result = judge_solve(submission("gf2_solve"), n_bits=12, k_sparse=3, instances=2, tier=tier)
    assert result.ok, result.failure
    assert set(result.metrics) == set(metrics_for("numpy", "solve"))
    assert result.metric_scopes[BYTEDMD] == SCOPE
    assert result.metrics[BYTEDMD] == np.mean([m[BYTEDMD] for m in result.per_instance_metrics])
    assert result.note is None


def test_element_trace_over_its_cpu_limit_drops_only_bytedmd(tier: TierReport) -> None:
    limits = dataclasses.replace(DEFAULT_LIMITS, parent_cpu_s=0.0)  # no room for the element trace
    result = judge_solve(submission("gf2_solve"), n_bits=8, k_sparse=2, instances=2, tier=tier, limits=limits)
    assert result.ok, result.failure
    assert BYTEDMD not in result.metrics
    assert set(result.metrics) == set(metrics_for("numpy", "solve")) - {BYTEDMD}
    assert result.note is not None and "bytedmd@2 not computed" in result.note
