"""A traced run stopped over a dmc@1 budget (engine/methods/cost_budget.py), and the ranking that uses it.

Oracles: the final log's own dmc@1 (clock_metrics, the metric every ranking uses) and a run to the end of the same
method on the same rows. The ranking that stops runs is checked against one that runs every solver to the end in
tests/bot/test_solve_baseline.py.
"""

from __future__ import annotations

import pytest

from engine.methods import METHODS
from engine.methods import on_instances as oi
from engine.methods.cost_budget import BudgetedLog, OverBudget
from engine.methods.runner import resolve, run_traced
from engine.metrics.clock import DMC, clock_metrics
from engine.sandbox.judge import instance_data
from engine.tracing import EventLog

SEED = f"{7:032x}"


def _traced(name: str, log: EventLog) -> float:
    """dmc@1 of ``name`` traced on the instance of SEED to the end on ``log``."""
    task, values = resolve(METHODS, name, {"n": 20, "k": 3, "seed": 0})
    data = instance_data(SEED, 20, 3, 200, 1000)
    _, log, _, _, _ = run_traced(METHODS.get(name), values, task, log, data=data, queries=False)
    return clock_metrics(*log.arrays())[DMC]


@pytest.mark.parametrize("name", ["random_proj", "evolutionary"])
def test_every_prefix_costs_no_more_than_the_whole_run_and_checks_change_nothing(name: str) -> None:
    whole = _traced(name, EventLog())
    checked = BudgetedLog(whole, first_check=64)  # many checks, none may stop it: no prefix exceeds the whole
    assert _traced(name, checked) == whole  # and the checks recorded no events of their own
    assert 0 < checked.dmc_so_far() == whole


@pytest.mark.parametrize("name", ["random_proj", "evolutionary"])
def test_a_run_over_its_budget_stops_and_says_what_it_had_spent(name: str) -> None:
    whole = _traced(name, EventLog())
    with pytest.raises(OverBudget) as stopped:
        _traced(name, BudgetedLog(whole / 4, first_check=64))
    assert whole / 4 < stopped.value.spent <= whole  # stopped past the budget, never past the whole run's cost


@pytest.mark.slow
def test_a_stopped_run_is_remembered_only_for_budgets_it_passed() -> None:
    method = METHODS.get("evolutionary")
    task, values = resolve(METHODS, "evolutionary", {"n": 20, "k": 3, "seed": 0})
    data = instance_data(SEED, 20, 3, 200, 1000)
    oi._TRACED.clear()
    whole = oi._traced_on(method, values, task, data, None).metrics[0][DMC]
    oi._TRACED.clear()
    low = oi._traced_on(method, values, task, data, whole / 4)
    assert low.stopped_over == whole / 4 and not low.metrics and not low.solves
    assert oi._traced_on(method, values, task, data, whole / 8) is low  # a smaller budget: passed as well
    again = oi._traced_on(method, values, task, data, whole * 2)  # a larger one: it runs, to the end this time
    assert again.stopped_over is None and again.metrics[0][DMC] == whole
    assert oi._traced_on(method, values, task, data, whole / 4) is again  # the finished run is what is kept
