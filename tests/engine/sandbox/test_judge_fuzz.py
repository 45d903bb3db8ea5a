"""A judge that never crashes: whatever bytes a child sends on the result or request channel, and whatever IR a
member submits, the outcome is a one-line verdict — never an exception that would surface as "internal error".

Oracle: the contract itself (``parse_strict`` returns an object or raises BadResult; the meter answers with a
JSON-encodable reply or raises BadResult with a one-line message; the IR verdict is a RunResult whose metrics
are finite numbers that fit 64 bits).
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.sandbox.judge import _Meter
from engine.sandbox.remote.session import Session
from engine.sandbox.results import BadResult, parse_strict
from engine.scoring.verdict import score_or_reject

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**300, max_value=10**4000),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
    st.sampled_from(["bin", "ibin", "get", "set", "meth", "np", "rng", "int", "add", "sum", "h", "a", "t", "s", "l"]),
)
_json = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(["op", "a", "k", "t", "rel", "h", "s", "l", "t", "f", "d", "x"]), inner),
    ),
    max_leaves=20,
)


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.one_of(_json.map(lambda v: json.dumps(v)), st.text(max_size=50), st.integers(1, 200_000).map(_nested)))
def test_result_channel_parses_or_says_why(text: str) -> None:
    data = text.encode()
    try:
        value = parse_strict(data, 1 << 20)
    except BadResult as exc:
        assert "\n" not in str(exc) and str(exc)
    else:
        assert isinstance(value, dict)


def test_result_channel_refuses_huge_integers_and_deep_nesting() -> None:
    for data in (b'{"answer": [' + b"9" * 5000 + b"]}", ('{"a":' + _nested(100_000) + "}").encode()):
        try:
            parse_strict(data, 1 << 20)
        except BadResult as exc:
            assert str(exc).startswith("the result ")
        else:
            raise AssertionError("accepted")


def _meter() -> _Meter:
    x = np.ones((4, 3), dtype=np.int64)
    return _Meter(Session([x, np.ones(4, dtype=np.int64)], max_elements=10_000, max_ops=10_000))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    st.one_of(_json, st.fixed_dictionaries({"op": _json, "a": _json}, optional={"k": _json, "t": _json, "rel": _json}))
)
def test_request_channel_answers_or_refuses_in_one_line(request: Any) -> None:
    meter = _meter()
    try:
        reply = meter(request)
    except BadResult as exc:
        assert meter.refusal is not None and "\n" not in meter.refusal and str(exc) == meter.refusal
    else:
        json.dumps(reply, allow_nan=False)
        assert set(reply) in ({"r"}, {"err", "type"})


def test_malformed_release_requests_are_refused_not_crashed() -> None:
    for rel in (5, "x", {"h": 1}, [True, 10**40, -1, None, [1]]):
        meter = _meter()
        try:
            reply = meter({"op": "meth", "t": 0, "a": ["sum"], "rel": rel})
        except BadResult:
            assert meter.refusal == "malformed request"
        else:
            # a list of odd ids is ignored; the inputs are never released (the sum stays in the parent: a 0-d array)
            assert set(reply) == {"r"} and reply["r"]["a"][1:] == [[], "int64"]


def _ir(address: str) -> str:
    return f"1,2\nmul {address},1,2\n{address}"


def test_ir_with_4000_digit_addresses_gets_a_verdict_that_fits() -> None:
    result = score_or_reject("matmul_1x1", _ir("9" * 4000))
    assert not result.ok and result.failure is not None and "too large to record" in result.failure
    assert result.metrics == {}
    honest = score_or_reject("matmul_1x1", _ir("3"))
    assert honest.ok and all(math.isfinite(float(v)) for v in honest.metrics.values())
    over_limit = score_or_reject("matmul_1x1", _ir("9" * 5000))  # over Python's int parsing limit
    assert not over_limit.ok and over_limit.failure is not None and "\n" not in over_limit.failure
