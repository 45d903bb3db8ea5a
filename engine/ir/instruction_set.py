"""The IR instruction sets v0–v3 and the two scorer dialects that use them (docs/metrics.md#dally-ir-cost).

Sources: cybertronai/simplified-dally-model (instruction-sets v0..v3) and the scorers of cybertronai/sutro-problems
(matmul: v0 over unbounded integers; sparse-parity and symmetry: v3 over signed 8-bit values).

Every op has an integer code (used in the parsed program's arrays), a kind that fixes its arity and how many
addresses it reads, and the first instruction set that has it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Op(IntEnum):
    """Op codes as stored in :class:`engine.ir.program.Program` arrays."""

    ADD = 0
    SUB = 1
    MUL = 2
    COPY = 3
    AND = 4
    OR = 5
    XOR = 6
    NOT = 7
    SET = 8
    DIV = 9
    CMP = 10
    SELECT = 11
    ABS = 12


BINARY = frozenset({Op.ADD, Op.SUB, Op.MUL, Op.AND, Op.OR, Op.XOR, Op.DIV})
"""``op d,a,b`` (3 operands, 2 reads) or the short form ``op d,b`` meaning ``op d,d,b``."""
UNARY = frozenset({Op.COPY, Op.NOT, Op.ABS})
"""``op d,a``: exactly 2 operands, 1 read."""

PREDICATES: dict[str, int] = {"eq": 0, "ne": 1, "lt": 2, "le": 3, "gt": 4, "ge": 5}
"""``cmp d,a,b,PRED`` predicates and their codes (stored in ``Program.imm``)."""

ARITY_TEXT: dict[Op, str] = {
    **{op: "2 or 3 operands (op d,a,b or op d,b)" for op in BINARY},
    **{op: "2 operands (op d,a)" for op in UNARY},
    Op.SET: "2 operands (set d,K)",
    Op.CMP: "4 operands (cmp d,a,b,PRED)",
    Op.SELECT: "4 operands (select d,c,t,f)",
}
"""What each op expects, as quoted in arity errors."""


def arity_ok(op: Op, n_operands: int) -> bool:
    """Whether ``n_operands`` (destination included) is a legal operand count for ``op``."""
    if op in BINARY:
        return n_operands in (2, 3)
    if op in (Op.CMP, Op.SELECT):
        return n_operands == 4
    return n_operands == 2


INSTRUCTION_SETS: dict[str, frozenset[Op]] = {
    "v0": frozenset({Op.ADD, Op.SUB, Op.MUL, Op.COPY}),
    "v1": frozenset({Op.ADD, Op.SUB, Op.MUL, Op.COPY, Op.AND, Op.OR, Op.XOR, Op.NOT}),
    "v2": frozenset({Op.ADD, Op.SUB, Op.MUL, Op.COPY, Op.AND, Op.OR, Op.XOR, Op.NOT, Op.SET}),
    "v3": frozenset(Op),
}
"""Each instruction set adds ops to the previous one (docs/metrics.md#dally-ir-cost)."""


@dataclass(frozen=True)
class Dialect:
    """One scorer's reading of the IR: its instruction set and the rules that differ between scorers.

    wrap8: arithmetic and bitwise results wrap to signed 8 bits (v & 0xFF, minus 256 if ≥ 128); else unbounded.
    max_lines: most non-blank lines (input and output lines included) accepted, or None for no cap.
    max_address_bits: largest bit length of an input, output or destination address, or None for no cap.
    set_range: inclusive range of ``set`` literals.
    skip_empty_tokens: empty comma-separated tokens are ignored (the v3 scorers) instead of rejected (matmul).
    """

    name: str
    isa: str
    wrap8: bool
    max_lines: int | None
    max_address_bits: int | None
    set_range: tuple[int, int] = (-128, 255)
    skip_empty_tokens: bool = False

    @property
    def ops(self) -> frozenset[Op]:
        return INSTRUCTION_SETS[self.isa]

    def op_names(self) -> list[str]:
        """The op mnemonics this dialect accepts, in code order."""
        return [op.name.lower() for op in sorted(self.ops)]


MATMUL_V0 = Dialect(name="v0 (unbounded integers)", isa="v0", wrap8=False, max_lines=None, max_address_bits=None)
"""The matmul scorer: add/sub/mul/copy on exact integers; no line or address cap."""

INT8_V3 = Dialect(
    name="v3 (signed 8-bit)",
    isa="v3",
    wrap8=True,
    max_lines=100_000,
    max_address_bits=64,
    skip_empty_tokens=True,
)
"""The sparse-parity and symmetry scorers: v3 on signed 8-bit values, ≤ 100,000 lines, addresses < 2**64."""

OP_BY_NAME: dict[str, Op] = {op.name.lower(): op for op in Op}
