"""The packed-lane runner (engine/ir/packed_lanes.py) gives every instance what the plain per-instance interpreter
(tests/engine/ir_oracle.py) gives it: exhaustively over all 65,536 operand pairs for each two-operand op, and on
random programs with up to 300 instances (more lanes than any challenge but symmetry eight)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ir.instruction_set import INT8_V3
from engine.ir.packed_lanes import MAX_INSTANCES, pack, unpack
from engine.ir.parser import parse
from engine.ir.simulate import RunFault, run
from engine.ir.static_check import Expect, check
from tests.engine.ir_oracle import BINARY, PREDS, expected_rows, wrap8
from tests.engine.test_ir_simulate import V3_OPS, program

ALL_PAIRS = np.array([(a, b) for a in range(-128, 128) for b in range(-128, 128)], dtype=np.int8)
"""Every (a, b) of signed bytes: one instance each, 65,536 lanes (above MAX_INSTANCES: run in chunks)."""


def run_chunks(text: str, inputs: np.ndarray) -> np.ndarray:
    prog = parse(text, INT8_V3)
    slots = check(prog, INT8_V3, Expect(inputs.shape[1], prog.outputs.size))
    return np.concatenate(
        [run(prog, slots, INT8_V3, inputs[i : i + MAX_INSTANCES]) for i in range(0, len(inputs), MAX_INSTANCES)]
    )


def test_pack_and_unpack_are_inverse() -> None:
    column = np.arange(-128, 128, dtype=np.int8)
    assert unpack(pack(column), column.size).tolist() == column.tolist()


@pytest.mark.parametrize("op", ["add", "sub", "mul", "and", "or", "xor"])
def test_every_operand_pair_of_a_binary_op(op: str) -> None:
    got = run_chunks(f"1,2\n{op} 3,1,2\n3", ALL_PAIRS)[:, 0]
    want = [wrap8(BINARY[op](int(a), int(b))) for a, b in ALL_PAIRS]
    assert got.tolist() == want


@pytest.mark.slow
def test_every_operand_pair_of_every_predicate_and_select() -> None:
    preds = list(PREDS)
    body = [f"cmp {3 + i},1,2,{p}" for i, p in enumerate(preds)] + [f"select {3 + len(preds)},1,2,1"]
    got = run_chunks("1,2\n" + "\n".join(body) + "\n" + ",".join(str(3 + i) for i in range(len(preds) + 1)), ALL_PAIRS)
    want = [[int(PREDS[p](int(a), int(b))) for p in preds] + [int(b) if a != 0 else int(a)] for a, b in ALL_PAIRS]
    assert got.tolist() == want


def test_every_value_of_the_unary_ops_and_set() -> None:
    values = np.arange(-128, 128, dtype=np.int8)[:, None]
    got = run_chunks("1\nnot 2,1\nabs 3,1\ncopy 4,1\nset 5,200\nset 6,-128\n2,3,4,5,6", values)
    want = [[wrap8(~v), wrap8(abs(v)), v, -56, -128] for v in range(-128, 128)]
    assert got.tolist() == want


def test_division_by_zero_names_the_first_instance() -> None:
    inputs = np.array([[6, 3], [5, 0], [1, 0]], dtype=np.int8)
    with pytest.raises(RunFault) as fault:
        run_chunks("1,2\ndiv 3,1,2\n3", inputs)
    assert (fault.value.index, fault.value.instance) == (0, 1)
    assert run_chunks("1,2\ndiv 3,1,2\n3", inputs[:1]).tolist() == [[2]]


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(program(V3_OPS, 4, 12), st.integers(min_value=1, max_value=300), st.integers(min_value=0, max_value=2**32 - 1))
def test_random_programs_on_many_instances_match_the_interpreter(text: str, n: int, seed: int) -> None:
    inputs = np.random.default_rng(seed).integers(-128, 128, size=(n, 4)).astype(np.int8)
    expected = expected_rows(text, inputs.tolist())
    if expected is None:
        with pytest.raises(RunFault):
            run_chunks(text, inputs)
        return
    assert run_chunks(text, inputs).tolist() == expected
