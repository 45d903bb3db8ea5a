"""Score short IR programs with a plain line loop, skipping the array path's fixed cost.

The array path (:mod:`engine.ir.parser`, :mod:`engine.ir.static_check`, :mod:`engine.ir.simulate`) makes a few
dozen numpy passes whatever the program's length: about a millisecond, several times the reference scorer's time
on a 4×4 matmul or a 6-bit symmetry program. Up to :data:`MAX_LINES` lines, this module reads, checks and prices
the program in one Python loop, then runs it: v0 on exact Python ints one instance at a time (up to
:data:`MAX_STEPS` instruction × instance steps), signed 8-bit programs with one numpy call per instruction over
all instances at once.

It applies the same rules (docs/metrics.md#dally-ir-cost) but takes only programs that break none of them and run
without a fault: :func:`compile_short` returns None for anything else, and :meth:`ShortProgram.run` returns None
on a division by zero, so the array path defines every error message. A property test checks both paths agree.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

import numpy as np

from engine.ir.instruction_set import BINARY, INSTRUCTION_SETS, PREDICATES, UNARY, Dialect, Op
from engine.ir.parser import _statements

MAX_LINES = 400
"""Programs up to this many lines take the line loop (measured crossover, ``bench/bench_score_ir.py``)."""
MAX_CHARS = 40 * MAX_LINES
"""Texts longer than this are not even split into lines here."""
MAX_STEPS = 20_000
"""Exact-integer (v0) instruction × instance steps up to which the line loop runs the program (else the array path)."""

_CMP_UFUNCS = (np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal)
"""``cmp`` predicates by code (:data:`engine.ir.instruction_set.PREDICATES`)."""
_K_BINARY, _K_UNARY, _K_SET, _K_CMP, _K_SELECT = range(5)
_KIND = [
    _K_BINARY
    if op in BINARY
    else _K_UNARY
    if op in UNARY
    else _K_SET
    if op == Op.SET
    else _K_CMP
    if op == Op.CMP
    else _K_SELECT
    for op in Op
]
"""Operand shape by op code (plain ints: enum members hash and compare slowly in a hot loop)."""
_ALLOWED = {isa: {op.name.lower(): int(op) for op in ops} for isa, ops in INSTRUCTION_SETS.items()}
"""Op code by mnemonic, per instruction set."""
_N_READS = [2 if k in (_K_BINARY, _K_CMP) else 1 if k == _K_UNARY else 3 if k == _K_SELECT else 0 for k in _KIND]
"""Addresses read per op code."""
_ADD, _SUB, _MUL, _COPY, _AND, _OR, _XOR, _NOT, _SET, _DIV, _CMP, _SELECT, _ABS = (int(op) for op in Op)
_BINARY_UFUNCS = {
    _ADD: np.add,
    _SUB: np.subtract,
    _MUL: np.multiply,
    _AND: np.bitwise_and,
    _OR: np.bitwise_or,
    _XOR: np.bitwise_xor,
}


@dataclass(frozen=True)
class ShortProgram:
    """A checked short program: its instructions on addresses, its static cost and its reads counted by cost."""

    code: list[tuple[int, ...]]
    """(op, dest, first read, second read, third read or set literal / cmp predicate); addresses, unused 0."""
    inputs: list[int]
    outputs: list[int]
    cost: int
    reads_by_cost: dict[int, int]
    n_reads: int
    wrap8: bool

    @property
    def n_instructions(self) -> int:
        return len(self.code)

    def run(self, inputs: np.ndarray) -> list[list[int]] | None:
        """Outputs of each instance (rows of ``inputs``); None on a division by zero (the array path reports it)."""
        if self.wrap8:
            return self._run_rows(inputs)
        try:
            return [self._run_one(row) for row in inputs.tolist()]
        except ZeroDivisionError:
            return None

    def _run_rows(self, inputs: np.ndarray) -> list[list[int]] | None:
        """Signed 8 bits, every instance at once: one int8 row per address, one numpy call per instruction (int8
        arithmetic wraps exactly as the reference's ``v & 0xFF, minus 256 if ≥ 128``; see engine.ir.simulate)."""
        n_inst = inputs.shape[0]
        m = dict(zip(self.inputs, inputs.T.astype(np.int8), strict=True))
        with np.errstate(all="ignore"):
            for o, d, x, y, z in self.code:
                if o == _CMP:
                    m[d] = _CMP_UFUNCS[z](m[x], m[y]).view(np.int8)
                elif o == _SELECT:
                    m[d] = np.where(m[x] != 0, m[y], m[z])
                elif o == _COPY:
                    m[d] = m[x]  # no op writes in place, so sharing a row is safe
                elif o == _SET:
                    m[d] = np.full(n_inst, z, dtype=np.int8)
                elif o == _NOT:
                    m[d] = np.invert(m[x])
                elif o == _ABS:
                    m[d] = np.abs(m[x])
                elif o == _DIV:
                    if not m[y].all():
                        return None
                    m[d] = np.floor_divide(m[x], m[y])
                else:
                    m[d] = _BINARY_UFUNCS[o](m[x], m[y])
        rows: list[list[int]] = np.stack([m[a] for a in self.outputs], axis=1).tolist()
        return rows

    def _run_one(self, values: list[int]) -> list[int]:
        """v0 (add, sub, mul, copy) on exact integers, one instance."""
        m = dict(zip(self.inputs, values, strict=True))
        for o, d, x, y, _ in self.code:
            if o == _MUL:
                m[d] = m[x] * m[y]
            elif o == _ADD:
                m[d] = m[x] + m[y]
            elif o == _COPY:
                m[d] = m[x]
            else:
                m[d] = m[x] - m[y]
        return [m[a] for a in self.outputs]


def compile_short(text: str, dialect: Dialect, n_inputs: int, n_outputs: int) -> ShortProgram | None:
    """Read and check a short program; None when it is long or breaks any rule (the array path then explains)."""
    if len(text) > MAX_CHARS:
        return None
    lines, _ = _statements(text)
    if not 2 <= len(lines) <= MAX_LINES or (dialect.max_lines is not None and len(lines) > dialect.max_lines):
        return None
    limit = 2**dialect.max_address_bits if dialect.max_address_bits is not None else None
    skip_empty = dialect.skip_empty_tokens
    try:
        inputs = _address_line(lines[0], skip_empty)
        outputs = _address_line(lines[-1], skip_empty)
        code = _body(lines[1:-1], dialect, set(inputs), limit)
    except (ValueError, _Refused):
        return None
    if len(inputs) != n_inputs or len(outputs) != n_outputs or len(set(inputs)) != len(inputs):
        return None
    if not all(_in_range(a, limit) for a in inputs) or not all(_in_range(a, limit) for a in outputs):
        return None
    written = set(inputs).union(row[1] for row in code)
    if not written.issuperset(outputs):
        return None
    reads: list[int] = []
    for row in code:
        reads.extend(row[2 : 2 + _N_READS[row[0]]])
    reads.extend(outputs)
    reads_by_cost: dict[int, int] = {}
    for address, count in Counter(reads).items():
        c = math.isqrt(address - 1) + 1
        reads_by_cost[c] = reads_by_cost.get(c, 0) + count
    return ShortProgram(
        code=code,
        inputs=inputs,
        outputs=outputs,
        cost=sum(c * k for c, k in reads_by_cost.items()),
        reads_by_cost=reads_by_cost,
        n_reads=len(reads),
        wrap8=dialect.wrap8,
    )


class _Refused(Exception):
    """The line loop leaves this program to the array path."""


def _body(lines: list[str], dialect: Dialect, written: set[int], limit: int | None) -> list[tuple[int, ...]]:
    """The instructions as (op, dest, a, b, c); raises _Refused (or ValueError) at the first broken rule."""
    allowed = _ALLOWED[dialect.isa]
    low, high = dialect.set_range
    wrap8 = dialect.wrap8
    skip_empty = dialect.skip_empty_tokens
    code: list[tuple[int, ...]] = []
    append, mark = code.append, written.add
    for line in lines:
        head, _, rest = line.partition(" ")
        op = allowed.get(head)
        if op is None or not rest:
            raise _Refused
        raw = rest.split(",")
        if skip_empty:
            raw = [t for t in raw if t.strip()]
        kind = _KIND[op]
        if kind == _K_CMP:
            if len(raw) != 4:
                raise _Refused
            pred = PREDICATES.get(raw[3].strip(), -1)
            row = (op, int(raw[0]), int(raw[1]), int(raw[2]), pred)
            if pred < 0 or row[2] not in written or row[3] not in written:
                raise _Refused
        else:
            ints = list(map(int, raw))
            n = len(ints)
            if kind == _K_BINARY:
                if n == 3:
                    row = (op, ints[0], ints[1], ints[2], 0)
                elif n == 2:
                    row = (op, ints[0], ints[0], ints[1], 0)
                else:
                    raise _Refused
                if row[2] not in written or row[3] not in written:
                    raise _Refused
            elif kind == _K_UNARY:
                if n != 2 or ints[1] not in written:
                    raise _Refused
                row = (op, ints[0], ints[1], 0, 0)
            elif kind == _K_SELECT:
                if n != 4 or ints[1] not in written or ints[2] not in written or ints[3] not in written:
                    raise _Refused
                row = (op, ints[0], ints[1], ints[2], ints[3])
            else:  # set
                if n != 2 or not low <= ints[1] <= high:
                    raise _Refused
                row = (op, ints[0], 0, 0, ((ints[1] + 128) & 0xFF) - 128 if wrap8 else ints[1])
        dest = row[1]
        if dest < 1 or (limit is not None and dest >= limit):
            raise _Refused
        mark(dest)
        append(row)
    return code


def _address_line(text: str, skip_empty: bool) -> list[int]:
    tokens = text.split(",")
    if skip_empty:
        tokens = [t for t in tokens if t.strip()]
    return [int(t) for t in tokens]


def _in_range(address: int, limit: int | None) -> bool:
    return address >= 1 and (limit is None or address < limit)
