"""Run one sparse-parity method, fully traced, and return a :class:`RunResult`
(docs/challenges.md#sparse-parity-numpy-track, docs/challenges.md#run-results).

The whole run (training included) is traced once at buffer level; ``ard@1``, ``ard_per_read@1`` and ``dmc@1`` are
computed from that trace (scope "whole run"; training methods also get per-step means). For training methods the
element-level ``bytedmd@1`` is measured on one representative step — the first step's starting weights on a single
training row, as the group's tracked step does — and labelled scope "one step".

Unless asked not to, the run also says where its cost went (:mod:`engine.attribution`): the per-buffer table of each
scope and ``bytedmd@1`` split by argument, in ``RunResult.buffer_attribution``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

import numpy as np

from engine.attribution import ONE_STEP, WHOLE_RUN, Attribution, NamingEventLog, attribute_log, bytedmd_by_argument
from engine.attribution.naming import argument_names
from engine.challenges.sparse_parity import make_instance, subset_accuracy
from engine.methods.method import Method, Outcome, Problem
from engine.methods.params import parse_params
from engine.metrics.bytedmd import BYTEDMD, bytedmd
from engine.metrics.clock import clock_metrics
from engine.registry import Registry
from engine.result import RunResult
from engine.tracing import EventLog, TrackedRandom, tracing, track

ProgressSink = Callable[[str, "float | None"], None]
DEFAULT_ROWS = 100
"""Training rows handed to a method that does not declare ``m`` (the query-based ones ignore them)."""


def run_traced(
    method: Method, values: Mapping[str, int | float], log: EventLog | None = None
) -> tuple[Outcome, EventLog, float, float, list[int]]:
    """Trace ``method`` on the instance ``values`` describes, on ``log`` (default: a new :class:`EventLog`).

    Returns the outcome, the trace, the traced wall seconds, the test accuracy and the true secret.
    """
    n, k, seed = int(values["n"]), int(values["k"]), int(values["seed"])
    m = int(values.get("m", DEFAULT_ROWS))
    data = make_instance(n, k, m, seed)
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
        )
        outcome = method.run(problem)
    wall = time.perf_counter() - start
    outcome.secret = sorted(int(i) for i in outcome.secret) if outcome.secret is not None else None
    if outcome.secret is not None:
        accuracy = subset_accuracy(data.x_test, data.y_test, outcome.secret)
    else:
        assert outcome.predict is not None
        accuracy = float(np.mean(outcome.predict(data.x_test) == data.y_test))
    return outcome, log, wall, accuracy, data.secret


def _silent(message: str, fraction: float | None = None) -> None:
    """Default progress sink: ignore."""


def one_step_clock(
    step: Callable[..., object], args: tuple[object, ...], log: EventLog | None = None
) -> dict[str, float]:
    """Clock metrics of one step traced alone, its arrays placed as written buffers first (as the group's
    hand-instrumented step does), so the step's own data movement is not drowned by the age of the data set.
    The placed arrays are labelled with the step's parameter names (and the names a list parameter is unpacked
    into), so a :class:`NamingEventLog` passed as ``log`` can name them."""
    log = EventLog() if log is None else log
    names = argument_names(step, args)
    placed = [
        [track(np.array(a), log, part) for a, part in zip(arg, name, strict=True)]
        if isinstance(arg, list)
        else (track(np.array(arg), log, str(name)) if isinstance(arg, np.ndarray) else arg)
        for arg, name in zip(args, names, strict=True)
    ]
    with tracing(log):
        step(*placed)
    return clock_metrics(*log.arrays())


def run_with(
    methods: Registry[Method],
    name: str,
    params: Mapping[str, str | int | float],
    progress: ProgressSink | None = None,
    *,
    attribution: bool = True,
) -> RunResult:
    """See :func:`engine.methods.run_method`; ``attribution=False`` skips :mod:`engine.attribution` (for timing)."""
    method = methods.get(name)
    values = parse_params(params, method.defaults)
    say: ProgressSink = progress or _silent
    say(f"running {name} (n={values['n']}, k={values['k']}, seed={values['seed']}), traced", 0.0)
    start = time.perf_counter()
    outcome, log, _, accuracy, secret = run_traced(method, values, NamingEventLog() if attribution else EventLog())
    say("computing metrics", 0.7)
    is_write, buffer, size = log.arrays()
    metrics = clock_metrics(is_write, buffer, size)
    scopes = {key: WHOLE_RUN for key in metrics}
    tables = [attribute_log(log, WHOLE_RUN)] if isinstance(log, NamingEventLog) else []
    splits = []
    extra: dict[str, object] = {"secret": secret, "found": outcome.secret, "method_kind": method.kind}
    counts = {**log.counts()}
    if method.kind == "training" and outcome.steps:
        counts["steps"] = outcome.steps
        counts["epochs"] = outcome.epochs
        per_step: dict[str, float] = {
            "dmc@1 (run mean)": metrics["dmc@1"] / outcome.steps,
            "events (run mean)": len(log) / outcome.steps,
        }
        if outcome.one_step is not None:
            step_log = NamingEventLog() if attribution else EventLog()
            step_metrics = one_step_clock(*outcome.one_step, log=step_log)
            per_step.update({f"{key} (one step)": value for key, value in step_metrics.items()})
            if isinstance(step_log, NamingEventLog):
                tables.append(attribute_log(step_log, ONE_STEP))
        extra["per_step"] = per_step
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
    if outcome.note:
        extra["note"] = outcome.note
    wall = time.perf_counter() - start
    ok = accuracy >= 0.95
    return RunResult(
        challenge="sparse_parity",
        subject=name,
        kind="method",
        ok=ok,
        params=dict(values),
        seeds=[int(values["seed"])],
        accuracy=accuracy,
        failure=None if ok else f"accuracy {accuracy:.3f} < 0.95" + (f" ({outcome.note})" if outcome.note else ""),
        metrics=metrics,
        metric_scopes=scopes,
        wall_s=wall,
        counts=counts,
        buffer_attribution=Attribution(tuple(tables), tuple(splits)) if attribution else None,
        extra=extra,
    )
