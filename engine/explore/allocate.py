"""Choose an address for every value: the most-read values in the cheapest cells, lifetimes respected.

The read cost of cell ``a`` is ⌈√a⌉ (docs/metrics.md#dally-ir-cost), so a value read ``r`` times at ``a`` costs
``r·⌈√a⌉``. Values are placed one at a time, most reads first, each at the lowest address that is free for its
whole lifetime — the "weighted lifetime" greedy the group used on the 16×16 matmul record (sutro-problems
``matmul/doc/metaskills/``). Two values may share a cell when one's last read is at or before the other's write
(an instruction reads its operands before it writes), never when both are inputs (all written at time 0).

A value occupies the half-open time slots ``[written, max(last read, written + 1))``: a value never read still
takes its write's slot, so it cannot land in a cell that holds a live value at that moment.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence

from engine.explore.values import Placed, ValueProgram, lifetimes, read_counts


class Cell:
    """The occupied slots of one address: disjoint half-open intervals kept sorted by start."""

    __slots__ = ("ends", "starts")

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def free(self, start: int, end: int) -> bool:
        i = bisect_right(self.starts, start) - 1
        if i >= 0 and self.ends[i] > start:
            return False
        return i + 1 >= len(self.starts) or self.starts[i + 1] >= end

    def take(self, start: int, end: int) -> None:
        i = bisect_right(self.starts, start)
        self.starts.insert(i, start)
        self.ends.insert(i, end)

    def release(self, start: int) -> None:
        """Free the slots taken from ``start`` (a cell holds one value per start: its intervals are disjoint)."""
        i = self.starts.index(start)
        del self.starts[i]
        del self.ends[i]


def occupied_slots(program: ValueProgram) -> tuple[list[int], list[int]]:
    """(first, end) of the half-open slots each value occupies its cell for (see the module docstring)."""
    born, last = lifetimes(program)
    return born, [max(last[v], born[v] + 1) for v in range(program.n_values)]


def allocate(program: ValueProgram, *, order: Sequence[int] | None = None) -> Placed:
    """Place every value of ``program`` (greedy, most reads first; ``order`` overrides the placing order)."""
    born, last = lifetimes(program)
    reads = read_counts(program)
    n = program.n_values
    if order is None:
        order = sorted(range(n), key=lambda v: (-reads[v], last[v] - born[v], v))
    first, ends = occupied_slots(program)
    cells: list[Cell] = []
    address = [0] * n
    for v in order:
        start, end = first[v], ends[v]
        for a, cell in enumerate(cells):
            if cell.free(start, end):
                cell.take(start, end)
                address[v] = a + 1
                break
        else:
            cell = Cell()
            cell.take(start, end)
            cells.append(cell)
            address[v] = len(cells)
    return Placed(program=program, address=tuple(address))


def shuffled_order(program: ValueProgram, rng: random.Random, *, jitter: float) -> list[int]:
    """A placing order with noise: reads scaled by a random factor in [1 − jitter, 1 + jitter] before sorting, so a
    search can try neighbouring placements of the greedy's."""
    born, last = lifetimes(program)
    reads = read_counts(program)
    keyed = [(-(reads[v] * (1 + rng.uniform(-jitter, jitter))), last[v] - born[v], v) for v in range(program.n_values)]
    return [v for *_, v in sorted(keyed)]


def placed_cost(placed: Placed) -> int:
    """Σ ⌈√address⌉ over every operand read and output read — the scorer's dally@1 of the rendered text."""
    from math import isqrt

    at = placed.address
    price = [isqrt(a - 1) + 1 for a in at]
    total = sum(price[v] for step in placed.program.steps for v in step.reads)
    return total + sum(price[v] for v in placed.program.outputs)
