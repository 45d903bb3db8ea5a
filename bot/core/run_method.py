"""Run a built-in sparse-parity method fully traced over a seed set, stored once, against its baseline on the same
seeds.

``sutro run local_update n=20``: the method's parameters are validated and defaulted first (nothing runs on bad
input), the admins' policy is checked once, the seed set is settled (``seeds=…``/``seed=…``, else the admins'
``seeds.default``; at most ``seeds.max``), then every seed run still missing — the method's and its baseline's
(:mod:`bot.core.baselines`: sgd for a training method, the board's reference for a solver) — runs in parallel
(:mod:`bot.core.seed_set`). The baseline is stored as the system's (never the member's entry) before the method,
through :func:`bot.core.recording.record_once`, so the method's card and sprint-log entry compare with it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.core.baselines import BaselineRun, baseline_request, stored_baseline
from bot.core.judgement import baseline_choice
from bot.core.method_request import METHOD_METRICS, MethodRequest
from bot.core.recording import RecordedRun, lookup, record_once, result_of, superseded_on_sight
from bot.core.seed_set import SeedTask, combine, run_tasks, seed_label
from bot.core.services import Services
from bot.core.verdict import DEFAULT_RULE, Verdict, VerdictRule, configured_rule, is_paired, judge
from engine.attribution import AttributionDiff
from engine.progress import Progress, no_progress
from engine.result import Provenance, RunResult
from storage.tables import SYSTEM_MEMBER, Run
from storage.verdicts import verdict_body

__all__ = [
    "METHOD_METRICS",
    "MethodOutcome",
    "MethodRequest",
    "run_method",
    "run_registered_method",
    "run_registered_methods",
]

ONE_STEP_KEYS = ("ard@1 (one step)", "ard_per_read@1 (one step)", "dmc@1 (one step)")
"""Per-step figures compared with the baseline method (a step's own traffic, not the data set's)."""
METHOD_PROVENANCE = "registered method (engine code; no submitted code runs)"


@dataclass(frozen=True)
class Change:
    """One figure of the method against the baseline's (both over the same seeds): means, and the verdict over the
    per-seed values (docs/verdicts.md)."""

    key: str
    baseline: float
    value: float
    verdict: Verdict | None = None

    @property
    def relative(self) -> float:
        """(value − baseline) / baseline."""
        return (self.value - self.baseline) / self.baseline


@dataclass(frozen=True)
class BaselineComparison:
    """The method against its baseline run on the same seeds.

    metrics: every metric both have (baseline non-zero); one_step: the per-step figures of :data:`ONE_STEP_KEYS`;
    buffers: baseline → method per buffer for the board's primary metric, first seed (None unless both have
    per-buffer tables); run_id: the stored baseline run.
    """

    method: str
    result: RunResult
    metrics: tuple[Change, ...]
    one_step: tuple[Change, ...]
    buffers: AttributionDiff | None = None
    run_id: int | None = None


@dataclass(frozen=True)
class MethodOutcome:
    """A method run as recorded, and its comparison with the baseline (None when it has none)."""

    request: MethodRequest
    recorded: RecordedRun
    versus: BaselineComparison | None


def _needs_computing(services: Services, request: MethodRequest, force: bool) -> bool:
    previous = None if force else lookup(services, request.stored)
    return previous is None or superseded_on_sight(previous.run)


def _kept_baseline(services: Services, request: MethodRequest) -> tuple[str | None, Run | None] | None:
    """The baseline (name, stored run) that ``request``'s stored answer was judged against, as its stored judgement
    keeps it: (None, None) when it had none; None when there is no stored answer, its judgement predates the kept
    choice, or the baseline's run is gone (the caller then chooses as for a new run)."""
    previous = lookup(services, request.stored)
    if previous is None or previous.run.id is None:
        return None
    with services.sessions()() as session:
        choice = baseline_choice(verdict_body(session, run_id=previous.run.id))
        if choice is None or choice.name is None:
            return None if choice is None else (None, None)
        if choice.run_id is None:
            return None
        run = session.get(Run, choice.run_id)
        if run is None:
            return None
        session.expunge(run)
    return choice.name, run


