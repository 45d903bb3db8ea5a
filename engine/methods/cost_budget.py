"""A traced run that stops once its ``dmc@1`` so far has passed a budget: it could no longer win a ranking.

``dmc@1`` is Σ s·√d over the run's counted reads (engine/metrics/clock.py), and each read's term is fixed when the
read happens: its distance ``d`` counts only earlier events, and a later event adds terms but never changes one.
So the ``dmc@1`` of the events recorded so far never exceeds the whole run's (the sum is exact, ``math.fsum``, so
rounding cannot reverse that). A solver whose prefix already costs more than the best complete result it is ranked
against would cost more at the end as well: :func:`engine.methods.on_instances.best_solver` stops it there instead
of tracing it to the end. The gaps are wide: on one hidden instance at n=20 (seed 7), gf2 costs 6.3e5 in ``dmc@1``,
rl 2.2e7, random_proj 8.3e8, genetic_prog 4.1e9 and evolutionary 5.9e9.

The check runs when a new buffer is made, each time the log has doubled since the last check (the first at
:data:`FIRST_CHECK_EVENTS`), so all the checks of a run that finishes cost less than evaluating its final log once
more. Only ``dmc@1`` has this property here: ``ard@1`` and ``ard_per_read@1`` are means, which a prefix does not
bound.
"""

from __future__ import annotations

from engine.metrics.clock import DMC, clock_metrics
from engine.tracing import EventLog
from engine.tracing.tracked_array import paused

FIRST_CHECK_EVENTS = 1 << 14
"""Events recorded before the first check (a run shorter than this is never stopped: it is cheap anyway)."""

BOUNDED_METRICS = frozenset({DMC})
"""Metrics whose value over a prefix of a run's events bounds the whole run's from below."""


class OverBudget(Exception):  # noqa: N818 - names the outcome, like StopIteration
    """Raised inside a traced run once its ``dmc@1`` so far exceeds the budget; ``spent`` is that value."""

    def __init__(self, spent: float, budget: float) -> None:
        super().__init__(f"dmc@1 reached {spent:.6g} before the end, over the budget of {budget:.6g}")
        self.spent = spent
        self.budget = budget


class BudgetedLog(EventLog):
    """An :class:`EventLog` whose run is stopped (:class:`OverBudget`) once its ``dmc@1`` so far is over ``budget``."""

    def __init__(self, budget: float, *, first_check: int = FIRST_CHECK_EVENTS) -> None:
        super().__init__()
        self.budget = budget
        self._frozen_items = 0
        self._next_check_items = 2 * first_check

    def new_buffer(self, label: str = "") -> int:
        if self._frozen_items + len(self._open) >= self._next_check_items:
            self._next_check_items = 2 * (self._frozen_items + len(self._open))
            spent = self.dmc_so_far()
            if spent > self.budget:
                raise OverBudget(spent, self.budget)
        return super().new_buffer(label)

    def _freeze(self) -> None:
        self._frozen_items += len(self._open)
        super()._freeze()

    def dmc_so_far(self) -> float:
        """``dmc@1`` of the events recorded so far (a lower bound of the whole run's). Computed with tracing paused,
        so the check records nothing of its own."""
        with paused():
            return clock_metrics(*self.arrays())[DMC]
