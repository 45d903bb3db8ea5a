"""Run a built-in sparse-parity method fully traced, stored once, against its baseline method on the same seed.

``sutro run local_update n=20``: the method's parameters are validated and defaulted first (nothing runs on bad
input), the admins' policy is checked once, then — for a training method other than ``sgd`` — ``sgd`` with the
same parameters runs (stored like any run: it is the baseline the method's card and sprint-log entry compare
with; when the admins disabled sgd, its stored result or an unstored run serves the comparison only), then the
method itself, through :func:`bot.core.recording.record_once`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.core.attribution_diff import results_diff
from bot.core.baselines import baseline_method
from bot.core.recording import RecordedRun, lookup, record_once, result_of
from bot.core.services import Services
from engine.attribution.diff import AttributionDiff
from engine.methods import METHODS, method_values
from engine.methods import run_method as run_engine_method
from engine.metrics.registry import metrics_for
from engine.progress import Progress, no_progress
from engine.result import Provenance, RunResult
from tools.run_request import NormalisedRequest

METHOD_METRICS = metrics_for("numpy", "method")
"""The metric versions a traced method run computes (part of its stored request)."""
ONE_STEP_KEYS = ("ard@1 (one step)", "ard_per_read@1 (one step)", "dmc@1 (one step)")
"""Per-step figures compared with the baseline method (a step's own traffic, not the data set's)."""
METHOD_PROVENANCE = "registered method (engine code; no submitted code runs)"


@dataclass(frozen=True)
class MethodRequest:
    """A method run as asked: the method's name, its validated, defaulted parameters and the challenge (the sparse
    task variant, ``task=``; default ``sparse_parity``)."""

    name: str
    params: dict[str, Any]
    raw: dict[str, Any] = field(default_factory=dict)
    challenge: str = "sparse_parity"

    @classmethod
    def parse(cls, name: str, params: dict[str, Any]) -> MethodRequest:
        """Validate ``params`` for method ``name``; UnknownName / BadParameter (one line, a hint) when wrong."""
        challenge, values = method_values(name, params)
        return cls(name=name, params=values, raw=dict(params), challenge=challenge)

    @property
    def stored(self) -> NormalisedRequest:
        """The request under which the run is stored (its parameters and the metric versions)."""
        return NormalisedRequest(
            challenge=self.challenge,
            kind="method",
            subject=self.name,
            params=self.params,
            metric_versions=METHOD_METRICS,
        )


@dataclass(frozen=True)
class Change:
    """One figure of the method against the baseline method's (both on the same seed)."""

    key: str
    baseline: float
    value: float

    @property
    def relative(self) -> float:
        """(value − baseline) / baseline."""
        return (self.value - self.baseline) / self.baseline


@dataclass(frozen=True)
class BaselineComparison:
    """The method against its baseline method run with the same parameters.

    metrics: every metric both have (baseline non-zero); one_step: the per-step figures of :data:`ONE_STEP_KEYS`;
    buffers: baseline → method per buffer for the board's primary metric (None unless both have per-buffer tables).
    """

    method: str
    result: RunResult
    metrics: tuple[Change, ...]
    one_step: tuple[Change, ...]
    buffers: AttributionDiff | None = None


@dataclass(frozen=True)
class MethodOutcome:
    """A method run as recorded, and its comparison with the baseline method (None when it has none)."""

    request: MethodRequest
    recorded: RecordedRun
    versus: BaselineComparison | None


def run_method(
    services: Services,
    request: MethodRequest,
    *,
    member: str,
    force: bool = False,
    progress: Progress = no_progress,
    origin: str = "",
) -> MethodOutcome:
    """Run (or reuse) ``request``'s method and its baseline method; see the module docstring. ``origin``: a link to
    the asking Telegram message, for the sprint-log entry."""
    policy = services.run_policy()
    stored = request.stored
    policy.check_challenge(stored.challenge)
    policy.check_method(request.name)
    versus_name = baseline_method(stored.challenge, "method", request.name)
    base: RunResult | None = None
    if versus_name is not None and METHODS.get(request.name).kind == "training":
        base = _baseline_run(services, request, versus_name, member, progress, store=versus_name in policy.methods)
    recorded = record_once(
        services,
        stored,
        lambda: _traced(request.name, request.raw, progress),
        member=member,
        force=force,
        origin=origin,
    )
    versus = None
    if base is not None and versus_name is not None:
        versus = _versus(versus_name, base, recorded.result, results_diff(services, base, recorded.result))
    return MethodOutcome(request=request, recorded=recorded, versus=versus)


def run_registered_method(
    services: Services, request: MethodRequest, *, member: str, progress: Progress = no_progress
) -> RecordedRun:
    """The method alone, under the same stored request as :func:`run_method` (an approved idea's run)."""
    policy = services.run_policy()
    policy.check_challenge(request.stored.challenge)
    policy.check_method(request.name)
    return record_once(services, request.stored, lambda: _traced(request.name, request.raw, progress), member=member)


def _traced(name: str, params: dict[str, Any], progress: Progress) -> RunResult:
    result = run_engine_method(name, params, progress=progress)
    result.provenance = Provenance(judged_by="method", sandbox=METHOD_PROVENANCE)
    return result


def _baseline_run(
    services: Services, request: MethodRequest, name: str, member: str, progress: Progress, *, store: bool
) -> RunResult:
    """The baseline method with the same parameters: stored once like any run; with ``store=False`` (the admins
    disabled it) its stored result or a run for the comparison only."""
    baseline = MethodRequest.parse(name, request.raw)
    progress(f"running {name} with the same parameters (the baseline)", None)
    if store:
        return record_once(
            services, baseline.stored, lambda: _traced(name, request.raw, no_progress), member=member
        ).result
    previous = lookup(services, baseline.stored)
    return result_of(previous.run) if previous is not None else _traced(name, request.raw, no_progress)


def _versus(name: str, base: RunResult, mine: RunResult, buffers: AttributionDiff | None) -> BaselineComparison:
    metrics = tuple(Change(key, base.metrics[key], mine.metrics[key]) for key in mine.metrics if base.metrics.get(key))
    one_step = tuple(
        Change(key, base.per_step[key], mine.per_step[key])
        for key in ONE_STEP_KEYS
        if key in mine.per_step and base.per_step.get(key)
    )
    return BaselineComparison(method=name, result=base, metrics=metrics, one_step=one_step, buffers=buffers)
