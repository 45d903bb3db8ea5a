"""The compiled element tracer (``engine/tracing/tracked_kernel.pyx``) against its oracle, the plain-Python tracer
(:mod:`engine.tracing.tracked_pure`).

Both implementations are imported explicitly and run the same programs: generated operator sequences (hypothesis:
ints, floats and bools, tracked and untracked operands mixed, arrays on either side, ``pow`` with a modulus,
``divmod``, comparisons, unary ops, escapes, ops that raise) and a few whole functions. Every access of the two
traces (``columns()``), the results (by ``repr``: types, signs of zero and NaN included), the errors raised and the
kept keys must be identical. The pure tracer is itself pinned by the group's reference outputs
(tests/engine/test_reference_differential.py runs it too).
"""

from __future__ import annotations

import copy
import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.compiled import load_extension
from engine.tracing import tracked_pure, tracked_scalar
from engine.tracing.tracked_scalar import call_traced

tracked_kernel = load_extension("engine.tracing.tracked_kernel")

compiled = pytest.mark.skipif(
    tracked_kernel is None, reason="the compiled tracer is not built in this install (or SUTRO_PURE_PYTHON is set)"
)

BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
    "truediv": operator.truediv,
    "floordiv": operator.floordiv,
    "mod": operator.mod,
    "pow": operator.pow,
    "lshift": operator.lshift,
    "rshift": operator.rshift,
    "and": operator.and_,
    "or": operator.or_,
    "xor": operator.xor,
    "matmul": operator.matmul,
    "divmod": divmod,
    "eq": operator.eq,
    "ne": operator.ne,
    "lt": operator.lt,
    "le": operator.le,
    "gt": operator.gt,
    "ge": operator.ge,
}
UNARY: dict[str, Callable[[Any], Any]] = {
    "neg": operator.neg,
    "pos": operator.pos,
    "abs": abs,
    "invert": operator.invert,
    "trunc": math.trunc,
    "ceil": math.ceil,
    "floor": math.floor,
    "round": round,
    "round1": lambda x: round(x, 1),
    # escapes: read once, the result is untracked
    "bool": bool,
    "int": int,
    "float": float,
    "complex": complex,
    "hash": hash,
    "index": lambda x: (10, 20, 30)[x],
    "if": lambda x: 1 if x else 0,
    # no access at all
    "str": str,
    "repr": repr,
}
ARRAY: dict[str, Callable[[Any], Any]] = {
    "sum": np.sum,
    "max": np.max,
    "neg": operator.neg,
    "square": lambda a: a**2,
    "dot": lambda a: np.dot(a, a),
    "sorted": lambda a: sorted(a.tolist()),
    "floor": np.floor,
}

scalars = st.one_of(
    st.integers(-6, 6),
    st.floats(-4, 4, allow_nan=False).map(lambda f: round(f, 2)),
    st.booleans(),
)
operands = st.one_of(
    st.tuples(st.just("reg"), st.integers(0, 63)),  # a value computed so far (tracked or not), modulo their count
    st.tuples(st.just("const"), scalars),
    st.tuples(st.just("arr"), st.integers(0, 7)),  # an array so far (object arrays of tracked values, or plain)
    st.tuples(st.just("plain"), st.lists(st.integers(-3, 3), min_size=1, max_size=3)),  # a numpy constant
)
steps = st.one_of(
    st.tuples(st.just("binary"), st.sampled_from(sorted(BINARY)), operands, operands),
    st.tuples(st.just("unary"), st.sampled_from(sorted(UNARY)), operands),
    st.tuples(st.just("pow3"), st.just(""), operands, operands, operands),
    st.tuples(st.just("array"), st.sampled_from(sorted(ARRAY)), operands),
)
arrays = st.lists(scalars, min_size=1, max_size=3).map(np.array)


def plain(value: Any) -> Any:
    """A value as the program sees it, without a read (to keep generated programs away from huge numbers)."""
    return getattr(value, "val", value)


