"""The baseline of a judged ``solve()``: the best built-in solver on the same hidden instances, run by the system.

The judge records each hidden instance's seed once it was used (``hidden_instances``); the built-in solvers then
run, traced, on exactly those instances from their training rows (:mod:`engine.methods.on_instances`, which states
the rule: solvers only, no membership queries, each must reach the pass accuracy on every instance, the lowest mean
of the board's primary metric wins). The winner is stored as **the system's run** (member ``(system)``, role
``baseline``) under a request keyed by the instances and the metric it was ranked by, so a later comparison of the
same submission finds it again and nothing runs twice. Its ``seed_metrics`` hold the per-instance values, which
the verdict compares with the submission's own per-instance values (docs/verdicts.md#baselines).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable

from bot.core.baselines import SOLVE_BASELINE, SOLVE_METRICS, solve_baseline_request
from bot.core.epochs import seed_hex
from bot.core.recording import record_once
from bot.core.services import Services
from engine.progress import Progress, no_progress
from engine.result import Provenance, RunResult
from storage.tables import SYSTEM_MEMBER
from tools.run_request import NormalisedRequest

SCOPE = "whole run, traced, mean over the submission's hidden instances"
SeedOf = Callable[[str, tuple[int, int, int, int]], str]
"""A recorded hidden instance (name or hex seed) and its shape -> its hex seed."""


def ensure_solve_baseline(
    services: Services, result: RunResult, primary: str | None, progress: Progress = no_progress
) -> int | None:
    """Store (or find) the baseline of the judged ``result``; its run id, None when it has no recorded instances.
    Only a passing result gets one: a failing solve() is compared with nothing."""
    request = solve_baseline_request(result.params, primary)
    if request is None or not result.ok:
        return None

    def compute() -> RunResult:
        progress("running the built-in solvers on the same hidden instances (the baseline)", None)
        return best_solver_result(request, lambda name, shape: seed_hex(services, name, shape))

    return record_once(services, request, compute, member=SYSTEM_MEMBER).stored.id


def best_solver_result(request: NormalisedRequest, seed_of: SeedOf = lambda name, shape: name) -> RunResult:
    """The stored form of the rule's outcome for ``request`` (a failed result when no solver solves them).
    ``seed_of``: the hex seed of a recorded hidden instance (an epoch's instance is recorded by name,
    :func:`bot.core.epochs.seed_hex`); by default the recorded value is the seed."""
    from engine.methods import METHODS, best_solver
    from engine.sandbox import HIDDEN_INSTANCES, instance_data

    p = request.params
    n, k = int(p.get("n_bits", 20)), int(p.get("k_sparse", 3))
    shape = (n, k, int(p.get("n_train", 200)), int(p.get("n_test", 1000)))
    instances = [instance_data(seed_of(name, shape), *shape) for name in p[HIDDEN_INSTANCES]]
    metric = str(p["ranked_by"])
    outcome = best_solver(METHODS, instances, n, k, metric)
    solving = [t.method for t in outcome.tried if t.solves and len(t.metrics) == len(instances)]
    refused = [t.method for t in outcome.tried if t.refused]
    note = f"ranked by {metric} among the solvers that solve every instance; " + (
        f"{', '.join(refused)} not taken: they need oracle (membership) queries, which this board does not give"
        if refused
        else "every solver taken"
    )
    provenance = Provenance(judged_by="method", sandbox="registered methods (engine code; no submitted code runs)")
    best = outcome.best
    if best is None:
        return RunResult(
            challenge="sparse_parity",
            subject=SOLVE_BASELINE,
            kind="method",
            ok=False,
            params=dict(p),
            failure="no built-in solver solves these hidden instances",
            note=note,
            provenance=provenance,
        )
    keys = [key for key in SOLVE_METRICS if all(key in m for m in best.metrics)]
    return RunResult(
        challenge="sparse_parity",
        subject=best.method,
        kind="method",
        ok=True,
        params=dict(p),
        accuracy=statistics.fmean(best.accuracies),
        metrics={key: best.mean(key) for key in keys},
        metric_scopes={key: SCOPE for key in keys},
        seed_metrics={key: [m[key] for m in best.metrics] for key in keys},
        counts={"instances": len(instances), "solvers_solving": len(solving)},
        method_kind="solver",
        note=note,
        provenance=provenance,
    )
