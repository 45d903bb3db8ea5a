"""The built-in search for IR boards: operators that rewrite the loop's best program, tried in turn (docs/explore.md).

No model and no key: each operator is a deterministic rewrite of :mod:`engine.explore.rewrites` (or a fresh
placement by :mod:`engine.explore.allocate`) that keeps the program's function. An operator only *proposes*: the
loop judges every candidate with the board's own scorer and keeps it only when it passes and costs less. After a
kept candidate the operators start again from the new best; when every operator has been tried on the current best
without a gain, the search has converged (:attr:`IRSearch.exhausted`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.explore.allocate import allocate
from engine.explore.rewrites import (
    drop_dead,
    drop_dead_placed,
    forward_copies,
    move_to_cheaper_cells,
    sink,
    swap_cells,
)
from engine.explore.values import Placed, ValueProgram, from_text, read_counts, render
from engine.ir.instruction_set import Dialect, Op


@dataclass(frozen=True)
class Operator:
    """A named rewrite with the hypothesis it tests, in one line (what the journal and the card quote)."""

    name: str
    hypothesis: str
    rewrite: Callable[[ValueProgram, Placed], Placed]


def _single_use_copies(program: ValueProgram) -> frozenset[int]:
    """Indices of the copies whose value is read more than once (those are kept: they stage a hot value)."""
    reads = read_counts(program)
    return frozenset(i for i, s in enumerate(program.steps) if s.op is Op.COPY and reads[s.out] > 1)


OPERATORS: tuple[Operator, ...] = (
    Operator(
        "cheaper-cells",
        "moving each value to the cheapest cell free for its whole life lowers the cost",
        lambda values, placed: move_to_cheaper_cells(placed),
    ),
    Operator(
        "swap-cells",
        "swapping a much-read value in a dear cell with the less-read value blocking a cheaper one lowers the cost",
        lambda values, placed: move_to_cheaper_cells(swap_cells(placed)),
    ),
    Operator(
        "drop-dead",
        "instructions that no output depends on can go",
        lambda values, placed: drop_dead_placed(placed),
    ),
    Operator(
        "re-place",
        "placing every value afresh, most-read first in the cheapest free cell (weighted lifetimes), lowers the cost",
        lambda values, placed: move_to_cheaper_cells(allocate(drop_dead(values))),
    ),
    Operator(
        "forward-copies",
        "reading values copied for one use at their source, then re-placing, lowers the cost",
        lambda values, placed: move_to_cheaper_cells(
            allocate(forward_copies(drop_dead(values), keep=_single_use_copies(drop_dead(values))))
        ),
    ),
    Operator(
        "sink",
        "moving each instruction to just before its first reader shortens lives; then re-placing lowers the cost",
        lambda values, placed: move_to_cheaper_cells(allocate(sink(drop_dead(values)))),
    ),
)
"""The operators in the order they are tried on each new best: cheap local moves first, whole re-placements last."""


@dataclass(frozen=True)
class Proposal:
    """One candidate: the operator that made it, its hypothesis, and the program text."""

    operator: str
    hypothesis: str
    text: str


class IRSearch:
    """Propose candidates from the current best of an IR program; :meth:`accept` moves the best."""

    def __init__(self, text: str, dialect: Dialect, operators: tuple[Operator, ...] = OPERATORS) -> None:
        self._dialect = dialect
        self._operators = operators
        self._accept(text)

    def _accept(self, text: str) -> None:
        self._values, self._placed = from_text(text, self._dialect)
        self._best_text = render(self._placed)
        self._next = 0

    @property
    def exhausted(self) -> bool:
        """Every operator has been tried on the current best."""
        return self._next >= len(self._operators)

    def propose(self) -> Proposal | None:
        """The next operator's candidate; None when exhausted. An operator whose rewrite changes nothing is passed
        over (nothing to judge)."""
        while not self.exhausted:
            operator = self._operators[self._next]
            self._next += 1
            text = render(operator.rewrite(self._values, self._placed))
            if text != self._best_text:
                return Proposal(operator=operator.name, hypothesis=operator.hypothesis, text=text)
        return None

    def accept(self, text: str) -> None:
        """``text`` (a judged, cheaper candidate) is the new best: start the operators again from it."""
        self._accept(text)