def too_big(step: tuple[Any, ...], values: list[Any]) -> bool:
    """Powers and shifts that would build huge integers (the same decision for both tracers: no access)."""
    if step[1] in {"pow", "lshift"} or step[0] == "pow3":
        flat = [plain(v) for value in values for v in (value.flat if isinstance(value, np.ndarray) else [value])]
        return any(isinstance(v, int | float | complex) and abs(v) > 64 for v in flat)
    return False


def interpreter(program: list[tuple[Any, ...]], n_scalars: int) -> Callable[..., list[Any]]:
    """A function running ``program`` on its arguments (``n_scalars`` scalars, then arrays); returns every step's
    outcome: the value, or the name of the error it raised."""

    def run(*args: Any) -> list[Any]:
        regs, arrs = list(args[:n_scalars]), list(args[n_scalars:])
        outcome: list[Any] = []

        def operand(ref: tuple[Any, Any]) -> Any:
            kind, at = ref
            if kind == "reg":
                return regs[at % len(regs)]
            if kind == "arr":
                return arrs[at % len(arrs)] if arrs else regs[at % len(regs)]
            if kind == "plain":
                return np.array(at)
            return at

        for step in program:
            values = [operand(ref) for ref in step[2:]]
            if too_big(step, values):
                outcome.append("skipped")
                continue
            try:
                if step[0] == "binary":
                    value = BINARY[step[1]](*values)
                elif step[0] == "unary":
                    value = UNARY[step[1]](*values)
                elif step[0] == "pow3":
                    value = pow(*values)
                else:
                    value = ARRAY[step[1]](*values)
            except Exception as error:  # noqa: BLE001 - both tracers must raise the same errors at the same accesses
                outcome.append(type(error).__name__)
                continue
            outcome.append(value)
            for v in value if isinstance(value, tuple | list) else [value]:
                (arrs if isinstance(v, np.ndarray) and v.ndim else regs).append(v)
        return outcome

    return run


def traced(impl: Any, func: Callable[..., Any], args: tuple[Any, ...]) -> tuple[list[list[Any]], int, str, list[int]]:
    """Everything observable of one traced call on ``impl``'s tracer."""
    trace, result, kept = call_traced(func, args, impl.ElementTrace())
    return [column.tolist() for column in trace.columns()], len(trace), repr(result), kept


def assert_same(func: Callable[..., Any], make_args: Callable[[], tuple[Any, ...]]) -> None:
    want = traced(tracked_pure, func, make_args())
    got = traced(tracked_kernel, func, make_args())
    assert got[0] == want[0]  # every access: (is_store, key, op)
    assert got[1:] == want[1:]


@compiled
@pytest.mark.slow  # 300 generated programs on both tracers
@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # numpy's warnings on x / 0 in a generated program
@given(st.lists(scalars, min_size=1, max_size=4), st.lists(arrays, max_size=2), st.lists(steps, max_size=20))
@settings(max_examples=300, deadline=None)
def test_generated_programs_leave_the_same_trace_on_both_tracers(scalar_args, array_args, program) -> None:
    run = interpreter(program, len(scalar_args))
    assert_same(run, lambda: (*scalar_args, *(a.copy() for a in array_args)))


