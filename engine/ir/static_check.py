"""Rules an IR program must meet before it runs, checked with array operations (docs/metrics.md#dally-ir-cost).

Inputs: as many distinct addresses as the challenge has inputs; outputs: as many as it has outputs. Every address
is ≥ 1 (and, in the 8-bit dialect, has at most 64 bits). No instruction reads an address before an input or an
earlier instruction wrote it (straight-line code, so this static check equals the reference scorers' run-time
check), and every output address is written. When several rules are broken, the error names the earliest line.

The check also lays memory out for the simulator: every address gets a dense slot.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.ir.errors import InvalidProgram, quote
from engine.ir.instruction_set import Dialect
from engine.ir.program import Program

_DIRECT_LIMIT = 1 << 20
"""Without ``dense``, addresses below this are their own slot (no sort)."""


@dataclass(frozen=True)
class Slots:
    """Dense memory slots for the simulator: slot of every input, destination, read and output, and how many."""

    inputs: np.ndarray
    dest: np.ndarray
    src: np.ndarray
    outputs: np.ndarray
    n_slots: int


@dataclass(frozen=True)
class Expect:
    """What the challenge expects of the input and output lines; ``*_what`` describe them in errors."""

    n_inputs: int
    n_outputs: int
    inputs_what: str = ""
    outputs_what: str = ""


def check(program: Program, dialect: Dialect, expect: Expect) -> Slots:
    """Raise :class:`InvalidProgram` for the earliest broken rule; else return the memory layout."""
    problems: list[tuple[int, str, str]] = []
    _check_counts(program, expect, problems)
    _check_ranges(program, dialect, problems)
    slots, first_write = _layout(program, dense=dialect.wrap8)
    read_rows, read_addr = program.reads()
    read_slots = slots.src.ravel()[program.read_positions]
    late = np.flatnonzero(first_write[read_slots] > read_rows)
    if late.size:
        k = int(late[0])
        i = int(read_rows[k])
        problems.append(
            (
                int(program.line[i]),
                f"{quote(program.text[i])} reads address {read_addr[k]} before it is written",
                "write an address (as an input or a destination) before reading it",
            )
        )
    never = np.flatnonzero(first_write[slots.outputs] > program.n_instructions)
    if never.size:
        problems.append(
            (
                program.output_line,
                f"output address {program.outputs[int(never[0])]} is never written",
                "every output address must be an input or the destination of an instruction",
            )
        )
    if problems:
        _raise_earliest(problems)
    return slots


def _raise_earliest(problems: list[tuple[int, str, str]]) -> None:
    line, message, hint = min(problems, key=lambda p: p[0])
    raise InvalidProgram(message, line=line, hint=hint)


def _check_counts(program: Program, expect: Expect, problems: list[tuple[int, str, str]]) -> None:
    n_in, n_out = program.inputs.size, program.outputs.size
    if n_in != expect.n_inputs:
        problems.append(
            (
                program.input_line,
                f"the input line lists {n_in} addresses; this challenge has {expect.n_inputs} inputs",
                expect.inputs_what,
            )
        )
    if n_out != expect.n_outputs:
        problems.append(
            (
                program.output_line,
                f"the output line lists {n_out} addresses; this challenge has {expect.n_outputs} outputs",
                expect.outputs_what,
            )
        )
    if n_in:
        uniq, counts = np.unique(program.inputs, return_counts=True)
        if (counts > 1).any():
            problems.append(
                (
                    program.input_line,
                    f"input address {uniq[counts > 1][0]} is listed twice",
                    "input addresses must be distinct",
                )
            )


def _check_ranges(program: Program, dialect: Dialect, problems: list[tuple[int, str, str]]) -> None:
    """Addresses ≥ 1 everywhere; at most ``dialect.max_address_bits`` bits for inputs, outputs, destinations."""
    limit = None if dialect.max_address_bits is None else 2**dialect.max_address_bits
    hint = "addresses are positive integers" + (f" below 2**{dialect.max_address_bits}" if limit else "")
    for addrs, line in ((program.inputs, program.input_line), (program.outputs, program.output_line)):
        bad = _out_of_range(addrs, limit)
        if bad.size:
            problems.append((line, f"address {addrs[int(bad[0])]} is out of range", hint))
    used = np.arange(3)[None, :] < program.n_src[:, None]
    low = (program.dest < 1) | ((program.src < 1) & used).any(axis=1)
    if limit is not None and program.dest.dtype == object:
        low |= program.dest >= limit
    rows = np.flatnonzero(low)
    if rows.size:
        i = int(rows[0])
        problems.append((int(program.line[i]), f"{quote(program.text[i])} uses an address out of range", hint))


def _out_of_range(addrs: np.ndarray, limit: int | None) -> np.ndarray:
    bad = addrs < 1
    if limit is not None and addrs.dtype == object:
        bad |= addrs >= limit
    return np.flatnonzero(bad)


def _numbered(parts: tuple[np.ndarray, ...], *, exact: bool) -> tuple[int, tuple[np.ndarray, ...]]:
    """The distinct addresses of ``parts`` numbered 0, 1, … in increasing order, and each part in those numbers
    (what ``np.unique(..., return_inverse=True)`` gives over all of them).

    Addresses are usually small (the group's 1.77-million-instruction mask32 programs use 0 … 2,920), so where the
    largest is below twice the number of references, a presence table and its running count number them in one
    pass instead of sorting every reference: 7.1 million references, 1.56 s -> 0.015 s. The table is then no
    larger than the references themselves, so the memory a scoring may use does not grow."""
    sizes = [p.size for p in parts]
    total = sum(sizes)
    if not exact and total:
        lo = min(int(p.min()) for p in parts if p.size)
        hi = max(int(p.max()) for p in parts if p.size)
        if lo >= 0 and hi < max(_TABLE_FLOOR, 2 * total):
            present = np.zeros(hi + 1, dtype=bool)
            for p in parts:
                present[p] = True
            number = np.cumsum(present, dtype=np.int64 if hi >= 1 << 31 else np.int32) - 1
            return int(number[-1]) + 1, tuple(number[p].astype(np.int64) for p in parts)
    universe = np.concatenate([np.asarray(p, dtype=object if exact else np.int64) for p in parts])
    uniq, inverse = np.unique(universe, return_inverse=True)
    cuts = np.cumsum(sizes)[:-1]
    return int(uniq.size), tuple(np.split(inverse.astype(np.int64), cuts))


_TABLE_FLOOR = 1 << 16
"""Addresses below this are always numbered with a table (64 KiB), however few references there are."""


def _layout(program: Program, *, dense: bool) -> tuple[Slots, np.ndarray]:
    """Slots for every address and, per slot, the time of its first write (inputs 0, instruction i at i+1).

    ``dense``: number the distinct addresses 0, 1, … (the int8 simulator keeps one row view per slot, so unused
    slots cost); otherwise addresses below 2**20 are their own slot, which spares the v0 simulator (a Python list
    of values) a sort of every address reference."""
    n = program.n_instructions
    parts = (program.inputs, program.dest, program.src.ravel(), program.outputs)
    exact = any(p.dtype == object for p in parts)  # an address beyond int64 (v0 only)
    if (
        not dense
        and not exact
        and min((int(p.min()) for p in parts if p.size), default=0) >= 0
        and max((int(p.max()) for p in parts if p.size), default=0) < _DIRECT_LIMIT
    ):
        n_slots = max((int(p.max()) for p in parts if p.size), default=0) + 1
        mapped: tuple[np.ndarray, ...] = tuple(p.astype(np.int64, copy=False) for p in parts)
    else:
        n_slots, mapped = _numbered(parts, exact=exact)
    slots = Slots(
        inputs=mapped[0],
        dest=mapped[1],
        src=mapped[2].reshape(n, 3),
        outputs=mapped[3],
        n_slots=n_slots,
    )
    first_write = np.full(n_slots, n + 1, dtype=np.int64)
    np.minimum.at(first_write, slots.dest, np.arange(1, n + 1, dtype=np.int64))
    first_write[slots.inputs] = 0
    return slots, first_write
