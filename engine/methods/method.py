"""What a sparse-parity method is: a named function from a traced problem to an outcome.

A method receives a :class:`Problem` whose arrays are tracked (so every numpy operation it performs is recorded
without hand-placed calls) and returns an :class:`Outcome`: the secret bits it found, or a predictor for the
held-back test rows (training methods), plus what the runner needs for per-step figures.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.challenges.sparse_parity import SparseParityData
from engine.challenges.sparse_tasks import SPARSE_PARITY_TASK, SparseTask
from engine.errors import EngineError
from engine.tracing import EventLog, TrackedRandom, track


class QueriesRefused(EngineError):
    """A method asked a membership query in a run that learns from the training rows alone."""


@dataclass
class Problem:
    """One traced instance. x, y: tracked training rows (±1). rng: tracked ``RandomState(seed + 1)``.

    ``oracle(xq)`` answers membership queries (the label of each row of ``xq``): it reads the query in full and
    writes the labels, like an external device would (used by the influence methods ``km``/``km_min``). With
    ``queries=False`` it refuses (:class:`QueriesRefused`): a run that must learn from the training rows alone, as
    a judged ``solve()`` does.
    """

    x: Any
    y: Any
    n: int
    k: int
    params: Mapping[str, Any]
    rng: TrackedRandom
    log: EventLog
    secret: list[int] = field(repr=False)
    task: SparseTask = SPARSE_PARITY_TASK
    queries: bool = True

    def oracle(self, xq: Any) -> Any:
        if not self.queries:
            raise QueriesRefused("this run answers no membership queries", hint="learn from the training rows")
        plain = np.asarray(xq)
        if hasattr(xq, "_read_all"):
            xq._read_all()
        return track(self.task.labels(plain[:, self.secret], self.params), self.log, "oracle")


@dataclass
class Outcome:
    """secret: the bits found (solvers). predict: test rows -> ±1 labels (training methods).

    steps: optimisation steps taken (training). one_step: a function and its arguments that perform one
    representative training step on plain arrays, for element-level metrics (``bytedmd@2``, scope "one step").
    note: one line for the result card (e.g. stopped by a time limit).
    whole_solve: a function and its plain arguments that redo the solver's whole solve element by element on the
    values it read (pure Python, so every read is priced), for ``bytedmd@2`` with scope "whole run" (solvers that
    have one; the group's ByteDMD figures for solvers are of such pure-Python solves).
    """

    secret: list[int] | None = None
    predict: Callable[[np.ndarray], np.ndarray] | None = None
    steps: int = 0
    epochs: int = 0
    one_step: tuple[Callable[..., Any], tuple[Any, ...]] | None = None
    note: str = ""
    whole_solve: tuple[Callable[..., Any], tuple[Any, ...]] | None = None


ELEMENT_BUDGET = 300_000
"""Most element operations (estimated) of a whole solve that a solver redoes element by element for ``bytedmd@2``;
above it the run reports no bytedmd and says so (element tracing costs microseconds per operation)."""


def priced_solve(
    solve: Callable[..., Any], args: tuple[Any, ...], operations: int
) -> tuple[tuple[Callable[..., Any], tuple[Any, ...]] | None, str]:
    """``(whole_solve, note)``: the element-level solve when its estimated ``operations`` fit
    :data:`ELEMENT_BUDGET`, else None and a one-line note for the card."""
    if operations <= ELEMENT_BUDGET:
        return (solve, args), ""
    estimate = f"~{operations:,} operations (limit {ELEMENT_BUDGET:,})"
    return None, f"bytedmd@2 not priced: the element-level solve would take {estimate}"


TRAINING_MAX_N = 64
"""Largest n a training method accepts: a traced training run must stay within the run time limit."""

SOLVER_MAX_N = 256
"""Largest n a solver accepts (the parameter range's upper end)."""


@dataclass(frozen=True)
class Method:
    """A registry entry. kind: ``solver`` or ``training``. defaults: the parameters it uses, with defaults.

    max_n: the largest n it accepts (``None``: :data:`TRAINING_MAX_N` for training methods, :data:`SOLVER_MAX_N`
    for solvers). instance: builds the instance from the validated parameters when the method needs a special
    one (``None``: the task's own draw). tasks: the tasks of the family it solves
    (:mod:`engine.challenges.sparse_tasks`); other pairs are refused with the list of methods that solve the task.
    oracle: it asks membership queries (see the field).
    """

    name: str
    summary: str
    kind: str
    run: Callable[[Problem], Outcome]
    defaults: Mapping[str, int | float] = field(default_factory=dict)
    max_n: int | None = None
    instance: Callable[[Mapping[str, int | float]], SparseParityData] | None = None
    tasks: tuple[str, ...] = (SPARSE_PARITY_TASK.name,)
    oracle: bool = False
    """Whether it asks membership queries (labels of rows it makes up): such a solver learns from more than the
    training rows, so it stands on a board of its own and is never the baseline of a solver that does not."""

    @property
    def n_limit(self) -> int:
        """The largest n this method accepts."""
        if self.max_n is not None:
            return self.max_n
        return TRAINING_MAX_N if self.kind == "training" else SOLVER_MAX_N