def naive_matmul(A, B):
    n = len(A)
    C = [[None] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            s = A[i][0] * B[0][j]
            for k in range(1, n):
                s = s + A[i][k] * B[k][j]
            C[i][j] = s
    return C


def branchy(xs, t):
    kept = [x for x in xs if x > t]  # comparisons, then escapes through bool
    kept.sort()
    return max(xs), sum(kept), sorted(xs, reverse=True)[0] * t


def numpy_step(w, x, y, lr):
    err = x @ w - y
    w -= lr * (x.T @ err)  # in place: written back into the caller's array
    return float((err**2).mean())


def mutating(values, c):
    values[0] = values[1] * c
    values.append(c)
    return values


def mixed_object_array() -> np.ndarray:
    out = np.empty(5, dtype=object)
    out[:] = [np.float32(1.5), None, 2, np.int64(-3), True]
    return out


def layouts() -> tuple[Any, ...]:
    """Arrays the wrapper must place element by element in C order, whatever their layout and dtype."""
    return (
        np.asfortranarray(np.arange(6).reshape(2, 3)),
        np.linspace(0, 1, 9)[::2],
        np.array(3.5),
        mixed_object_array(),
        np.array([True, False]),
        np.arange(4, dtype=np.uint8).reshape(2, 2).T,
        np.array([1 + 2j, 3j], dtype=np.complex64),
        np.asmatrix([[1, 2], [3, 4]]),
        [np.arange(2), (np.float64(0.5), 7)],
    )


def layouts_program(f, s, z, o, b, u, c, m, nested):
    return f * 2, s.sum(), z + 1, o[0] * o[2], b & True, u @ u, c * c, m * 2, nested[0] * nested[1][0]


def deep_copied(A, c):
    B = copy.deepcopy(A)  # the copies keep their keys: copying is free
    B[0][0] = B[0][0] * c
    return B[0][0] + A[0][1] * c, copy.copy(A[1][1]) - c


WHOLE: dict[str, tuple[Callable[..., Any], Callable[[], tuple[Any, ...]]]] = {
    "arrays of every layout": (layouts_program, layouts),
    "deep copies": (deep_copied, lambda: ([[1.0, 2.0], [3.0, 4.0]], 0.5)),
    "naive matmul 4x4": (naive_matmul, lambda: ([[i + j for j in range(4)] for i in range(4)], [[1.5] * 4] * 4)),
    "branchy": (branchy, lambda: ([3, -1, 4.5, 1, -5, 9], 1)),
    "numpy step": (
        numpy_step,
        lambda: (np.arange(3.0), np.arange(12.0).reshape(4, 3) / 7, np.array([1.0, 0, -1, 2]), 0.1),
    ),
    "mutating a list": (mutating, lambda: ([1, 2, 3], 2.5)),
    "scalar times array": (lambda c, a: (c * a, a * c, c < a), lambda: (2, np.array([1, 2, 3]))),
    "modular pow": (lambda x, e, m: (pow(x, e, m), pow(x, 3, m), pow(x, e), pow(2, x), x**e), lambda: (7, 5, 11)),
    "divmod and tuples": (lambda a, b: (divmod(a, b), divmod(7, b), divmod(a, 2.5)), lambda: (17, 5)),
    "list results": (lambda a, b: (b * [1, a], [a] * b, (a,) * 2), lambda: (1.5, 2)),
}


@compiled
@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # np.matrix, on purpose (an ndarray subclass)
@pytest.mark.parametrize("name", sorted(WHOLE))
def test_whole_functions_leave_the_same_trace_on_both_tracers(name: str) -> None:
    func, make_args = WHOLE[name]
    assert_same(func, make_args)


@compiled
def test_the_compiled_tracer_is_the_active_one_when_built() -> None:
    assert tracked_scalar.COMPILED
    assert tracked_scalar.ElementTrace is tracked_kernel.ElementTrace
    assert tracked_scalar.Tracked is tracked_kernel.Tracked
    trace, _, _ = call_traced(lambda a, b: a * b, (2, 3))
    assert type(trace) is tracked_kernel.ElementTrace


@pytest.mark.parametrize("impl", [tracked_pure, tracked_kernel], ids=["pure", "compiled"])
def test_hand_worked_stream(impl: Any) -> None:
    if impl is None:
        pytest.skip("the compiled tracer is not built in this install (or SUTRO_PURE_PYTHON is set)")
    # stores: a (key 0), c (key 1); a * c reads a then c; c * [2, 3] reads each element, then c; int(a) reads a
    trace = impl.ElementTrace()
    a, c = trace.store(2), trace.store(5)
    assert str(a * c) == "10" and repr(c) == "Tracked(5)"
    array = np.array([trace.store(2), trace.store(3)], dtype=object)  # keys 3, 4
    scaled = c * array
    assert [v.val for v in scaled] == [10, 15]
    assert int(a) == 2  # an escape: one read, a plain int
    is_store, key, op = (column.tolist() for column in trace.columns())
    assert is_store == [True, True, False, False, True, True, True, False, True, False, True, False, False]
    assert key == [0, 1, 0, 1, 2, 3, 4, 3, 5, 4, 6, 1, 0]
    assert op == [0, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
    assert len(trace) == 13 and trace._next_key == 7
