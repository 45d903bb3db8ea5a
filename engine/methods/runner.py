"""Run one sparse-parity method, fully traced, and return a :class:`RunResult`
(docs/challenges.md#sparse-parity-numpy-track, docs/challenges.md#run-results).

The whole run (training included) is traced once at buffer level; ``ard@1``, ``ard_per_read@1`` and ``dmc@1`` are
computed from that trace (scope "whole run"; training methods also get per-step means). For training methods the
element-level ``bytedmd@2`` is measured on one representative step — the first step's starting weights on a single
training row, as the group's tracked step does — and labelled scope "one step". Solvers that hand back an
element-level solve (:attr:`Outcome.whole_solve`: ``km_min``, ``gf2``, ``fourier``) get ``bytedmd@2`` of that whole
solve, scope "whole run", as the group prices pure-Python solvers (SutroYaro ``exp_bytedmd_floor_gap``).

Unless asked not to, the run also says where its cost went (:mod:`engine.attribution`): the per-buffer table of each
scope and ``bytedmd@2`` split by argument, in ``RunResult.buffer_attribution``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

import numpy as np

from engine.attribution import (
    ONE_STEP,
    WHOLE_RUN,
    Attribution,
    NamingEventLog,
    ScopeAttribution,
    attribute_log,
    bytedmd_by_argument,
)
from engine.attribution.naming import argument_names
from engine.challenges.sparse_parity import SparseParityData
from engine.challenges.sparse_tasks import SPARSE_PARITY_TASK, TASKS, SparseTask
from engine.errors import BadParameter
from engine.methods.method import Method, Outcome, Problem
from engine.methods.params import check_n_limit, parse_params
from engine.methods.reach import check_reach, scaled_defaults
from engine.metrics.bytedmd import BYTEDMD, bytedmd
from engine.metrics.clock import DMC, metrics_of, read_distances
from engine.metrics.element_dmd import buffer_dmd
from engine.metrics.lru_stack import DMD
from engine.progress import Progress, no_progress
from engine.registry import Registry
from engine.result import FailureKind, RunResult
from engine.tracing import EventLog, TrackedRandom, tracing, track

DEFAULT_ROWS = 100
"""Training rows handed to a method that does not declare ``m`` (the query-based ones ignore them)."""


def run_traced(
    method: Method,
    values: Mapping[str, int | float],
    task: SparseTask = SPARSE_PARITY_TASK,
    log: EventLog | None = None,
    *,
    data: SparseParityData | None = None,
    queries: bool = True,
) -> tuple[Outcome, EventLog, float, float, list[int]]:
    """Trace ``method`` on the instance of ``task`` that ``values`` describes (or on ``data``, an instance made
    elsewhere), on ``log`` (default: a new :class:`EventLog`); ``queries=False``: membership queries are refused.

    Returns the outcome, the trace, the traced wall seconds, the test accuracy and the true secret.
    """
    n, k, seed = int(values["n"]), int(values["k"]), int(values["seed"])
    rows = {"m": DEFAULT_ROWS, **values}
    if data is None:
        data = method.instance(values) if method.instance is not None else task.instance(rows)
    log = EventLog() if log is None else log
    start = time.perf_counter()
    with tracing(log):
        problem = Problem(
            x=track(data.x_train, log, "x"),
            y=track(data.y_train, log, "y"),
            n=n,
            k=k,
            params=values,
            rng=TrackedRandom(seed + 1, log),
            log=log,
            secret=data.secret,
            task=task,
            queries=queries,
        )
        outcome = method.run(problem)
    wall = time.perf_counter() - start
    outcome.secret = sorted(int(i) for i in outcome.secret) if outcome.secret is not None else None
    if outcome.secret is not None:
        accuracy = task.accuracy_of(outcome.secret, data, values)
    else:
        assert outcome.predict is not None
        accuracy = float(np.mean(outcome.predict(data.x_test) == data.y_test))
    return outcome, log, wall, accuracy, data.secret


def one_step_clock(
    step: Callable[..., object], args: tuple[object, ...], log: EventLog | None = None
) -> dict[str, float]:
    """Clock metrics of one step traced alone (:func:`place_step`)."""
    log = EventLog() if log is None else log
    place_step(step, args, log)
    return measured(log, ONE_STEP)[0]


def place_step(step: Callable[..., object], args: tuple[object, ...], log: EventLog) -> None:
    """Trace one step alone on ``log``, its arrays placed as written buffers first (as the group's
    hand-instrumented step does), so the step's own data movement is not drowned by the age of the data set.
    The placed arrays are labelled with the step's parameter names (and the names a list parameter is unpacked
    into), so a :class:`NamingEventLog` passed as ``log`` can name them."""
    names = argument_names(step, args)
    placed = [
        [track(np.array(a), log, part) for a, part in zip(arg, name, strict=True)]
        if isinstance(arg, list)
        else (track(np.array(arg), log, str(name)) if isinstance(arg, np.ndarray) else arg)
        for arg, name in zip(args, names, strict=True)
    ]
    with tracing(log):
        step(*placed)


def measured(log: EventLog, scope: str) -> tuple[dict[str, float], ScopeAttribution | None]:
    """The clock metrics and ``dmd@1`` of everything ``log`` recorded and, when ``log`` names its buffers, its
    per-buffer table for ``scope`` — the clock metrics and the table from one computation of the read distances."""
    events = log.arrays()
    distances = read_distances(*events)
    metrics = metrics_of(distances)
    table = attribute_log(log, scope, events, distances, metrics[DMC]) if isinstance(log, NamingEventLog) else None
    return {**metrics, DMD: buffer_dmd(*events)}, table


def resolve(
    methods: Registry[Method], name: str, params: Mapping[str, str | int | float]
) -> tuple[SparseTask, dict[str, int | float]]:
    """The task (``task=`` key, default sparse_parity) and the validated parameters of a run of method ``name``:
    the defaults at this instance (:func:`engine.methods.reach.scaled_defaults`) overridden by ``params``.

    Raises UnknownName (method, task or key, with "did you mean") or BadParameter (a value out of range, an instance
    its defaults are known not to solve (:func:`engine.methods.reach.check_reach`), n over the method's cap, or a
    task the method does not solve — with the methods that do).
    """
    task, values = defaults_at(methods, name, params)
    method = methods.get(name)
    check_reach(name, task, values, params.keys(), method.defaults.keys())
    check_n_limit(values, method.n_limit, name)
    return task, values


def defaults_at(
    methods: Registry[Method], name: str, params: Mapping[str, str | int | float]
) -> tuple[SparseTask, dict[str, int | float]]:
    """:func:`resolve` without refusing an instance for its size: the task and the validated parameters, the
    method's defaults scaled to the instance (what ``params`` leave out is at its default here)."""
    method = methods.get(name)
    raw = dict(params)
    task = TASKS.get(str(raw.pop("task", SPARSE_PARITY_TASK.name)))
    if task.name not in method.tasks:
        able = [m.name for m in methods if task.name in m.tasks]
        raise BadParameter(
            f"{name} does not solve {task.name}", hint=f"methods for {task.name}: {', '.join(able) or 'none'}"
        )
    values = parse_params(raw, {**method.defaults, **task.defaults}, method=name)
    scaled = scaled_defaults(name, int(values["n"]), int(values["k"]))
    values.update({key: value for key, value in scaled.items() if key not in raw and key not in task.defaults})
    return task, values


