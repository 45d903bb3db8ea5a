"""The parsed form of an IR program: flat numpy arrays, one entry per instruction (docs/metrics.md#dally-ir-cost).

Addresses are int64 when every address fits, else object arrays of exact Python ints (only the unbounded matmul
dialect can produce those). Each instruction's reads are ``src[i, :n_src[i]]`` in read order; the two-operand short
form of a binary op is already expanded (``add d,b`` is stored as ``add d,d,b``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np


@dataclass(frozen=True)
class Program:
    """An IR program as arrays.

    inputs, outputs: addresses of the input and output lines, in order.
    op: op code per instruction (:class:`engine.ir.instruction_set.Op`), int8.
    dest: destination address per instruction.
    src: read addresses, shape (n, 3), 0 where unused.
    n_src: how many of ``src[i]`` are read (0 for ``set``, 1 unary, 2 binary/cmp, 3 select), int8.
    imm: the ``set`` literal (already wrapped by the dialect) or the ``cmp`` predicate code, else 0.
    line: 1-based line number in the submitted text of each instruction.
    text: the stripped text of each instruction (quoted in error messages).
    input_line, output_line: line numbers of the input and output lines.
    n_lines: non-blank lines in the text (the 100,000-line cap counts these).
    """

    inputs: np.ndarray
    outputs: np.ndarray
    op: np.ndarray
    dest: np.ndarray
    src: np.ndarray
    n_src: np.ndarray
    imm: np.ndarray
    line: np.ndarray
    text: Sequence[str]
    input_line: int
    output_line: int
    n_lines: int

    @property
    def n_instructions(self) -> int:
        return int(self.op.shape[0])

    def reads(self) -> tuple[np.ndarray, np.ndarray]:
        """(instruction index, address) of every operand read, in program order."""
        flat = self.read_positions
        return flat // 3, self.src.ravel()[flat]

    @cached_property
    def read_positions(self) -> np.ndarray:
        """Positions in ``src.ravel()`` of the operands actually read, in program order."""
        return np.flatnonzero((np.arange(3) < self.n_src[:, None]).ravel())


class LazyLines(Sequence[str]):
    """The instruction lines of a tidy text, split only when a message needs to quote one."""

    def __init__(self, joined: str, count: int) -> None:
        self._joined = joined
        self._count = count
        self._lines: list[str] | None = None

    def _all(self) -> list[str]:
        if self._lines is None:
            self._lines = self._joined.split("\n")
        return self._lines

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index):  # type: ignore[no-untyped-def]
        return self._all()[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())
