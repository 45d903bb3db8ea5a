"""ByteDMD: the reference table and worked examples of docs/metrics.md#bytedmd (oracle: the group's published
numbers)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from engine.errors import BadParameter
from engine.metrics.bytedmd import bytedmd, bytedmd_trace, read_costs


def add3(a, b, c):
    return (a + b) + c


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1]


def dot_sum(a, b):
    return sum(x * y for x, y in zip(a, b, strict=True))


def matvec(A, x):
    n = len(x)
    y = [None] * n
    for i in range(n):
        s = A[i][0] * x[0]
        for j in range(1, n):
            s = s + A[i][j] * x[j]
        y[i] = s
    return y


def vecmat(A, x):
    n = len(x)
    y = [None] * n
    for j in range(n):
        s = x[0] * A[0][j]
        for i in range(1, n):
            s = s + x[i] * A[i][j]
        y[j] = s
    return y


def matmul(A, B):
    n = len(A)
    C = [[None] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            s = A[i][0] * B[0][j]
            for k in range(1, n):
                s = s + A[i][k] * B[k][j]
            C[i][j] = s
    return C


def ones(n):
    return [[1] * n for _ in range(n)]


def test_worked_example_trace_and_bytes():
    trace = bytedmd_trace(add3, (1, 2, 3))
    assert trace.depths.tolist() == [1, 2, 1, 2]
    assert trace.result == 6
    assert bytedmd(add3, (1, 2, 3)) == 6
    assert bytedmd(add3, (1, 2, 3), bytes_per_element=2) == 14
    assert bytedmd(add3, (1, 2, 3), bytes_per_element=4) == 38


def test_dot_and_sum_builtin():
    assert bytedmd(dot, ([1, 2], [3, 4])) == 11
    assert bytedmd(dot_sum, ([1, 2], [3, 4])) == 12


@pytest.mark.parametrize(
    ("n", "mv", "vm", "mm"),
    [(2, 26, 25, 57), (4, 157, 150, 720), (8, 896, 832, 8867), (16, 5354, 4688, 109783)],
)
def test_reference_table(n, mv, vm, mm):
    assert bytedmd(matvec, (ones(n), [1] * n)) == mv
    assert bytedmd(vecmat, (ones(n), [1] * n)) == vm
    assert bytedmd(matmul, (ones(n), ones(n))) == mm


def test_numpy_arrays_cost_as_the_element_loop():
    a = np.arange(16.0).reshape(4, 4)
    x = np.ones(4)
    assert bytedmd(matvec, (a, x)) == 157
    assert bytedmd(matvec, (a.tolist(), x.tolist())) == 157


def test_public_export_and_argument_order():
    assert engine.bytedmd is bytedmd

    # matvec(A, x) with 2x2 A: A[1][1] starts at depth 1, A[0][0] at 4, x[1] at 5, x[0] at 6
    def use_all(A, x):
        s = A[0][0] * x[0]
        return s + (A[0][1] + A[1][0]) + (A[1][1] + x[1])

    first = bytedmd_trace(use_all, ([[1, 2], [3, 4]], [5, 6]))
    assert first.depths.tolist()[:2] == [4, 6]


def test_repeated_operand_charged_twice_and_unused_inputs_free():
    assert bytedmd_trace(lambda a: a + a, (3,)).depths.tolist() == [1, 1]
    # b is never used: it is dropped at once and adds no depth to a
    assert bytedmd_trace(lambda a, b: a * 2, (3, 4)).depths.tolist() == [1]


def test_escape_branching_reads_once_then_untracked():
    def relu(a):
        return a if a > 0 else 0

    trace = bytedmd_trace(relu, (5,))
    # a > 0 reads a (depth 1) and stores a tracked bool; if reads the bool (depth 1); returning a costs nothing
    assert trace.depths.tolist() == [1, 1]
    escaped = bytedmd_trace(lambda a: int(a) * 7 + 1, (5,))
    assert escaped.depths.tolist() == [1]  # the work after int() is free: the documented escape


def test_mutated_list_argument_is_written_back():
    data = [1, 2]

    def bump(v):
        v[0] = v[0] + v[1]

    bytedmd(bump, (data,))
    assert data == [3, 2]


def test_bytes_per_element_formula_matches_direct_sum():
    for d in range(1, 40):
        for b in (1, 2, 3, 4):
            direct = sum(int(np.ceil(np.sqrt(j))) for j in range((d - 1) * b + 1, d * b + 1))
            assert read_costs([d], b)[0] == direct


@given(st.lists(st.one_of(st.integers(-2, 2**50 - 1), st.integers(1, 2**25).map(lambda k: k * k)), max_size=8))
def test_one_byte_read_costs_are_exact_ceil_sqrt(depths):
    # oracle: math.isqrt; perfect squares and their neighbours (k², k² ± 1) are where a float root could slip
    near = [d + e for d in depths for e in (-1, 0, 1) if d + e < 2**50]
    want = [math.isqrt(max(d, 1) - 1) + 1 for d in near]
    assert read_costs(near).tolist() == want
    assert read_costs([*near, 2**50 + 1]).tolist() == [*want, 2**25 + 1]  # past the float range: exact isqrt


def test_bad_bytes_per_element():
    with pytest.raises(BadParameter):
        bytedmd(add3, (1, 2, 3), bytes_per_element=0)


def test_per_read_lines():
    lines = bytedmd_trace(add3, (1, 2, 3)).lines()
    assert [line.split("cost ")[1] for line in lines] == ["1", "2", "1", "2"]
