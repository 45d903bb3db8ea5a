"""The vectorised simulator equals a plain per-instance interpreter (tests/engine/ir_oracle.py) on random valid
programs, and the static cost equals Σ isqrt(a-1)+1 over the reads that interpreter performs (hypothesis)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ir.cost import read_cost
from engine.ir.instruction_set import INT8_V3, MATMUL_V0
from engine.ir.parser import parse
from engine.ir.simulate import RunFault, run
from engine.ir.static_check import Expect, check
from tests.engine.ir_oracle import OracleError, interpret

V3_OPS = ["add", "sub", "mul", "div", "and", "or", "xor", "copy", "not", "abs", "set", "cmp", "select"]


@st.composite
def program(draw: st.DrawFn, ops: list[str], n_inputs: int, max_addr: int) -> str:
    written = list(range(1, n_inputs + 1))
    body = []
    for _ in range(draw(st.integers(min_value=1, max_value=25))):
        op = draw(st.sampled_from(ops))
        d = draw(st.integers(min_value=1, max_value=max_addr))
        r = [draw(st.sampled_from(written)) for _ in range(3)]
        if op == "set":
            body.append(f"set {d},{draw(st.integers(min_value=-128, max_value=255))}")
        elif op == "cmp":
            body.append(f"cmp {d},{r[0]},{r[1]},{draw(st.sampled_from(['eq', 'ne', 'lt', 'le', 'gt', 'ge']))}")
        elif op == "select":
            body.append(f"select {d},{r[0]},{r[1]},{r[2]}")
        elif op in ("copy", "not", "abs"):
            body.append(f"{op} {d},{r[0]}")
        elif draw(st.booleans()) and d in written:
            body.append(f"{op} {d},{r[1]}")  # short form reads d first
        else:
            body.append(f"{op} {d},{r[0]},{r[1]}")
        written.append(d)
    outs = [draw(st.sampled_from(written)) for _ in range(draw(st.integers(min_value=1, max_value=3)))]
    return "\n".join([",".join(map(str, range(1, n_inputs + 1))), *body, ",".join(map(str, outs))])


def engine_run(text: str, dialect, inputs: np.ndarray):  # type: ignore[no-untyped-def]
    prog = parse(text, dialect)
    slots = check(prog, dialect, Expect(inputs.shape[1], prog.outputs.size))
    cost = int(read_cost(np.concatenate((prog.reads()[1], prog.outputs))).sum())
    return run(prog, slots, dialect, inputs), cost


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(
    program(V3_OPS, 4, 12),
    st.lists(st.lists(st.integers(-128, 127), min_size=4, max_size=4), min_size=1, max_size=9),
)
def test_int8_simulation_matches_oracle(text: str, instances: list[list[int]]) -> None:
    inputs = np.array(instances, dtype=np.int8)
    expected = []
    fault = False
    for row in instances:
        try:
            expected.append(interpret(text, row, wrap=True))
        except OracleError:
            fault = True
    try:
        got, cost = engine_run(text, INT8_V3, inputs)
    except RunFault:
        assert fault
        return
    assert not fault
    assert got.tolist() == [e[0] for e in expected]
    assert cost == expected[0][1]


@settings(max_examples=150, deadline=None)
@given(
    program(["add", "sub", "mul", "copy"], 3, 40),
    st.lists(st.integers(-(10**12), 10**12), min_size=3, max_size=3),
)
@pytest.mark.slow
def test_unbounded_simulation_is_exact(text: str, row: list[int]) -> None:
    want, want_cost = interpret(text, row, wrap=False)
    got, cost = engine_run(text, MATMUL_V0, np.array([row], dtype=object))
    assert got.tolist() == [want]
    assert cost == want_cost


def test_unbounded_simulation_beyond_int64() -> None:
    text = "1,2\n" + "\n".join(["mul 1,1"] * 6) + "\n1"  # 3**64 overflows int64
    got, _ = engine_run(text, MATMUL_V0, np.array([[3, 0]], dtype=object))
    assert got.tolist() == [[3**64]]


def test_int8_edge_cases_wrap_like_the_reference() -> None:
    # -128 // -1 = 128 -> -128; abs(-128) = 128 -> -128; 100 + 100 = 200 -> -56; not 0 = -1; set 200 -> -56
    text = "1,2\nset 3,-128\nset 4,-1\ndiv 5,3,4\nabs 6,3\nset 7,100\nadd 8,7,7\nnot 9,1\nset 10,200\n5,6,8,9,10"
    got, _ = engine_run(text, INT8_V3, np.array([[0, 0]], dtype=np.int8))
    assert got.tolist() == [[-128, -128, -56, -1, -56]]
