"""The worked examples of docs/metrics.md#dally-worked-examples and the read-cost formula, as unit tests (hand-computed
oracles)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from engine.ir.cost import read_cost
from engine.ir.instruction_set import MATMUL_V0
from engine.ir.parser import parse
from engine.scoring.ir import score_ir


def test_read_cost_table_from_engine_md() -> None:
    # cost(1)=1, cost(2..4)=2, cost(5..9)=3, cost(10..16)=4, cost(17)=5
    addrs = np.arange(1, 18)
    assert read_cost(addrs).tolist() == [1, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 5]


@given(st.integers(min_value=1, max_value=2**63 - 1))
def test_read_cost_is_exact_isqrt_for_every_int64(a: int) -> None:
    assert int(read_cost(np.array([a], dtype=np.int64))[0]) == math.isqrt(a - 1) + 1


def test_read_cost_beyond_int64_uses_exact_ints() -> None:
    big = np.array([2**64 + 1, 10**40], dtype=object)
    assert read_cost(big).tolist() == [2**32 + 1, 10**20]


def test_worked_1x1_matmul_costs_5() -> None:
    # inputs free; mul reads 1 (cost 1) and 2 (cost 2); output 3 read once (cost 2): 1 + 2 + 2
    result = score_ir("matmul_1x1", "1,2;mul 3,1,2;3")
    assert result.ok
    assert result.metrics["dally@1"] == 5
    assert result.counts == {"instructions": 1, "reads": 3, "instances": 1}


def test_worked_five_input_program_costs_15() -> None:
    # mul 1,1,2: 1+2; mul 2,3,4: 2+2; add 1,1,2: 1+2; add 1,5 (= add 1,1,5): 1+3; output 1: 1 -> 15
    program = parse("1,2,3,4,5\nmul 1,1,2\nmul 2,3,4\nadd 1,1,2\nadd 1,5\n1", MATMUL_V0)
    reads = np.concatenate((program.reads()[1], program.outputs))
    assert int(read_cost(reads).sum()) == 15
    assert program.src[3].tolist() == [1, 5, 0]  # short form expanded to add 1,1,5


def test_repeated_operand_pays_each_time() -> None:
    program = parse("1,2\nmul 3,1,1\n3,3", MATMUL_V0)
    reads = np.concatenate((program.reads()[1], program.outputs))
    assert int(read_cost(reads).sum()) == 1 + 1 + 2 + 2  # cost(1) twice, output 3 twice


def test_symmetry_six_baseline_costs_20() -> None:
    text = "1,2,3,4,5,6\ncmp 1, 1, 6, eq\ncmp 2, 2, 5, eq\ncmp 3, 3, 4, eq\nand 1, 2\nand 1, 3\n1"
    result = score_ir("symmetry_six", text)
    assert result.ok
    assert result.metrics["dally@1"] == 20
