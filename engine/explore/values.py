"""An IR program as values instead of addresses: the form the search operators rewrite (docs/explore.md).

Every input and every instruction's result is a *value* with an id; an instruction reads values, not addresses.
In this form the program's function is fixed by the instruction list alone, so addresses can be chosen afresh
(:mod:`engine.explore.allocate`) and instructions moved or dropped without tracking which cell holds what.

Times: inputs are written at time 0; instruction ``i`` (0-based) reads and then writes at time ``i + 1``; the
output line reads at time ``len(body) + 1``. Priced like the scorer: each operand read and each output read costs
⌈√address⌉ (docs/metrics.md#dally-ir-cost).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.ir.instruction_set import PREDICATES, Dialect, Op
from engine.ir.parser import parse

PREDICATE_NAMES = {code: name for name, code in PREDICATES.items()}


@dataclass(frozen=True)
class Step:
    """One instruction in value form: ``op`` writes value ``out`` from the values ``reads`` (in operand order);
    ``imm`` is the ``set`` literal or the ``cmp`` predicate code (0 otherwise)."""

    op: Op
    out: int
    reads: tuple[int, ...]
    imm: int = 0


@dataclass(frozen=True)
class ValueProgram:
    """inputs: the input values in input-line order (ids 0..len-1); steps: the body; outputs: the value each output
    position must hold at the end. Value ids are unique: each is written exactly once."""

    inputs: tuple[int, ...]
    steps: tuple[Step, ...]
    outputs: tuple[int, ...]

    @property
    def n_values(self) -> int:
        return len(self.inputs) + len(self.steps)


@dataclass(frozen=True)
class Placed:
    """A value program with an address for every value: what :func:`render` turns into IR text."""

    program: ValueProgram
    address: tuple[int, ...]
    """address[v]: the cell value ``v`` lives in, for every value id."""


def from_text(text: str, dialect: Dialect) -> tuple[ValueProgram, Placed]:
    """The value form of ``text`` and its current placement (raises InvalidProgram like the scorer's parser).

    The text must already pass the scorer's static rules (every read of a written address), which a judged program
    does."""
    program = parse(text, dialect)
    current: dict[int, int] = {}
    address: list[int] = []
    inputs = []
    for a in program.inputs.tolist():
        current[int(a)] = len(address)
        inputs.append(len(address))
        address.append(int(a))
    steps = []
    ops = program.op.tolist()
    dests = program.dest.tolist()
    srcs = program.src.tolist()
    counts = program.n_src.tolist()
    imms = program.imm.tolist()
    for op, dest, src, n, imm in zip(ops, dests, srcs, counts, imms, strict=True):
        reads = tuple(current[int(a)] for a in src[:n])
        out = len(address)
        address.append(int(dest))
        current[int(dest)] = out
        steps.append(Step(op=Op(op), out=out, reads=reads, imm=int(imm)))
    outputs = tuple(current[int(a)] for a in program.outputs.tolist())
    values = ValueProgram(inputs=tuple(inputs), steps=tuple(steps), outputs=outputs)
    return values, Placed(program=values, address=tuple(address))


def render(placed: Placed) -> str:
    """IR text of a placed program: the input line, one canonical instruction per line, the output line."""
    at = placed.address
    lines = [",".join(str(at[v]) for v in placed.program.inputs)]
    for step in placed.program.steps:
        operands = [str(at[step.out]), *(str(at[v]) for v in step.reads)]
        if step.op is Op.SET:
            operands.append(str(step.imm))
        elif step.op is Op.CMP:
            operands.append(PREDICATE_NAMES[step.imm])
        lines.append(f"{step.op.name.lower()} {','.join(operands)}")
    lines.append(",".join(str(at[v]) for v in placed.program.outputs))
    return "\n".join(lines) + "\n"


def read_counts(program: ValueProgram) -> list[int]:
    """How often each value is read (operand reads and output reads), by value id."""
    counts = [0] * program.n_values
    for step in program.steps:
        for v in step.reads:
            counts[v] += 1
    for v in program.outputs:
        counts[v] += 1
    return counts


def lifetimes(program: ValueProgram) -> tuple[list[int], list[int]]:
    """(written, last read) time of each value (see the module's times); a value never read has last = written."""
    n = program.n_values
    born = [0] * n
    last = [0] * n
    for t, step in enumerate(program.steps, start=1):
        born[step.out] = t
        last[step.out] = t
    for t, step in enumerate(program.steps, start=1):
        for v in step.reads:
            last[v] = t
    end = len(program.steps) + 1
    for v in program.outputs:
        last[v] = end
    return born, last


def renumber(program: ValueProgram, steps: list[Step]) -> ValueProgram:
    """``program`` with a new body (same inputs and outputs), values renumbered densely in write order."""
    new_id: dict[int, int] = {v: i for i, v in enumerate(program.inputs)}
    out_steps = []
    for step in steps:
        reads = tuple(new_id[v] for v in step.reads)
        new_id[step.out] = len(new_id)
        out_steps.append(Step(op=step.op, out=new_id[step.out], reads=reads, imm=step.imm))
    return ValueProgram(
        inputs=tuple(range(len(program.inputs))),
        steps=tuple(out_steps),
        outputs=tuple(new_id[v] for v in program.outputs),
    )
