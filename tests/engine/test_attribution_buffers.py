"""Per-buffer attribution (engine/attribution): hand-worked tables, names from the source, and the invariant that
every built-in method's tables add up to its own metrics in every scope (docs/metrics.md#reuse-distance-and-dmc)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from engine.attribution import ONE_STEP, WHOLE_RUN, Attribution, NamingEventLog, attribute_log
from engine.attribution.buffers import attribute_events
from engine.attribution.elements import COMPUTED, bytedmd_by_argument
from engine.attribution.histogram import OTHER, ReuseHistogram, distance_bins, reuse_histogram
from engine.attribution.naming import UNNAMED, _numbered, argument_names
from engine.methods import METHODS
from engine.methods.method import Method
from engine.methods.params import COMMON_DEFAULTS
from engine.methods.runner import run_with
from engine.metrics.bytedmd import bytedmd
from engine.metrics.clock import clock_metrics
from engine.result import RunResult
from engine.tracing import EventLog, tracing, track


def numpy_example(log: EventLog) -> None:
    """docs/metrics.md worked example B: x (4 floats) and w (1) written, then h = x * w and y = h + x."""
    with tracing(log):
        x = track(np.arange(4.0), log, "x")
        w = track(np.array([2.0]), log, "w")
        h = x * w
        y = h + x
        del y


def test_worked_example_by_buffer() -> None:
    log = NamingEventLog()
    numpy_example(log)
    table = attribute_log(log, ONE_STEP)
    # by hand: x is read at distances 5 and 18 (4 floats each), w at 5 (1 float), h at 4 (4 floats); 13 floats
    x, w, h = table.row("x"), table.row("w"), table.row("h")
    assert x is not None and w is not None and h is not None
    assert [r.name for r in table.rows] == ["x", "h", "w"]  # y is written, never read
    assert (x.reads, x.floats_read, x.distance_sum, x.max_distance) == (2, 8, 4 * 5 + 4 * 18, 18)
    assert (w.distance_sum, h.distance_sum) == (5, 16)
    assert x.mean_distance == 92 / 8
    assert (x.ard, w.ard, h.ard) == (92 / 13, 5 / 13, 16 / 13)
    assert (x.ard_per_read, w.ard_per_read, h.ard_per_read) == (23 / 4, 5 / 4, 4 / 4)
    assert x.dmc == pytest.approx(4 * math.sqrt(5) + 4 * math.sqrt(18), rel=1e-15)
    assert table.floats_read == 13 and table.distance_sum == 113
    assert table.metrics["ard@1"] == 113 / 13 and table.metrics["ard_per_read@1"] == 8.0
    # bins: d = 5, 5, 4 fall in [4, 8) (4 + 1 + 4 floats); d = 18 in [16, 32) (4 floats)
    assert table.histogram.total() == {2: 9, 4: 4}
    assert dict(zip(table.histogram.names, table.histogram.rows, strict=True))["x"] == {2: 4, 4: 4}


def test_naming_log_records_the_same_events_as_the_plain_log() -> None:
    plain, named = EventLog(), NamingEventLog()
    numpy_example(plain)
    numpy_example(named)
    for a, b in zip(plain.arrays(), named.arrays(), strict=True):
        assert np.array_equal(a, b)
    assert len(named.buffer_names()) == named._n_buffers + 1


def layer(x: Any, p: list[Any]) -> Any:
    w, b = p
    pre = (x @ w.T).reshape(1, -1)
    return np.maximum(pre + b, 0.0) * 2.0


def test_names_come_from_the_source() -> None:
    log = NamingEventLog()
    with tracing(log):
        x = track(np.ones((1, 3)), log, "x")
        p = [track(np.ones((2, 3)), log, "w"), track(np.zeros(2), log, "b")]
        out = layer(x, p)
        scaled = out * 3.0
        del scaled
    names = set(log.buffer_names())
    # an assignment through a view names the product; sub-expressions are their source; a return is the function
    assert {"x", "w", "b", "pre", "pre + b", "np.maximum(pre + b, 0.0)", "layer()", "scaled"} <= names


def test_argument_names_follow_the_unpacking_inside_the_function() -> None:
    args = (np.ones((1, 3)), [np.ones((2, 3)), np.zeros(2)])
    assert argument_names(layer, args) == ["x", ["w", "b"]]
    assert argument_names(lambda a, q: None, args) == ["a", ["q[0]", "q[1]"]]


def test_histogram_keeps_the_largest_rows_and_round_trips() -> None:
    names = [f"b{i}" for i in range(30)]
    index = np.arange(30, dtype=np.int64)
    sizes = np.arange(1, 31, dtype=np.int64)
    distances = 2 ** np.arange(30, dtype=np.int64)
    hist = reuse_histogram(index, names, sizes, distances)
    assert hist.names[0] == "b29" and hist.names[-1] == OTHER and len(hist.names) == 25
    assert hist.floats_read() == int(sizes.sum())
    assert hist.rows[-1] == {b: b + 1 for b in range(6)}  # the six smallest buffers, one bin each
    assert ReuseHistogram.from_json(hist.to_json()) == hist
    assert distance_bins(np.array([0, 1, 2, 3, 4, 2**40 - 1, 2**40])).tolist() == [0, 0, 1, 1, 2, 39, 40]


SMALL = {"n": 12, "k": 3, "hidden": 16, "m": 64, "epochs": 2, "batch": 16}
"""A quick instance for every method: each takes the keys it declares."""


def small_params(method: Method) -> dict[str, int]:
    return {k: v for k, v in SMALL.items() if k in method.defaults or k in COMMON_DEFAULTS}


@pytest.mark.parametrize("name", METHODS.names())
def test_every_method_attribution_adds_up_to_its_metrics(name: str) -> None:
    method = METHODS.get(name)
    result = run_with(METHODS, name, small_params(method))
    attribution = result.buffer_attribution
    assert attribution is not None
    per_step = result.per_step
    expected = {WHOLE_RUN: result.metrics}
    if method.kind == "training":
        expected[ONE_STEP] = {k.removesuffix(" (one step)"): v for k, v in per_step.items() if "(one step)" in k}
    assert [s.scope for s in attribution.scopes] == list(expected)
    for table in attribution.scopes:
        rows = table.rows
        # integer numerators add up exactly
        assert sum(r.reads for r in rows) == table.reads
        assert sum(r.floats_read for r in rows) == table.floats_read
        assert sum(r.distance_sum for r in rows) == table.distance_sum
        assert sum(r.read_distance_sum for r in rows) == table.read_distance_sum
        assert table.histogram.floats_read() == table.floats_read
        # float contributions add up to the run's own metric of that scope, to float rounding
        for metric, field in (("ard@1", "ard"), ("ard_per_read@1", "ard_per_read"), ("dmc@1", "dmc")):
            total = expected[table.scope][metric]
            assert math.fsum(getattr(r, field) for r in rows) == pytest.approx(total, rel=1e-12, abs=1e-12)
            assert table.metrics[metric] == pytest.approx(total, rel=1e-12, abs=1e-12)
    if method.kind == "training":
        split = attribution.element_scope("bytedmd@2")
        assert split is not None and split.scope == result.metric_scopes["bytedmd@2"] == ONE_STEP
        assert sum(r.cost for r in split.rows) == split.total == result.metrics["bytedmd@2"]
        if name in ("sgd", "local_update"):  # arguments under the names the step unpacks p into
            assert {"x", "y", "w1", "b1", "w2", "b2"} <= {r.name for r in split.rows}
            step_names = {r.name for r in attribution.scopes[1].rows}
            assert {"w1", "b1", "w2", "b2", "dw1", "db1", "dw2", "db2", "h_pre", "h", "dh", "dh_pre"} <= step_names
    assert len(attribution.to_json()) < 16_000
    back = RunResult(**result.to_dict())
    assert back.buffer_attribution == attribution
    assert Attribution.from_json(attribution.to_json()) == attribution


def test_run_without_attribution_has_the_same_metrics() -> None:
    params = small_params(METHODS.get("sgd"))
    with_it = run_with(METHODS, "sgd", params)
    without = run_with(METHODS, "sgd", params, attribution=False)
    assert without.buffer_attribution is None
    assert with_it.metrics == without.metrics
    assert with_it.counts == without.counts


def test_whole_run_table_matches_clock_metrics_of_the_same_events() -> None:
    log = NamingEventLog()
    numpy_example(log)
    assert attribute_log(log, WHOLE_RUN).metrics == pytest.approx(clock_metrics(*log.arrays()), rel=1e-15)


def test_two_files_of_the_same_name_are_named_from_their_own_text() -> None:
    import linecache

    names = []
    for source in ("def f(a):\n    first = a * 2.0\n    return first\n", "def f(a):\n    second = a + 1.0\n"):
        linecache.cache["same_name.py"] = (len(source), None, source.splitlines(keepends=True), "same_name.py")
        namespace: dict[str, Any] = {}
        exec(compile(source, "same_name.py", "exec"), namespace)
        log = NamingEventLog()
        with tracing(log):
            namespace["f"](track(np.ones(2), log, "a"))
        names.append(set(log.buffer_names()))
    assert "first" in names[0] and "second" in names[1] and "first" not in names[1]


def make_first(x: Any) -> Any:
    first = x + 1.0
    return first


def make_second(x: Any) -> Any:
    second = x * 2.0
    return second


def test_buffers_made_in_turn_by_several_functions_keep_their_own_names() -> None:
    # the tracer records a code object only where it changes: functions taking turns, and one coming back, must
    # still name every buffer after its own line (oracle: the names written below, buffer by buffer)
    log = NamingEventLog()
    kept = []
    with tracing(log):
        x = track(np.ones(2), log, "x")
        for _ in range(3):
            a = make_first(x)
            make_second(x)
            z = np.zeros(2)
            kept.append(np.ones(2))
            q = x[0:1] + a[0:1]
            del z, q
    per_round = ["first", "second", "z", "ones", "x[0:1]", "a[0:1]", "q"]
    assert log.buffer_names() == [UNNAMED, "ones", "x", *per_round * 3]  # np.ones(2) inside track() first


def test_sums_past_two_to_the_52_stay_exact() -> None:
    # w1 (2^26 floats) written, then w2 (2^30 + 1), then both read: Σ s·d = (A + 1)(A + B) with A = 2^26,
    # B = 2^30 + 1, which needs 57 bits: a float sum would drop its low bits
    a, b = 2**26, 2**30 + 1
    table = attribute_events([True, True, False, False], [1, 2, 1, 2], [a, b, a, 1], [UNNAMED, "w", "w"], WHOLE_RUN)
    (w,) = table.rows
    assert w.distance_sum == table.distance_sum == (a + 1) * (a + b)
    assert w.read_distance_sum == 2 * (a + b) and w.floats_read == a + 1 and w.reads == 2
    assert w.max_distance == a + b and w.buffers == 2 and w.size == b


@pytest.mark.parametrize("space", [50, 10**9])
def test_site_keys_are_numbered_in_order_by_either_path(space: int) -> None:
    keys = np.random.default_rng(7).integers(0, min(space, 10**9), 300)
    found, index = _numbered(keys, space)
    expected = sorted(set(keys.tolist()))
    assert found.tolist() == expected
    assert index.tolist() == [expected.index(k) for k in keys.tolist()]


def unpacking(a: Any, p: list[Any]) -> Any:
    u, v = p
    return a * u + v


def test_bytedmd_split_by_argument_by_hand() -> None:
    # stack u, v, a (arguments placed in reverse order, a list's elements in order); a * u reads a at depth 1
    # (cost 1) and u at depth 3 (cost ⌈√3⌉ = 2); then r + v reads r at depth 1 (1) and v at depth 2 (2): total 6
    split = bytedmd_by_argument(unpacking, (3.0, [4.0, 5.0]), argument_names(unpacking, (3.0, [4.0, 5.0])), ONE_STEP)
    assert {r.name: (r.reads, r.cost) for r in split.rows} == {"a": (1, 1), "u": (1, 2), "v": (1, 2), COMPUTED: (1, 1)}
    assert split.total == 6 == bytedmd(unpacking, (3.0, [4.0, 5.0]))
    # one list passed twice: its elements are placed once, under the argument placed first (the last one)
    same = [1.0, 2.0]
    aliased = bytedmd_by_argument(lambda x, y: x[0] * y[1], (same, same), [["x0", "x1"], ["y0", "y1"]], ONE_STEP)
    costs = {r.name: (r.elements, r.cost) for r in aliased.rows}
    assert costs == {"y0": (1, 2), "y1": (1, 1), "x0/x1": (0, 0), COMPUTED: (1, 0)} and aliased.total == 3
