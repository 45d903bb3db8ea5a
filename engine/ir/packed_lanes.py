"""Run a signed 8-bit IR program with every test instance packed into one Python integer per address.

Why: the sparse-parity and symmetry challenges check a program on 8 to 256 instances. One numpy call per
instruction over so few values is nearly all call overhead (about a microsecond each); an operation on one Python
integer holding every instance costs a few tens of nanoseconds, so a 100,000-line program runs several times faster.

Layout: instance i occupies bits 16·i … 16·i+7 of the integer, as its byte ``v & 0xFF``; bits 8…15 of each 16-bit
lane are kept zero between instructions, so a lane's carry or borrow never reaches its neighbour:

* ``and``, ``or``, ``xor`` act lane by lane as they are; ``not`` is ``xor`` with 0xFF in every lane.
* ``add`` is ``(a + b) & 0xFF…``; ``sub`` is ``(a + 0x100 − b) & 0xFF…`` (each lane stays in 1…511).
* ``cmp``: signed order becomes unsigned order after flipping bit 7 (``v ^ 0x80``); ``a' + 0x100 − b'`` keeps
  bit 8 exactly when a' ≥ b'. ``eq``/``ne`` test whether ``(a ^ b) + 0xFF`` carries into bit 8.
* ``select`` builds a 0x00/0xFF mask per lane from the condition; ``abs`` is two's-complement negation of the
  negative lanes (``abs(-128)`` stays -128, as numpy's int8 and the reference give).
* ``mul`` and ``div`` have no such form: their lanes are unpacked to int8 numpy rows, computed exactly as in
  :mod:`engine.ir.simulate`, and packed back.

Every result is the signed 8-bit wrap of the reference scorers (docs/metrics.md#scorer-dialects); the property tests
compare this runner with the numpy one and with a plain per-instance interpreter.
"""

from __future__ import annotations

import numpy as np

from engine.ir.instruction_set import Op
from engine.ir.program import Program
from engine.ir.static_check import Slots

MAX_INSTANCES = 1024
"""Up to this many instances the packed runner is used (1024 lanes = 16 Kibit integers; measured faster than the
numpy rows at 256 instances, ``bench/bench_score_ir.py`` symmetry eight)."""

_ADD, _SUB, _MUL, _COPY, _AND, _OR, _XOR, _NOT, _SET, _DIV, _CMP, _SELECT, _ABS = (int(op) for op in Op)
_EQ, _NE, _LT, _LE, _GT, _GE = range(_ABS + 1, _ABS + 7)
"""``cmp`` split by predicate into op codes of its own, so the loop dispatches once."""


class DivisionByZero(Exception):
    """Instruction ``index`` divided by zero; ``instance`` is the first instance (0-based) where it did."""

    def __init__(self, index: int, instance: int) -> None:
        super().__init__("division by zero")
        self.index = index
        self.instance = instance


def pack(column: np.ndarray) -> int:
    """One integer holding ``column`` (one value per instance, wrapped to 8 bits) in 16-bit lanes."""
    return int.from_bytes(np.asarray(column).astype(np.int8).view(np.uint8).astype("<u2").tobytes(), "little")


def unpack(value: int, n: int) -> np.ndarray:
    """The ``n`` lanes of ``value`` as signed 8-bit values."""
    lanes = np.frombuffer(value.to_bytes(2 * n, "little"), dtype="<u2")
    return lanes.astype(np.uint8).view(np.int8)


def run_packed(program: Program, slots: Slots, inputs: np.ndarray) -> np.ndarray:
    """Outputs of every instance, shape (instances, outputs), int8; raises :class:`DivisionByZero`."""
    n = inputs.shape[0]
    ones = int.from_bytes(b"\x01\x00" * n, "little")
    low = 0xFF * ones  # 0x00FF in every lane
    carry = 0x100 * ones  # bit 8 of every lane
    sign = 0x80 * ones  # bit 7 of every lane
    mem = [0] * slots.n_slots
    for slot, column in zip(slots.inputs.tolist(), inputs.T, strict=True):
        mem[slot] = pack(column)
    op = program.op.astype(np.int64)
    is_cmp = op == _CMP
    op[is_cmp] = _EQ + program.imm[is_cmp]
    constant = np.where(op == _SET, program.imm & 0xFF, 0).tolist()
    src = slots.src.T
    code = zip(
        op.tolist(), slots.dest.tolist(), src[0].tolist(), src[1].tolist(), src[2].tolist(), constant, strict=True
    )
    for i, (o, d, x, y, z, k) in enumerate(code):
        if o == _XOR:
            mem[d] = mem[x] ^ mem[y]
        elif o == _AND:
            mem[d] = mem[x] & mem[y]
        elif o == _COPY:
            mem[d] = mem[x]
        elif o == _OR:
            mem[d] = mem[x] | mem[y]
        elif o == _ADD:
            mem[d] = (mem[x] + mem[y]) & low
        elif o == _SUB:
            mem[d] = (mem[x] + carry - mem[y]) & low
        elif o == _SET:
            mem[d] = k * ones
        elif o == _NOT:
            mem[d] = mem[x] ^ low
        elif o == _EQ:
            mem[d] = (((mem[x] ^ mem[y]) + low) >> 8 & ones) ^ ones
        elif o == _NE:
            mem[d] = ((mem[x] ^ mem[y]) + low) >> 8 & ones
        elif o == _LT:
            mem[d] = (((mem[x] ^ sign) + carry - (mem[y] ^ sign)) >> 8 & ones) ^ ones
        elif o == _GE:
            mem[d] = ((mem[x] ^ sign) + carry - (mem[y] ^ sign)) >> 8 & ones
        elif o == _GT:
            mem[d] = (((mem[y] ^ sign) + carry - (mem[x] ^ sign)) >> 8 & ones) ^ ones
        elif o == _LE:
            mem[d] = ((mem[y] ^ sign) + carry - (mem[x] ^ sign)) >> 8 & ones
        elif o == _SELECT:
            mask = (((mem[x] + low) >> 8) & ones) * 0xFF  # 0xFF in lanes whose condition is non-zero
            mem[d] = (mem[y] & mask) | (mem[z] & (mask ^ low))
        elif o == _ABS:
            negative = (mem[x] >> 7) & ones
            mem[d] = ((mem[x] ^ (negative * 0xFF)) + negative) & low
        else:
            mem[d] = _by_rows(i, o, mem[x], mem[y], n)
    rows = [unpack(mem[slot], n) for slot in slots.outputs.tolist()]
    if not rows:
        return np.zeros((n, 0), dtype=np.int8)
    return np.stack(rows, axis=1)


def _by_rows(index: int, o: int, a: int, b: int, n: int) -> int:
    """``mul`` or ``div`` lane by lane on int8 numpy rows (as engine.ir.simulate computes them), packed back."""
    x, y = unpack(a, n), unpack(b, n)
    with np.errstate(all="ignore"):
        if o == _MUL:
            return pack(np.multiply(x, y))
        if not y.all():
            raise DivisionByZero(index, int(np.argmin(y != 0)))
        return pack(np.floor_divide(x, y))
