"""Rewrites that keep an IR program's function and may lower its Dally cost (docs/explore.md#operators).

Two kinds: value-form rewrites (:class:`ValueProgram` → :class:`ValueProgram`) change which instructions run and
in what order, and need addresses chosen afresh (:func:`engine.explore.allocate.allocate`); placement rewrites
(:class:`Placed` → :class:`Placed`) keep the instructions and move values between cells. None of them is trusted:
a candidate counts only after the board's own scorer passed it (:mod:`engine.explore.judge`).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from math import isqrt

from engine.explore.allocate import Cell, occupied_slots
from engine.explore.values import Placed, Step, ValueProgram, read_counts, renumber
from engine.ir.instruction_set import Op


def _price(address: int) -> int:
    return isqrt(address - 1) + 1


def _live_steps(program: ValueProgram) -> list[Step]:
    """The steps some output depends on, in order (backward liveness from the outputs)."""
    live = set(program.outputs)
    kept: list[Step] = []
    for step in reversed(program.steps):
        if step.out in live:
            kept.append(step)
            live.update(step.reads)
    kept.reverse()
    return kept


def drop_dead(program: ValueProgram) -> ValueProgram:
    """Remove every instruction whose value no output depends on."""
    return renumber(program, _live_steps(program))


def drop_dead_placed(placed: Placed) -> Placed:
    """:func:`drop_dead` keeping every remaining value in its cell (removing writes nobody reads frees cells only)."""
    program = placed.program
    kept = _live_steps(program)
    address = [placed.address[v] for v in program.inputs] + [placed.address[s.out] for s in kept]
    return Placed(program=renumber(program, kept), address=tuple(address))


def forward_copies(program: ValueProgram, *, keep: frozenset[int] = frozenset()) -> ValueProgram:
    """Read each copied value where it came from and drop the copy (``copy d,s``: readers of d read s).

    keep: indices (in ``program.steps``) of copies to leave alone. A copy that is itself an output stays: the output
    line needs the value in a cell of its own only if another output holds the same value, which is allowed, so it
    is forwarded too."""
    source: dict[int, int] = {}
    kept: list[Step] = []
    for i, step in enumerate(program.steps):
        reads = tuple(source.get(v, v) for v in step.reads)
        if step.op is Op.COPY and i not in keep:
            source[step.out] = reads[0]
            continue
        kept.append(Step(op=step.op, out=step.out, reads=reads, imm=step.imm))
    forwarded = ValueProgram(
        inputs=program.inputs, steps=tuple(kept), outputs=tuple(source.get(v, v) for v in program.outputs)
    )
    return renumber(forwarded, kept)


def sink(program: ValueProgram) -> ValueProgram:
    """Move every instruction down to just before its first reader (as late as possible), shortening the lives of
    the values it writes. Only true dependences are kept — addresses are chosen afresh afterwards.

    Each instruction gets a sort key: its first reader's key with one more step back; an instruction no other reads
    (it feeds the outputs) keeps its place. Sorting by the keys keeps every reader after its writers."""
    n = len(program.steps)
    writer = {step.out: i for i, step in enumerate(program.steps)}
    readers: list[list[int]] = [[] for _ in range(n)]
    for j, step in enumerate(program.steps):
        for v in step.reads:
            i = writer.get(v)
            if i is not None:
                readers[i].append(j)
    key: list[tuple[int, int, int]] = [(0, 0, 0)] * n
    for i in range(n - 1, -1, -1):
        if not readers[i]:
            key[i] = (i, 0, i)
            continue
        base = min(key[j] for j in readers[i])
        key[i] = (base[0], base[1] - 1, i)
    order = sorted(range(n), key=lambda i: key[i])
    return renumber(program, [program.steps[i] for i in order])


def _cells(placed: Placed, start: list[int], end: list[int], skip: int | None = None) -> dict[int, Cell]:
    cells: dict[int, Cell] = {}
    for v, a in enumerate(placed.address):
        if v != skip:
            cells.setdefault(a, Cell()).take(start[v], end[v])
    return cells


def move_to_cheaper_cells(placed: Placed) -> Placed:
    """Keep the instructions; move each value (most reads first) to the cheapest cell free for its whole life, when
    that cell is cheaper than its own. One pass; every move lowers the cost by reads × (old price − new price)."""
    program = placed.program
    reads = read_counts(program)
    start, end = occupied_slots(program)
    address = list(placed.address)
    cells = _cells(placed, start, end)
    top = max(address, default=0)
    for v in sorted(range(program.n_values), key=lambda v: (-reads[v], v)):
        if not reads[v]:
            continue
        own = _price(address[v])
        for a in range(1, top + 1):
            if _price(a) >= own:
                break
            cell = cells.get(a)
            if cell is None or cell.free(start[v], end[v]):
                cells[address[v]].release(start[v])
                cells.setdefault(a, Cell()).take(start[v], end[v])
                address[v] = a
                break
    return Placed(program=program, address=tuple(address))


class _Lives(Cell):
    """One cell's slots and the value living in each. The slots are disjoint (as :class:`Cell` keeps them), so in
    start order their ends are in order too, and the slots overlapping a query are one run of them, found by two
    binary searches instead of a scan of every value the cell ever holds."""

    __slots__ = ("values",)

    def __init__(self) -> None:
        super().__init__()
        self.values: list[int] = []

    def put(self, value: int, start: int, end: int) -> None:
        i = bisect_right(self.starts, start)
        self.starts.insert(i, start)
        self.ends.insert(i, end)
        self.values.insert(i, value)

    def remove(self, start: int) -> None:
        i = bisect_left(self.starts, start)
        del self.starts[i], self.ends[i], self.values[i]

    def overlapping(self, start: int, end: int, skip: int) -> list[int]:
        """The values other than ``skip`` whose slots overlap [start, end)."""
        return [w for w in self.values[bisect_right(self.ends, start) : bisect_left(self.starts, end)] if w != skip]


def swap_cells(placed: Placed) -> Placed:
    """Keep the instructions; exchange a more-read value in a dearer cell with the one value blocking it in a
    cheaper cell, when each fits the other's cell. One pass, most-read values first; each swap lowers the cost by
    (reads_v − reads_w) × (price of v's cell − price of the cheaper cell)."""
    program = placed.program
    reads = read_counts(program)
    start, end = occupied_slots(program)
    address = list(placed.address)
    residents: dict[int, _Lives] = {}
    for v, a in enumerate(address):
        residents.setdefault(a, _Lives()).put(v, start[v], end[v])
    cheapest = sorted(residents)

    for v in sorted(range(program.n_values), key=lambda v: (-reads[v], v)):
        own = _price(address[v])
        for a in cheapest:
            if _price(a) >= own:
                break
            blockers = residents[a].overlapping(start[v], end[v], v)
            if len(blockers) != 1:
                continue
            w = blockers[0]
            if reads[w] >= reads[v] or residents[address[v]].overlapping(start[w], end[w], v):
                continue
            old = address[v]
            residents[old].remove(start[v])
            residents[a].remove(start[w])
            residents[old].put(w, start[w], end[w])
            residents[a].put(v, start[v], end[v])
            address[v], address[w] = a, old
            break
    return Placed(program=program, address=tuple(address))
