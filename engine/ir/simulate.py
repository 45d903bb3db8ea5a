"""Run an IR program on all test instances at once and return every instance's outputs (docs/metrics.md#dally-ir-cost).

Two value models, as the reference scorers (cybertronai/sutro-problems) define them:

* signed 8-bit (sparse parity, symmetry): up to :data:`engine.ir.packed_lanes.MAX_INSTANCES` instances, all
  instances packed into one Python integer per address (:mod:`engine.ir.packed_lanes`); beyond that, memory is an
  int8 array with one column per instance, so each instruction is one numpy operation over every instance;
  numpy's int8 arithmetic wraps exactly like the reference's ``v & 0xFF, minus 256 if ≥ 128`` (``-128 // -1`` and
  ``abs(-128)`` give -128 there too). ``cmp`` gives 1/0, ``select`` copies. Division by zero on any instance is a
  fault.
* unbounded integers (matmul, v0): exact Python ints, one pass per instance. The matmul challenges have a single
  deterministic test instance, and a plain integer loop is both exact (no overflow to guard) and several times faster
  than one-element numpy rows.

Reads of unwritten addresses cannot happen here: :mod:`engine.ir.static_check` has already refused them.
"""

from __future__ import annotations

import numpy as np

from engine.ir.instruction_set import Dialect, Op
from engine.ir.packed_lanes import MAX_INSTANCES, DivisionByZero, run_packed
from engine.ir.program import Program
from engine.ir.static_check import Slots


class RunFault(Exception):
    """The program faulted on a test instance (division by zero). ``index``: the instruction; ``instance``: 0-based."""

    def __init__(self, index: int, instance: int, reason: str) -> None:
        super().__init__(reason)
        self.index = index
        self.instance = instance
        self.reason = reason


def run(program: Program, slots: Slots, dialect: Dialect, inputs: np.ndarray) -> np.ndarray:
    """Outputs of every instance, shape (instances, outputs); ``inputs`` has shape (instances, inputs)."""
    if dialect.wrap8 and inputs.shape[0] <= MAX_INSTANCES:
        try:
            return run_packed(program, slots, inputs)
        except DivisionByZero as fault:
            raise RunFault(fault.index, fault.instance, "division by zero") from None
    if dialect.wrap8:
        return _run_int8(program, slots, inputs)
    return _run_exact(program, slots, inputs)


def _run_exact(program: Program, slots: Slots, inputs: np.ndarray) -> np.ndarray:
    """Unbounded-integer v0 (add, sub, mul, copy) on Python ints, one instance at a time."""
    if program.n_instructions and int(program.op.max()) > Op.COPY:
        raise ValueError("the unbounded-integer model runs v0 programs only")
    # bytes and memoryviews yield Python ints one at a time: no list of a million ints is built first (about
    # half of this function's time on the 64×64 matmul)
    ops = program.op.astype(np.int8).tobytes()
    dest = np.ascontiguousarray(slots.dest, dtype=np.int64).data
    a = np.ascontiguousarray(slots.src[:, 0], dtype=np.int64).data
    b = np.ascontiguousarray(slots.src[:, 1], dtype=np.int64).data
    in_slots = slots.inputs.tolist()
    out_slots = slots.outputs.tolist()
    results = []
    for values in inputs.tolist():
        m = [0] * slots.n_slots
        for s, v in zip(in_slots, values, strict=True):
            m[s] = v
        for o, d, x, y in zip(ops, dest, a, b, strict=True):
            if o == 2:
                m[d] = m[x] * m[y]
            elif o == 0:
                m[d] = m[x] + m[y]
            elif o == 3:
                m[d] = m[x]
            else:
                m[d] = m[x] - m[y]
        results.append([m[s] for s in out_slots])
    return np.array(results, dtype=object).reshape(len(results), len(out_slots))


_CMP = (np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal)


def _run_int8(program: Program, slots: Slots, inputs: np.ndarray) -> np.ndarray:
    """v3 on signed 8-bit values: memory (slots × instances) int8, one numpy operation per instruction."""
    n_inst = inputs.shape[0]
    mem = np.zeros((slots.n_slots, n_inst), dtype=np.int8)
    mem[slots.inputs] = inputs.T
    rows = list(mem)
    add, sub, mul, xor, band, bor = (
        np.add,
        np.subtract,
        np.multiply,
        np.bitwise_xor,
        np.bitwise_and,
        np.bitwise_or,
    )
    src = slots.src.T
    code = zip(
        program.op.tolist(),
        slots.dest.tolist(),
        src[0].tolist(),
        src[1].tolist(),
        src[2].tolist(),
        program.imm.tolist(),
        strict=True,
    )
    with np.errstate(all="ignore"):
        for i, (o, d, x, y, z, k) in enumerate(code):
            out = rows[d]
            if o == 6:
                xor(rows[x], rows[y], out=out)
            elif o == 4:
                band(rows[x], rows[y], out=out)
            elif o == 5:
                bor(rows[x], rows[y], out=out)
            elif o == 3:
                out[...] = rows[x]  # slice assignment: a third of np.copyto's call overhead
            elif o == 8:
                out.fill(k)
            elif o == 0:
                add(rows[x], rows[y], out=out)
            elif o == 1:
                sub(rows[x], rows[y], out=out)
            elif o == 2:
                mul(rows[x], rows[y], out=out)
            elif o == 10:
                _CMP[k](rows[x], rows[y], out=out)
            elif o == 11:
                out[...] = np.where(rows[x] != 0, rows[y], rows[z])
            elif o == 7:
                np.invert(rows[x], out=out)
            elif o == 12:
                np.abs(rows[x], out=out)
            else:  # div: floor division, refused on a zero divisor
                divisor = rows[y]
                if not divisor.all():
                    raise RunFault(i, int(np.argmin(divisor != 0)), "division by zero")
                np.floor_divide(rows[x], divisor, out=out)
    outputs: np.ndarray = mem[slots.outputs].T
    return outputs
