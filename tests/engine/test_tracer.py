"""The buffer-level tracer: the TrackedArray event mapping, no change to numerical results, and the group's
published single-step figures reproduced from the same event sequences
(docs/metrics.md#reuse-distance-reference-figures)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from engine.metrics.clock import clock_metrics, read_distances
from engine.tracing import EventLog, TrackedRandom, tracing, track
from engine.tracing.tracked_array import TrackedArray


def events(log):
    w, b, s = log.arrays()
    return [("W" if wi else "R", int(bi), int(si)) for wi, bi, si in zip(w, b, s, strict=True)]


def test_ufunc_reads_inputs_and_writes_fresh():
    log = EventLog()
    a = track(np.ones(3), log)
    b = track(np.ones(3), log)
    c = a + b
    assert events(log) == [("W", 1, 3), ("W", 2, 3), ("R", 1, 3), ("R", 2, 3), ("W", 3, 3)]
    assert c._buf == 3


def test_inplace_out_writes_target_and_views_are_free():
    log = EventLog()
    a = track(np.ones((2, 3)), log)
    b = track(np.ones((2, 3)), log)
    a += b
    _ = a.T
    _ = a.reshape(3, 2)
    assert events(log)[2:] == [("R", 1, 6), ("R", 2, 6), ("W", 1, 6)]


def test_getitem_setitem_copy_sum_and_constructors():
    log = EventLog()
    with tracing(log):
        z = np.zeros(4)
        a = track(np.arange(6.0).reshape(2, 3), log)
        row = a[0]
        scalar = a[1, 2]
        z[1:3] = row[:2]
        total = a.sum()
        dup = a.copy()
    assert scalar == 5.0 and total == 15.0 and dup._buf != a._buf
    assert events(log) == [
        ("W", 1, 4),  # zeros
        ("W", 2, 6),  # a
        ("R", 2, 3),
        ("W", 3, 3),  # a[0]
        ("R", 2, 1),  # a[1, 2]
        ("R", 3, 2),
        ("W", 4, 2),  # row[:2]
        ("R", 4, 2),  # z[1:3] = ...: read the value,
        ("R", 1, 2),  # numpy takes the target view through z[1:3] (the group's tracker records it too),
        ("W", 5, 2),
        ("W", 1, 2),  # then the region is written
        ("R", 2, 6),  # sum to a scalar
        ("R", 2, 6),
        ("W", 6, 6),  # copy
    ]
    assert np.zeros(2).__class__ is np.ndarray  # constructors restored after the block


def test_other_numpy_functions_read_all_and_write_fresh():
    log = EventLog()
    a = track(np.ones((2, 2)), log)
    b = track(np.ones((2, 2)), log)
    np.hstack([a, b])
    assert events(log)[2:] == [("R", 1, 4), ("R", 2, 4), ("W", 3, 8)]


@given(
    hnp.arrays(
        np.float64,
        hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=5),
        elements=st.floats(-1e3, 1e3),
    )
)
@settings(max_examples=60, deadline=None)
def test_tracing_never_changes_results(x):
    def compute(a):
        b = np.maximum(a @ a.T, 0.0) * 0.5 + 1.0
        c = b.copy()
        c[0] = b.sum(axis=0)[: c.shape[1]]
        c -= np.mean(b)
        return np.hstack([c, np.prod(b, axis=1, keepdims=True)]), np.zeros(3) + a.sum()

    plain = compute(x.copy())
    log = EventLog()
    with tracing(log):
        traced = compute(track(x.copy(), log))
    for p, t in zip(plain, traced, strict=True):
        assert np.array_equal(np.asarray(t), p, equal_nan=True)
    assert len(log) > 0


def test_event_log_chunks_are_seamless():
    log = EventLog(chunk_events=4)
    for i in range(10):
        log.write(i, i + 1)
        log.read(i, 1)
    w, b, s = log.arrays()
    assert w.tolist() == [True, False] * 10
    assert b.tolist() == [i for i in range(10) for _ in (0, 1)]
    assert s.tolist() == [v for i in range(10) for v in (i + 1, 1)]
    assert len(log) == 20 and log.nbytes() == 20 * 16
    log.extend(np.array([False, True]), np.array([0, 7]), np.array([3, 5]))
    w, b, s = log.arrays()
    assert (w[-2:].tolist(), b[-2:].tolist(), s[-2:].tolist()) == ([False, True], [0, 7], [3, 5])


class NamedLog:
    """Replays the group's hand-instrumented tracker calls (name, size; a read without size reads the last
    written size) as buffer events."""

    def __init__(self):
        self.ids, self.sizes, self.rows = {}, {}, []

    def write(self, name, size):
        self.ids.setdefault(name, len(self.ids))
        self.sizes[name] = size
        self.rows.append((True, self.ids[name], size))

    def read(self, name, size=None):
        self.ids.setdefault(name, len(self.ids))
        self.rows.append((False, self.ids[name], self.sizes.get(name, 0) if size is None else size))

    def metrics(self):
        return clock_metrics(*zip(*self.rows, strict=True))


def test_published_sgd_step():
    # sparse-parity-challenge src/harness.py _tracked_sgd_step, n=20, hidden=200, one sample
    t = NamedLog()
    n, h = 20, 200
    for name, size in (("x", n), ("W1", h * n), ("b1", h)):
        t.write(name, size)
    for name in ("x", "W1", "b1"):
        t.read(name)
    t.write("h_pre", h)
    t.read("h_pre")
    t.write("h", h)
    t.write("W2", h)
    t.write("b2", 1)
    for name in ("h", "W2", "b2"):
        t.read(name)
    t.write("out", 1)
    t.read("out")
    t.write("d_out", 1)
    for name in ("d_out", "W2", "h"):
        t.read(name)
    t.write("dW2", h)
    t.write("db2", 1)
    t.read("d_out")
    t.read("W2")
    t.write("d_h", h)
    t.read("d_h")
    t.read("h_pre")
    t.write("d_h_pre", h)
    t.read("d_h_pre")
    t.read("x")
    t.write("dW1", h * n)
    t.write("db1", h)
    for name in ("W1", "dW1", "W2", "dW2", "b1", "db1", "b2", "db2"):
        t.read(name)
    m = t.metrics()
    assert round(m["dmc@1"], 1) == 1_278_460.3
    assert round(m["ard@1"], 1) == 8_503.7


def test_published_gf2_and_km():
    t = NamedLog()
    t.write("A", 21 * 20)
    t.read("A")
    t.write("solution", 20)
    assert round(t.metrics()["dmc@1"], 1) == 8_607.4
    t = NamedLog()
    for i in range(20):
        t.write(f"x{i}", 5 * 20)
        t.read(f"x{i}")
        t.write(f"yo{i}", 5)
        t.write(f"yf{i}", 5)
        t.read(f"yo{i}")
        t.read(f"yf{i}")
        t.write(f"inf{i}", 1)
    assert round(t.metrics()["dmc@1"], 1) == 20_632.5


@pytest.mark.parametrize("size", [1, 5])
def test_read_of_unwritten_buffer_is_left_out(size):
    log = EventLog()
    log.read(7, size)
    log.write(1, 2)
    log.read(1, 2)
    assert clock_metrics(*log.arrays())["ard@1"] == 2.0


def sutro_mlp_step(fused: bool) -> NamedLog:
    """cybertronai/sutro sparse_parity_benchmark.py, hidden 1000, 3 bits: one tracked step (a violated sample).
    Standard order as of commit 3059aad; fused layer-wise order as of d4fe8d9."""
    h, n = 1000, 3
    t = NamedLog()
    for name, size in (("W1", h * n), ("b1", h), ("W2", h), ("b2", 1), ("x", n), ("y", 1)):
        t.write(name, size)
    for name, size in (("x", n), ("W1", h * n), ("b1", h)):
        t.read(name, size)
    t.write("h_pre", h)
    t.read("h_pre", h)
    t.write("h", h)
    for name, size in (("h", h), ("W2", h), ("b2", 1)):
        t.read(name, size)
    t.write("out", 1)
    t.read("out", 1)
    t.read("y", 1)
    t.write("dout", 1)
    t.read("dout", 1)
    t.read("h", h)
    t.write("dW2", h)
    t.write("db2", 1)
    t.read("W2", h)
    t.read("dout", 1)
    t.write("dh", h)

    def update_layer2():
        t.read("dW2", h)
        t.read("W2", h)
        t.write("W2", h)
        t.read("db2", 1)
        t.read("b2", 1)
        t.write("b2", 1)

    if fused:
        update_layer2()
    t.read("dh", h)
    t.read("h_pre", h)
    t.write("dh_pre", h)
    t.read("dh_pre", h)
    t.read("x", n)
    t.read("W1", h * n)
    t.write("W1", h * n)
    t.read("dh_pre", h)
    t.read("b1", h)
    t.write("b1", h)
    if not fused:
        update_layer2()
    return t


def test_published_sutro_standard_vs_fused_per_read_ard():
    standard, fused = sutro_mlp_step(fused=False), sutro_mlp_step(fused=True)
    assert round(standard.metrics()["ard_per_read@1"], 2) == 9_715.92
    assert round(fused.metrics()["ard_per_read@1"], 2) == 8_174.38
    dw2 = {}
    for name, t in (("standard", standard), ("fused", fused)):
        w, b, s = zip(*t.rows, strict=True)
        rd = read_distances(w, b, s)
        dw2[name] = rd.distance[rd.buffer == t.ids["dW2"]].tolist()
    assert dw2 == {"standard": [16_005], "fused": [3_002]}


def test_tracked_random_records_what_building_a_random_state_under_tracing_records():
    np.random.RandomState(0)  # numpy's lazy imports, untraced (as a run's data set is drawn before tracing)
    built, replayed = EventLog(), EventLog()
    built.new_buffer("x")
    replayed.new_buffer("x")
    with tracing(built):
        direct = np.random.RandomState(11)
    with tracing(replayed):
        tracked = TrackedRandom(11, replayed)
    assert len(built) > 1000  # numpy's seeding is traced element by element
    for a, b in zip(built.arrays(), replayed.arrays(), strict=True):
        assert a.tolist() == b.tolist()
    assert built.labels == replayed.labels
    assert built.new_buffer() == replayed.new_buffer()
    assert np.array_equal(np.asarray(tracked.randn(5)), direct.randn(5))
    outside = EventLog()
    TrackedRandom(11, outside)  # built outside tracing: nothing recorded, as before
    assert len(outside) == 0


OPERATORS = {
    "+": (lambda a, b: a + b, np.add),
    "-": (lambda a, b: a - b, np.subtract),
    "*": (lambda a, b: a * b, np.multiply),
    "/": (lambda a, b: a / b, np.true_divide),
    "@": (lambda a, b: a @ b, np.matmul),
    "<": (lambda a, b: a < b, np.less),
    "<=": (lambda a, b: a <= b, np.less_equal),
    ">": (lambda a, b: a > b, np.greater),
    ">=": (lambda a, b: a >= b, np.greater_equal),
}
IN_PLACE = {"+=": np.add, "-=": np.subtract, "*=": np.multiply, "/=": np.true_divide}


def operand(kind, values, log):
    """A 2×2 operand: tracked, tracked but on no log, plain array, Python float, numpy scalar, or list."""
    array = np.array(values, dtype=np.float64).reshape(2, 2)
    return {
        "tracked": lambda: track(array, log),
        "untracked": lambda: array.view(TrackedArray),  # a TrackedArray on no log: records nothing
        "plain": lambda: array,
        "float": lambda: float(values[0]),
        "numpy scalar": lambda: np.float64(values[1]),
        "list": lambda: array.tolist(),
    }[kind]()


def outcome(function, *args):
    try:
        return function(*args)
    except (ValueError, TypeError) as error:
        return error


KINDS = ["tracked", "untracked", "plain", "float", "numpy scalar", "list"]
finite = st.floats(0.125, 4) | st.floats(-4, -0.125)


@given(
    st.sampled_from(sorted(OPERATORS)),
    st.sampled_from(KINDS),
    st.sampled_from(KINDS),
    st.lists(finite, min_size=4, max_size=4),
    st.lists(finite, min_size=4, max_size=4),
)
@pytest.mark.slow  # 0.5 CPU s in the quick subset (tests/cpu_time.py, 2026-11-29)
@settings(max_examples=300, deadline=None)
def test_operators_record_what_the_ufunc_records(symbol, left, right, x, y):
    """Operators on tracked arrays take a path of their own (no numpy dispatch); the oracle is the ufunc called by
    name, which goes through ``__array_ufunc__``: same events, same values bit for bit, same kind of result."""
    if left not in ("tracked", "untracked") and right not in ("tracked", "untracked"):
        return  # nothing tracked: plain numpy
    apply, ufunc = OPERATORS[symbol]
    ours, want = EventLog(), EventLog()
    got, expected = (
        outcome(apply, operand(left, x, ours), operand(right, y, ours)),
        outcome(ufunc, operand(left, x, want), operand(right, y, want)),
    )
    assert events(ours) == events(want)
    if isinstance(expected, Exception):  # e.g. a matrix product with a scalar: refused alike
        assert type(got) is type(expected) and str(got) == str(expected)
        return
    assert type(got) is type(expected)
    assert np.array_equal(np.asarray(got), np.asarray(expected)) and np.asarray(got).dtype == np.asarray(expected).dtype


@given(
    st.sampled_from(sorted(IN_PLACE)),
    st.sampled_from(["tracked", "untracked"]),
    st.sampled_from(KINDS),
    st.lists(finite, min_size=4, max_size=4),
    st.lists(finite, min_size=4, max_size=4),
    st.booleans(),
)
@settings(max_examples=200, deadline=None)
def test_in_place_operators_record_what_the_ufunc_with_out_records(symbol, left, right, x, y, same):
    ufunc = IN_PLACE[symbol]
    ours, want = EventLog(), EventLog()
    a = operand(left, x, ours)
    b = a if same else operand(right, y, ours)
    c = operand(left, x, want)
    d = c if same else operand(right, y, want)
    namespace = {"a": a, "b": b}
    exec(f"a {symbol} b", namespace)
    expected = ufunc(c, d, out=(c,))
    assert events(ours) == events(want)
    assert type(namespace["a"]) is type(expected)
    assert np.array_equal(namespace["a"], expected)


def test_negation_records_a_read_and_a_fresh_write():
    log = EventLog()
    a = track(np.array([1.0, -2.0]), log)
    b = -a
    assert b.tolist() == [-1.0, 2.0]
    assert events(log)[:3] == [("W", 1, 2), ("R", 1, 2), ("W", 2, 2)]
