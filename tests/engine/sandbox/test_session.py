"""The parent-side meter of remote arrays, checked against hand-computed clock distances
(docs/metrics.md#reuse-distance-and-dmc).

Requests are written in the wire format the child uses, so these tests pin the protocol too.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.sandbox.remote.session import Refused, Session


def _session() -> Session:
    x = np.array([[1, -1], [-1, 1]], dtype=np.int64)  # 4 floats
    y = np.array([1, -1], dtype=np.int64)  # 2 floats
    return Session([x, y], max_elements=1000, max_ops=100)


def _handle(reply: dict) -> int:
    return reply["r"]["a"][0]


def test_hand_computed_distances() -> None:
    s = _session()  # write x (clock 0 -> 4), write y (4 -> 6)
    # read x, 1 float: d = 6; the element stays in the parent, a 0-d array written fresh (clock 7 -> 8)
    first = _handle(s.handle({"op": "get", "t": 0, "a": [{"t": [0, 0]}]}))
    z = _handle(s.handle({"op": "bin", "a": ["add", {"h": 1}, 1]}))  # read y (2): d = 8 - 4 = 4; write z (2)
    total = _handle(s.handle({"op": "meth", "t": z, "a": ["sum"]}))  # read z (2): d = 12 - 10 = 2; write 1
    assert s.held(first) == 1 and s.held(total) == 2
    m = s.metrics()
    assert m["ard@1"] == pytest.approx((1 * 6 + 2 * 4 + 2 * 2) / 5)
    assert m["ard_per_read@1"] == pytest.approx((6 + 4 + 2) / 3)
    assert m["dmc@1"] == pytest.approx(math.sqrt(6) + 2 * math.sqrt(4) + 2 * math.sqrt(2))


def test_views_are_free_and_share_the_buffer() -> None:
    s = _session()
    t = _handle(s.handle({"op": "meth", "t": 0, "a": ["T"]}))
    assert len(s.sizes) == 2  # still only the two input writes
    element = _handle(s.handle({"op": "get", "t": t, "a": [{"t": [0, 1]}]}))
    assert s.held(element) == -1  # x.T[0, 1] == x[1, 0]
    assert s.buffers[-2] == s.buffers[0] and s.sizes[-2] == 1  # read from x's buffer, 1 float (then written)


def test_setitem_reads_the_value_then_writes_the_region() -> None:
    s = _session()
    s.handle({"op": "set", "t": 0, "a": [0, {"h": 1}]})  # x[0] = y: read y, read x's row into a temporary,
    # then a partial write (half of x): on a buffer of its own, so x's clock stays at its full write
    assert list(zip(s.is_write[2:], s.buffers[2:], s.sizes[2:], strict=True)) == [
        (False, 1, 2),
        (False, 0, 2),
        (True, 2, 2),
        (True, 3, 2),
    ]


def test_inplace_operator_reads_both_and_writes_the_target() -> None:
    s = _session()
    reply = s.handle({"op": "ibin", "t": 1, "a": ["mul", {"h": 1}]})  # y *= y
    assert _handle(reply) == 1
    assert list(zip(s.is_write[2:], s.sizes[2:], strict=True)) == [(False, 2), (False, 2), (True, 2)]


def test_conversions_are_metered_reads() -> None:
    s = _session()
    one = _handle(s.handle({"op": "np", "a": ["array", 1]}))  # a 0-d array held by the parent
    assert s.handle({"op": "int", "t": one}) == {"r": 1}
    assert s.handle({"op": "bool", "t": one}) == {"r": True}
    assert s.sizes[-2:] == [1, 1] and s.is_write[-2:] == [False, False]
    elements = s.handle({"op": "meth", "t": 1, "a": ["tolist"]})["r"]["l"]  # 0-d arrays, never the values
    assert [s.held(e["a"][0]) for e in elements] == [1, -1] and all(e["a"][1] == [] for e in elements)
    assert s.sizes[-3:] == [2, 1, 1] and s.is_write[-3:] == [False, True, True]  # read y in full, write each


def test_numpy_errors_come_back_as_the_same_exception_type() -> None:
    s = _session()
    assert s.handle({"op": "get", "t": 1, "a": [5]})["type"] == "IndexError"
    assert s.handle({"op": "bool", "t": 0})["type"] == "ValueError"


@pytest.mark.parametrize(
    ("request_", "needle"),
    [
        ({"op": "np", "a": ["fromfile", "/etc/passwd"]}, "np.fromfile is not supported"),
        ({"op": "meth", "t": 0, "a": ["view"]}, "'.view' is not supported"),
        ({"op": "get", "t": 99, "a": [0]}, "unknown array handle"),
        ({"op": "np", "a": ["ones", 10**12]}, "array memory limit"),
        ({"op": "np", "a": ["array", {"l": ["a", "b"]}]}, "text values"),
        ({"op": "meth", "t": 0, "a": ["astype", "object"]}, "not allowed"),
        ({"op": "np", "a": ["zeros", 3], "k": {"like": 1}}, "keyword 'like='"),
        ({"op": "exec", "a": []}, "request 'exec' is not supported"),
    ],
)
def test_requests_outside_the_allow_list_are_refused(request_: dict, needle: str) -> None:
    s = _session()
    with pytest.raises((Refused, ValueError)) as err:
        reply = s.handle(request_)
        raise ValueError(reply.get("err", "no refusal"))
    assert needle in str(err.value)


def test_fancy_index_blow_up_is_refused_before_allocating() -> None:
    s = Session([np.zeros((10, 10))], max_elements=1000, max_ops=100)
    idx = _handle(s.handle({"op": "np", "a": ["zeros", 500], "k": {"dtype": {"d": "int64"}}}))
    with pytest.raises(Refused, match="array memory limit"):
        s.handle({"op": "get", "t": 0, "a": [{"h": idx}]})  # 500 rows of 10 = 5,000 elements
    with pytest.raises(Refused, match="array memory limit"):
        s.handle({"op": "set", "t": 0, "a": [{"h": idx}, 1]})


def test_operation_budget() -> None:
    s = Session([np.zeros(2)], max_elements=100, max_ops=3)
    for _ in range(3):
        s.handle({"op": "meth", "t": 0, "a": ["sum"]})
    with pytest.raises(Refused, match="operation limit"):
        s.handle({"op": "meth", "t": 0, "a": ["sum"]})


def test_released_handles_stop_counting_and_inputs_stay() -> None:
    s = Session([np.zeros(10)], max_elements=25, max_ops=100)
    a = _handle(s.handle({"op": "np", "a": ["ones", 10]}))
    with pytest.raises(Refused):
        s.handle({"op": "np", "a": ["ones", 10]})
    s.handle({"op": "np", "a": ["ones", 10], "rel": [a, 0]})  # releasing `a` makes room; input 0 is kept
    assert s.held(_handle(s.handle({"op": "meth", "t": 0, "a": ["sum"]}))) == 0.0


def test_random_draws_come_from_the_parent_and_ignore_seeds() -> None:
    draws = []
    for _ in range(2):
        s = _session()
        h = _handle(s.handle({"op": "rng", "a": ["integers", 0, 2**62], "k": {"size": 8}}))
        assert s.is_write[-1] and s.sizes[-1] == 8  # a fresh buffer of 8
        draws.append(s.held(h).tolist())
    assert draws[0] != draws[1]  # fresh secret seeds: equal with probability 2**-496
    with pytest.raises(Refused, match="np.random.bytes"):
        _session().handle({"op": "rng", "a": ["bytes", 10]})
    with pytest.raises(Refused, match="array memory limit"):
        _session().handle({"op": "rng", "a": ["random", 10**9]})


def test_std_is_charged_numpy_s_steps_as_the_tracer_records_them() -> None:
    """``x.std()``: numpy reads x for the mean (a 1-float temporary), reads x again for the deviations (12 floats),
    squares them in place and sums them — the events engine.tracing.TrackedArray records, then the 0-d result."""
    s = Session([np.arange(12.0).reshape(4, 3)], max_elements=1000, max_ops=10)
    s.handle({"op": "meth", "t": 0, "a": ["std"]})
    assert list(zip(s.is_write[1:], s.sizes[1:], strict=True)) == [
        (False, 12), (True, 1), (False, 1), (True, 1), (False, 12), (False, 1), (True, 12), (False, 12), (True, 12),
        (False, 12), (True, 1),
    ]  # fmt: skip


def test_stacking_one_array_reads_it_row_by_row_and_is_bounded() -> None:
    s = Session([np.zeros((3, 2))], max_elements=10**6, max_ops=10)
    s.handle({"op": "np", "a": ["concatenate", {"h": 0}]})
    assert list(zip(s.is_write[1:], s.sizes[1:], strict=True)) == [
        (False, 2),
        (True, 2),
        (False, 2),
        (True, 2),
        (False, 2),
        (True, 2),
        (False, 6),
        (True, 6),
    ]
    tall = Session([np.zeros((70_000, 1))], max_elements=10**6, max_ops=10)
    with pytest.raises(Refused, match="pass a list of arrays"):
        tall.handle({"op": "np", "a": ["vstack", {"h": 0}]})


def test_tolist_of_a_huge_array_is_refused_before_any_handle_is_made() -> None:
    s = Session([np.zeros(70_000)], max_elements=10**6, max_ops=10)
    with pytest.raises(Refused, match="65,536"):
        s.handle({"op": "meth", "t": 0, "a": ["tolist"]})
    assert s.next_id == 1
