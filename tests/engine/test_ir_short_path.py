"""The line loop for short programs (engine/ir/short_path.py) agrees with the array path on every program.

Oracle: the array path (parser + static check + numpy simulator), itself pinned to the reference scorers by
test_ir_reference.py. Random short programs — valid, wrong, faulting and malformed — must give the same RunResult
(or the same InvalidProgram message) with ``line_loop`` on and off.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.challenges import CHALLENGES
from engine.challenges.ir_track import IRChallenge
from engine.challenges.ir_track import TestSet as Instances
from engine.ir.errors import InvalidProgram
from engine.ir.instruction_set import INT8_V3
from engine.scoring.ir import score_on


def _three_bit_tests(seeds: object = None) -> Instances:
    rows = np.array([[a, b, c] for a in (0, 1) for b in (0, 1) for c in (0, 1)], dtype=np.int64)
    expected = np.stack([rows[:, 0] ^ rows[:, 1], rows[:, 2], rows[:, 0]], axis=1)
    return Instances(inputs=rows, expected=expected, seeds=[1, 2], hidden=True)


HALF_RIGHT = IRChallenge(
    name="three_bits_half",
    summary="test-only: 3 inputs, 3 outputs, half of each instance's outputs must match",
    dialect=INT8_V3,
    n_inputs=3,
    n_outputs=3,
    inputs_what="3 bits",
    outputs_what="3 outputs",
    test_set=partial(_three_bit_tests),
    generators={},
    threshold=0.5,
)

OPS = ["add", "sub", "mul", "div", "and", "or", "xor", "copy", "not", "abs", "set", "cmp", "select", "mov"]


@st.composite
def line(draw: st.DrawFn) -> str:
    op = draw(st.sampled_from(OPS))
    a = [str(draw(st.integers(min_value=-1, max_value=12))) for _ in range(4)]
    n = draw(st.sampled_from([1, 2, 3, 4, 5]))
    if op == "set":
        operands = [a[0], str(draw(st.integers(min_value=-130, max_value=260)))]
    elif op == "cmp":
        operands = a[:3] + [draw(st.sampled_from(["eq", "ne", "lt", "le", "gt", "ge", "xx"]))]
    else:
        operands = a[:n]
    sep = draw(st.sampled_from([",", ",", ", ", ",,", " , "]))
    return f"{op} {sep.join(operands)}"


@st.composite
def program(draw: st.DrawFn, n_inputs: int, n_outputs: int) -> str:
    inputs = list(range(1, n_inputs + 1))
    if draw(st.booleans()):
        inputs[-1] = draw(st.integers(min_value=0, max_value=n_inputs + 2))  # sometimes a repeat or a 0
    body = draw(st.lists(line(), min_size=0, max_size=14))
    outputs = [str(draw(st.integers(min_value=1, max_value=12))) for _ in range(n_outputs + draw(st.integers(0, 1)))]
    sep = draw(st.sampled_from(["\n", ";", "\r\n", "\n\n"]))
    return sep.join([",".join(map(str, inputs)), *body, ",".join(outputs)])


@st.composite
def well_formed(draw: st.DrawFn, spec: IRChallenge) -> str:
    """A program that breaks no static rule (it may still be wrong or divide by zero)."""
    written = list(range(1, spec.n_inputs + 1))
    ops = ["add", "sub", "mul", "copy"] if spec.dialect.isa == "v0" else OPS[:-1]
    body = []
    for _ in range(draw(st.integers(min_value=0, max_value=16))):
        op = draw(st.sampled_from(ops))
        src = [str(draw(st.sampled_from(written))) for _ in range(3)]
        dest = draw(st.integers(min_value=1, max_value=spec.n_inputs + 4))
        if op == "set":
            body.append(f"set {dest},{draw(st.integers(min_value=-128, max_value=255))}")
        elif op == "cmp":
            body.append(f"cmp {dest},{src[0]},{src[1]},{draw(st.sampled_from(['eq', 'ne', 'lt', 'le', 'gt', 'ge']))}")
        elif op == "select":
            body.append(f"select {dest},{','.join(src)}")
        elif op in ("copy", "not", "abs"):
            body.append(f"{op} {dest},{src[0]}")
        elif draw(st.booleans()):
            body.append(f"{op} {dest},{src[0]},{src[1]}")
        else:  # the short form reads its destination too
            dest = int(src[2])
            body.append(f"{op} {dest},{src[0]}")
        written.append(dest)
    outputs = [str(draw(st.sampled_from(written))) for _ in range(spec.n_outputs)]
    return "\n".join([",".join(map(str, range(1, spec.n_inputs + 1))), *body, ",".join(outputs)])


def outcome(spec: IRChallenge, text: str, line_loop: bool) -> object:
    try:
        result = score_on(spec, text, seeds=[7, 8, 9], line_loop=line_loop)
    except InvalidProgram as error:
        return ("invalid", str(error), error.line)
    return {k: v for k, v in vars(result).items() if k != "wall_s"}


SPECS = [CHALLENGES.get("symmetry_six"), CHALLENGES.get("matmul_1x1"), HALF_RIGHT]


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.data())
def test_line_loop_matches_array_path(data: st.DataObject) -> None:
    spec = data.draw(st.sampled_from(SPECS))
    text = data.draw(st.one_of(program(spec.n_inputs, spec.n_outputs), well_formed(spec)))
    assert outcome(spec, text, True) == outcome(spec, text, False)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("symmetry_six", "1,2,3,4,5,6\ncmp 7,1,6,eq\ncmp 8,2,5,eq\nand 7,8\ncmp 8,3,4,eq\nand 7,8\n7"),
        ("symmetry_six", "1,2,3,4,5,6\ncmp 7,1,6,eq\n7"),
        ("symmetry_six", "1,2,3,4,5,6\nsub 7,1,1\ndiv 7,1,7\n7"),
        ("matmul_1x1", "1,2;mul 3,1,2;3"),
        ("matmul_1x1", "1,2;add 3,1,2;3"),
    ],
)
def test_known_programs_agree(name: str, text: str) -> None:
    spec = CHALLENGES.get(name)
    assert outcome(spec, text, True) == outcome(spec, text, False)
