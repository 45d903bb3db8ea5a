"""The compiled lane runner (engine/ir/lanes_kernel.pyx via engine/ir/lanes.py) gives every instance exactly what
the plain per-instance interpreter (tests/engine/ir_oracle.py) gives it: over all 65,536 operand pairs of every
two-operand op, every value of the unary ops, and random programs; and on the group's published mask32 band
programs it gives the same output array as the current evaluator (engine/ir/simulate.py) on the whole dev suite."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import compiled
from engine.challenges.mask_parity_suite import dev_suite
from engine.challenges.mask_sparse_parity import MASK_V3
from engine.ir import lanes
from engine.ir.instruction_set import INT8_V3, MATMUL_V0
from engine.ir.lanes import run_lanes
from engine.ir.parser import parse
from engine.ir.simulate import RunFault, run
from engine.ir.static_check import Expect, check
from tests.engine.ir_oracle import BINARY, PREDS, expected_rows, wrap8
from tests.engine.test_ir_simulate import V3_OPS, program

MASK32 = Path(__file__).resolve().parents[1] / "data" / "mask32"
ALL_PAIRS = np.array([(a, b) for a in range(-128, 128) for b in range(-128, 128)], dtype=np.int8)


def lanes_of(text: str, inputs: np.ndarray) -> np.ndarray:
    prog = parse(text, INT8_V3)
    slots = check(prog, INT8_V3, Expect(inputs.shape[1], prog.outputs.size))
    return run_lanes(prog, slots, INT8_V3, inputs)


PURE_PYTHON_JOB = compiled.pure_python_requested()
"""Read when the module is collected, as ``engine.ir.lanes`` read it on import: the suite's autouse fixture clears
every SUTRO_* variable before each test runs."""


def test_the_compiled_runner_is_the_one_under_test() -> None:
    if PURE_PYTHON_JOB:
        pytest.skip(f"{compiled.PURE_PYTHON_ENV} is set: the fallback is under test")
    assert lanes.COMPILED


@pytest.mark.parametrize("op", ["add", "sub", "mul", "and", "or", "xor"])
def test_every_operand_pair_of_a_binary_op(op: str) -> None:
    got = lanes_of(f"1,2\n{op} 3,1,2\n3", ALL_PAIRS)[:, 0]
    assert got.tolist() == [wrap8(BINARY[op](int(a), int(b))) for a, b in ALL_PAIRS]


def test_every_operand_pair_of_div_with_a_non_zero_divisor() -> None:
    pairs = ALL_PAIRS[ALL_PAIRS[:, 1] != 0]
    got = lanes_of("1,2\ndiv 3,1,2\n3", pairs)[:, 0]
    assert got.tolist() == [wrap8(BINARY["div"](int(a), int(b))) for a, b in pairs]


def test_every_operand_pair_of_every_predicate_and_select() -> None:
    preds = list(PREDS)
    body = [f"cmp {3 + i},1,2,{p}" for i, p in enumerate(preds)] + [f"select {3 + len(preds)},1,2,1"]
    text = "1,2\n" + "\n".join(body) + "\n" + ",".join(str(3 + i) for i in range(len(preds) + 1))
    want = [[int(PREDS[p](int(a), int(b))) for p in preds] + [int(b) if a != 0 else int(a)] for a, b in ALL_PAIRS]
    assert lanes_of(text, ALL_PAIRS).tolist() == want


def test_every_value_of_the_unary_ops_and_set() -> None:
    values = np.arange(-128, 128, dtype=np.int8)[:, None]
    got = lanes_of("1\nnot 2,1\nabs 3,1\ncopy 4,1\nset 5,200\nset 6,-128\n2,3,4,5,6", values)
    assert got.tolist() == [[wrap8(~v), wrap8(abs(v)), v, -56, -128] for v in range(-128, 128)]


def test_division_by_zero_names_the_instruction_and_the_first_instance() -> None:
    inputs = np.array([[6, 3], [5, 0], [1, 0]], dtype=np.int8)
    with pytest.raises(RunFault) as fault:
        lanes_of("1,2\nadd 4,1,1\ndiv 3,1,2\n3", inputs)
    assert (fault.value.index, fault.value.instance) == (1, 1)


def test_an_unbounded_integer_program_is_refused() -> None:
    prog = parse("1,2\nadd 3,1,2\n3", MATMUL_V0)
    slots = check(prog, MATMUL_V0, Expect(2, 1))
    with pytest.raises(ValueError, match="signed 8-bit"):
        run_lanes(prog, slots, MATMUL_V0, np.zeros((1, 2), dtype=object))


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(program(V3_OPS, 4, 12), st.integers(min_value=1, max_value=2000), st.integers(min_value=0, max_value=2**32 - 1))
def test_random_programs_match_the_interpreter(text: str, n: int, seed: int) -> None:
    inputs = np.random.default_rng(seed).integers(-128, 128, size=(n, 4)).astype(np.int8)
    expected = expected_rows(text, inputs.tolist())
    if expected is None:
        with pytest.raises(RunFault):
            lanes_of(text, inputs)
        return
    assert lanes_of(text, inputs).tolist() == expected


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(p.name for p in MASK32.glob("*.ir.gz")))
def test_published_band_programs_give_the_current_evaluators_outputs(name: str) -> None:
    text = gzip.decompress((MASK32 / name).read_bytes()).decode()
    prog = parse(text, MASK_V3)
    slots = check(prog, MASK_V3, Expect(594, 32))
    suite = dev_suite()
    assert np.array_equal(run_lanes(prog, slots, MASK_V3, suite.inputs), run(prog, slots, MASK_V3, suite.inputs))