def run_method(
    services: Services,
    request: MethodRequest,
    *,
    member: str,
    force: bool = False,
    progress: Progress = no_progress,
    origin: str = "",
) -> MethodOutcome:
    """Run (or reuse) ``request``'s method and its baseline over the seed set; see the module docstring. ``origin``: a
    link to the asking Telegram message, for the sprint-log entry."""
    policy = services.run_policy()
    policy.check_challenge(request.challenge)
    policy.check_method(request.name)
    config = services.tool_config()
    if not request.seeds_named:
        request = request.with_seeds([int(s) for s in config.get("seeds.default")])
    request.check_cap(int(config.get("seeds.max")))
    mine_needed = _needs_computing(services, request, force)
    kept = None if mine_needed else _kept_baseline(services, request)
    base: MethodRequest | None = None
    base_name: str | None = None
    base_run: Run | None = None
    if kept is not None:  # a stored answer: its baseline as chosen when it was judged (no ranking again)
        base_name, base_run = kept
    else:
        reference = config.get("baseline.reference")
        base = baseline_request(request.challenge, "method", request.name, request.params, reference)
        if base is not None:
            base_name = base.name
            with services.sessions()() as session:
                base_run = stored_baseline(session, base)
    tasks = [*(request.tasks if mine_needed else []), *(base.tasks if base is not None and base_run is None else [])]
    results = run_tasks(tasks, workers=services.settings.job_workers, progress=progress)
    mine, theirs = (
        results[: len(request.seeds) if mine_needed else 0],
        results[len(request.seeds) if mine_needed else 0 :],
    )
    base_result: RunResult | None = None
    base_id: int | None = None
    if base_name is not None:
        if base_run is None:
            assert base is not None  # a kept baseline names its stored run
            progress(f"storing {base.name} on the same seeds (the baseline, the system's run)", None)
            made = _combined(base, theirs)
            stored = record_once(services, base.stored, lambda: made, member=SYSTEM_MEMBER)
            base_result, base_id = stored.result, stored.stored.id
        else:
            base_result, base_id = result_of(base_run), base_run.id
    recorded = record_once(
        services,
        request.stored,
        lambda: _combined(request, mine) if mine else _combined(request, run_tasks(request.tasks, workers=1)),
        member=member,
        force=force,
        origin=origin,
        baseline=BaselineRun(base_id, base_result) if base_result is not None and base_id is not None else None,
    )
    versus = None
    if base_name is not None and base_result is not None:
        rule = configured_rule(config.get)
        versus = _versus(base_name, base_result, recorded.result, recorded.movers, rule, base_id)
    return MethodOutcome(request=request, recorded=recorded, versus=versus)


def run_registered_method(
    services: Services,
    request: MethodRequest,
    *,
    member: str,
    force: bool = False,
    progress: Progress = no_progress,
) -> RecordedRun:
    """The method alone, under the same stored request as :func:`run_method` (an approved idea's run, a sweep's
    point), with the seeds ``request`` names."""
    return run_registered_methods(services, [request], member=member, force=force, progress=progress)[0]


def run_registered_methods(
    services: Services,
    requests: Sequence[MethodRequest],
    *,
    member: str,
    force: bool = False,
    progress: Progress = no_progress,
    label: Callable[[SeedTask], str] = seed_label,
    log: bool = True,
) -> list[RecordedRun]:
    """Several requests of :func:`run_registered_method` (a sweep's points) in their order, each stored as its own
    run: the seed runs of every request not answered by the store run together, at most the job's worker count at
    a time, and each request is then recorded from its own seeds. ``label`` names a seed run in the progress;
    ``log=False`` writes no sprint-log entries (the caller's own entry tells the runs: an /explore loop)."""
    policy = services.run_policy()
    most = int(services.tool_config().get("seeds.max"))
    for request in requests:
        policy.check_challenge(request.challenge)
        policy.check_method(request.name)
        request.check_cap(most)
    needed = [i for i, request in enumerate(requests) if _needs_computing(services, request, force)]
    tasks = [task for i in needed for task in requests[i].tasks]
    results = run_tasks(tasks, workers=services.settings.job_workers, progress=progress, label=label)
    own: dict[int, list[RunResult]] = {}
    for i in needed:
        own[i], results = results[: len(requests[i].seeds)], results[len(requests[i].seeds) :]
    recorded = []
    for i, request in enumerate(requests):
        mine = own.get(i)

        def compute(request: MethodRequest = request, mine: list[RunResult] | None = mine) -> RunResult:
            # stored meanwhile and then superseded, or not looked up as missing: run it here
            return _combined(request, mine if mine is not None else run_tasks(request.tasks, workers=1))

        recorded.append(record_once(services, request.stored, compute, member=member, force=force, log=log))
    return recorded


def _combined(request: MethodRequest, results: list[RunResult]) -> RunResult:
    """The stored result of ``request``: its one seed's result, or the set combined (wall: the seeds' sum)."""
    for result in results:
        result.provenance = Provenance(judged_by="method", sandbox=METHOD_PROVENANCE)
    if len(results) == 1:
        return results[0]
    return combine(results, params=request.params, wall_s=sum(r.wall_s for r in results))


def _values(result: RunResult, key: str) -> list[float]:
    return list(result.seed_metrics.get(key) or [result.metrics[key]])


def _versus(
    name: str,
    base: RunResult,
    mine: RunResult,
    buffers: AttributionDiff | None,
    rule: VerdictRule = DEFAULT_RULE,
    run_id: int | None = None,
) -> BaselineComparison:
    metrics = tuple(
        Change(
            key,
            base.metrics[key],
            mine.metrics[key],
            judge(
                _values(mine, key),
                _values(base, key),
                candidate_passed=mine.ok,
                rule=rule,
                paired=is_paired(mine.seeds, base.seeds, _values(mine, key), _values(base, key)),
            ),
        )
        for key in mine.metrics
        if base.metrics.get(key)
    )
    one_step = tuple(
        Change(key, base.per_step[key], mine.per_step[key])
        for key in ONE_STEP_KEYS
        if key in mine.per_step and base.per_step.get(key)
    )
    return BaselineComparison(
        method=name, result=base, metrics=metrics, one_step=one_step, buffers=buffers, run_id=run_id
    )