def run_with(
    methods: Registry[Method],
    name: str,
    params: Mapping[str, str | int | float],
    progress: Progress | None = None,
    *,
    attribution: bool = True,
) -> RunResult:
    """See :func:`engine.methods.run_method`; ``attribution=False`` skips :mod:`engine.attribution` (for timing)."""
    method = methods.get(name)
    task, values = resolve(methods, name, params)
    say: Progress = progress or no_progress
    say(f"running {name} (n={values['n']}, k={values['k']}, seed={values['seed']}), traced", 0.0)
    start = time.perf_counter()
    outcome, log, _, accuracy, secret = run_traced(
        method, values, task, NamingEventLog() if attribution else EventLog()
    )
    say("computing metrics", 0.7)
    metrics, whole = measured(log, WHOLE_RUN)
    scopes = {key: WHOLE_RUN for key in metrics}
    tables = [whole] if whole is not None else []
    splits = []
    counts = {**log.counts()}
    per_step: dict[str, float] = {}
    if method.kind == "training" and outcome.steps:
        counts["steps"] = outcome.steps
        counts["epochs"] = outcome.epochs
        per_step = {
            "dmc@1 (run mean)": metrics["dmc@1"] / outcome.steps,
            "events (run mean)": len(log) / outcome.steps,
        }
        if outcome.one_step is not None:
            step_log = NamingEventLog() if attribution else EventLog()
            place_step(*outcome.one_step, step_log)
            step_metrics, step_table = measured(step_log, ONE_STEP)
            per_step.update({f"{key} (one step)": value for key, value in step_metrics.items()})
            if step_table is not None:
                tables.append(step_table)
    if outcome.one_step is not None:
        say("element-level trace of one step", 0.8)
        step, args = outcome.one_step
        if attribution:
            split = bytedmd_by_argument(step, args, argument_names(step, args), ONE_STEP)
            splits.append(split)
            metrics[BYTEDMD] = float(split.total)
        else:
            metrics[BYTEDMD] = float(bytedmd(step, args))
        scopes[BYTEDMD] = ONE_STEP
    elif outcome.whole_solve is not None:
        say("element-level trace of the solve", 0.8)
        solve, solve_args = outcome.whole_solve
        if attribution:
            split = bytedmd_by_argument(solve, solve_args, argument_names(solve, solve_args), WHOLE_RUN)
            splits.append(split)
            metrics[BYTEDMD] = float(split.total)
        else:
            metrics[BYTEDMD] = float(bytedmd(solve, solve_args))
        scopes[BYTEDMD] = WHOLE_RUN
    wall = time.perf_counter() - start
    ok = accuracy >= 0.95
    return RunResult(
        challenge=task.name,
        subject=name,
        kind="method",
        ok=ok,
        params={**values, **({"task": task.name} if task.name != SPARSE_PARITY_TASK.name else {})},
        seeds=[int(values["seed"])],
        accuracy=accuracy,
        failure=None if ok else f"accuracy {accuracy:.3f} < 0.95" + (f" ({outcome.note})" if outcome.note else ""),
        failure_kind=None if ok else FailureKind.WRONG_ANSWER,
        metrics=metrics,
        metric_scopes=scopes,
        wall_s=wall,
        counts=counts,
        per_step=per_step,
        secret=[int(b) for b in secret],
        found=None if outcome.secret is None else [int(b) for b in outcome.secret],
        method_kind=method.kind,
        note=outcome.note or None,
        buffer_attribution=Attribution(tuple(tables), tuple(splits)) if attribution else None,
    )
