"""The reference a solver method is compared with: the best other built-in solver on the run's own instances that
learns from the training rows alone.

Oracles: the ``oracle`` flag is checked against behaviour (a solver flagged as asking membership queries is refused
when queries are, every other one is not); the chosen reference is checked against each other solver's traced mean
on the same instances (an invariant: no contender that solves them is cheaper).
"""

from __future__ import annotations

import statistics

import pytest

from engine.methods import METHODS, best_reference_solver
from engine.methods.on_instances import seeded_instances, solver_on_instances

SEEDS = (42, 123, 456)
pytestmark = pytest.mark.slow  # every solver traced: seconds


def test_the_oracle_flag_says_which_solvers_ask_membership_queries() -> None:
    instances = seeded_instances(20, 3, SEEDS[:1])
    for method in METHODS:
        if method.kind != "solver":
            continue
        run = solver_on_instances(METHODS, method.name, instances, 20, 3)
        refused = "membership queries" in run.refused
        assert refused == method.oracle, method.name
    assert {m.name for m in METHODS if m.oracle} == {"km", "km_min"}  # the two bit-flip influence solvers


def test_the_reference_is_the_cheapest_other_solver_that_solves_the_instances() -> None:
    chosen = best_reference_solver(20, 3, SEEDS, "dmc@1", exclude=("gf2",))
    assert chosen is not None and chosen != "gf2" and not METHODS.get(chosen).oracle
    instances = seeded_instances(20, 3, SEEDS)
    best = solver_on_instances(METHODS, chosen, instances, 20, 3)
    assert best.solves
    mean = statistics.fmean(m["dmc@1"] for m in best.metrics)
    for method in METHODS:
        if method.kind != "solver" or method.oracle or method.name in ("gf2", chosen, "genetic_prog"):
            continue  # genetic_prog: ~1.2 s an instance, and far costlier than the others on the first one
        other = solver_on_instances(METHODS, method.name, instances, 20, 3)
        if other.solves:
            assert statistics.fmean(m["dmc@1"] for m in other.metrics) >= mean, method.name


def test_a_remembered_run_is_the_traced_run_of_that_instance_and_no_other() -> None:
    """The per-process memory of (solver, instance) runs: a second ranking reuses a run only for the same rows.
    Oracle: a fresh trace of the same solver on the same instance (``run_traced``, outside the memory)."""
    from engine.methods.on_instances import _traced_on
    from engine.methods.runner import resolve, run_traced
    from engine.metrics.clock import clock_metrics
    from engine.tracing import EventLog

    first, second = seeded_instances(20, 3, (7,)), seeded_instances(20, 3, (8,))
    once = solver_on_instances(METHODS, "gf2", first, 20, 3)
    assert solver_on_instances(METHODS, "gf2", first, 20, 3).metrics[0] is once.metrics[0]  # remembered
    task, values = resolve(METHODS, "gf2", {"n": 20, "k": 3, "seed": 0})
    _, log, _, accuracy, _ = run_traced(METHODS.get("gf2"), values, task, EventLog(), data=first[0], queries=False)
    assert once.metrics[0] == clock_metrics(*log.arrays()) and once.accuracies[0] == accuracy
    other = solver_on_instances(METHODS, "gf2", second, 20, 3)
    assert other.metrics[0] is not once.metrics[0]  # other rows: traced, not taken from memory
    assert _traced_on(METHODS.get("gf2"), values, task, second[0], None) is _traced_on(
        METHODS.get("gf2"), values, task, second[0], None
    )
