"""Glue between a finished run and durable state: store the RunResult, find a stored answer for the same request,
and write the run's sprint-log entry. The run/score commands call these (mapping lives here, in the upper layer).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from bot.baselines import baseline_metrics
from bot.context import AppContext
from engine.result import RunResult
from storage.runs import find_by_request_key, get_run, record_run
from storage.tables import Run
from tools.result_rows import result_rows
from tools.run_request import NormalisedRequest
from tools.sprint_log.log import Appended


@dataclass(frozen=True)
class StoredRun:
    """A stored run as commands see it: its id, the stored row, and whether it was reused rather than run now."""

    id: int
    run: Run
    reused: bool = False


def lookup(ctx: AppContext, request: NormalisedRequest) -> StoredRun | None:
    """The stored result for the same normalised request (code hash + params + metric versions), if any."""
    with ctx.sessions()() as session:
        run = find_by_request_key(session, request_key=request.key)
    return None if run is None else StoredRun(id=run.id, run=run, reused=True)  # type: ignore[arg-type]


def store_result(
    ctx: AppContext,
    result: RunResult,
    *,
    request: NormalisedRequest,
    code: str | None,
    member: str,
    force: bool = False,
) -> StoredRun:
    """Store ``result`` under ``request``'s key; ``force`` (``--force``) supersedes an earlier answer."""
    with ctx.sessions()() as session:
        run = record_run(
            session,
            challenge=result.challenge,
            kind=result.kind,
            subject=result.subject,
            ok=result.ok,
            metrics=dict(result.metrics),
            request_key=request.key,
            member=member,
            engine_version=result.engine_version,
            params=dict(result.params),
            seeds=list(result.seeds),
            result=result.to_dict(),
            accuracy=result.accuracy,
            failure=result.failure,
            wall_s=result.wall_s,
            code=code,
            code_hash=result.code_hash or request.code_hash,
            supersede=force,
        )
    return StoredRun(id=run.id, run=run)  # type: ignore[arg-type]


def log_result(ctx: AppContext, stored: StoredRun) -> Appended:
    """Append the run's sprint-log entry (kind ``run`` for methods, ``score`` for submissions and IR)."""
    with ctx.sessions()() as session:
        run = get_run(session, run_id=stored.id)
        rows = result_rows(session, run, baseline=baseline_metrics(session, run))
    params = " ".join(f"{k}={v}" for k, v in sorted(run.params.items()))
    title = f"{run.challenge} / {run.subject}" + (f" {params}" if params else "") + f" (#{run.id})"
    body = "" if run.ok else f"failed: {run.failure or 'no reason recorded'}"
    kind = "run" if run.kind in ("method", "generate") else "score"
    return ctx.sprint_log().append_entry(
        author=run.member.name, kind=kind, title=title, body=body, results=rows, run_id=run.id
    )


_LIMIT_FAILURE = re.compile(r"\blimit \([^)]*\) exceeded")
"""How the sandbox words a resource-limit failure (engine/sandbox/limits.py: "CPU time limit (5 s) exceeded")."""


def hit_a_resource_limit(run: Run) -> bool:
    """Whether ``run`` failed on a resource limit rather than on its own merits."""
    return not run.ok and bool(run.failure) and _LIMIT_FAILURE.search(run.failure or "") is not None


@dataclass(frozen=True)
class Recorded:
    """The outcome of :func:`record_once`: the stored run, its result, and the sprint-log delivery note."""

    stored: StoredRun
    result: RunResult
    log_note: str = ""


def result_of(run: Run) -> RunResult:
    """The RunResult a stored run was made from."""
    return RunResult(**run.result)


def record_once(
    ctx: AppContext,
    request: NormalisedRequest,
    compute: Callable[[], RunResult],
    *,
    member: str,
    force: bool = False,
) -> Recorded:
    """Answer ``request`` once: the stored result when the same request was answered before (unless ``force``),
    otherwise ``compute()``, store it, and append its sprint-log entry (saved before this returns, delivered when
    the sink is reachable).

    A stored answer that failed on a resource limit (CPU, wall clock, memory, output, operations) is not reused:
    that verdict belongs to the limits of its day, which the admins may have raised since; it is run again.

    Refused first (one line, nothing stored) when the admins have not enabled the request's challenge or, for a
    built-in method, the method (``challenges.enabled`` / ``methods.enabled``)."""
    policy = ctx.run_policy()
    policy.check_challenge(request.challenge)
    if request.kind == "method":
        policy.check_method(request.subject)
    previous = None if force else lookup(ctx, request)
    if previous is not None and not hit_a_resource_limit(previous.run):
        return Recorded(stored=previous, result=result_of(previous.run))
    result = compute()
    retry = force or previous is not None  # a limit failure is superseded by the new answer
    stored = store_result(ctx, result, request=request, code=request.code, member=member, force=retry)
    appended = log_result(ctx, stored)
    report = appended.report
    note = "" if report.pending == 0 else f"{report.pending} entries waiting for {ctx.sprint_log().sink_name}"
    return Recorded(stored=stored, result=result, log_note=note)


def provenance_line(recorded: Recorded) -> str:
    """One line under a result card: the run id, and whether this is a stored answer."""
    if recorded.stored.reused:
        return f"run #{recorded.stored.id} (stored result; add --force to run it again)"
    return f"run #{recorded.stored.id}, logged to the sprint log" + (
        f" ({recorded.log_note})" if recorded.log_note else ""
    )
