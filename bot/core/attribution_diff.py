"""Two runs side by side, and where the cost moved between them: the use case behind ``compare A B`` and the movers
line of a method's card.

- :func:`compare_stored` reads two stored runs (each explained by :func:`stored_attribution`: re-scored for the
  board's metric version where re-scoring stored one), refuses runs of different challenges (one line with a hint), and
  returns the metric deltas (:mod:`tools.compare`, which also carries an IR run's per-address-ring ``attribution``)
  with, when both runs have a per-buffer table (``RunResult.buffer_attribution``), the per-buffer diff of
  :func:`engine.attribution.diff.diff_attribution`.
- :func:`buffer_diff` picks what that diff is about: the scope ``one step`` where both runs have it (a step's own
  traffic), else ``whole run``, else ``whole program`` (an IR run's table by address ring,
  :mod:`engine.attribution.rings`); and the board's primary metric where both tables state it (the admins'
  ``metric.primary.<challenge>``, else the registry's: ``dmc@1`` for sparse parity, ``dally@1`` for an IR
  challenge), else ``dmc@1``, else the first metric both state.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session

from bot.core.services import Services
from bot.core.stored_result import result_of
from bot.invocation import UsageError
from engine.attribution import ONE_STEP, WHOLE_PROGRAM, WHOLE_RUN, Attribution, AttributionDiff, diff_attribution
from engine.challenges import CHALLENGES
from engine.metrics import DMC
from engine.result import RunResult
from storage.attributions import attribution_body
from storage.runs import get_run
from storage.tables import Run
from tools.compare import Comparison, compare_runs

SCOPE_ORDER = (ONE_STEP, WHOLE_RUN, WHOLE_PROGRAM)
"""Scopes in order of preference for the diff: a step's own traffic first, the whole run where one side lacks it;
an IR program's rings last (no traced run has that scope)."""


@dataclass(frozen=True)
class RunPair:
    """Two stored runs compared: the rows, their metric deltas (and IR cost shifts), and the per-buffer diff (None
    when either run has no per-buffer table)."""

    a: Run
    b: Run
    comparison: Comparison
    buffers: AttributionDiff | None


def primary_metric(services: Services, challenge: str) -> str | None:
    """The metric that ranks ``challenge``: the admins' setting, else the registry's (None for an unknown one)."""
    chosen = services.tool_config().primary_metrics().get(challenge)
    if chosen is None and challenge in CHALLENGES:
        chosen = CHALLENGES.get(challenge).primary_metric
    return chosen


def buffer_diff(a: Attribution | None, b: Attribution | None, metric: str | None) -> AttributionDiff | None:
    """A → B per buffer in the preferred common scope, for ``metric`` where both tables state it (else ``dmc@1``,
    else the first metric both state); None when either side has no table or no scope in common."""
    if a is None or b is None:
        return None
    for scope in SCOPE_ORDER:
        sa, sb = a.scope(scope), b.scope(scope)
        if sa is not None and sb is not None:
            common = [m for m in sa.metrics if m in sb.metrics]
            fallback = DMC if DMC in common else next(iter(common), None)
            chosen = metric if metric in common else fallback
            if chosen is not None:
                return diff_attribution(sa, sb, chosen)
    return None


def results_diff(services: Services, base: RunResult, mine: RunResult) -> AttributionDiff | None:
    """:func:`buffer_diff` of two results of one challenge, for that challenge's primary metric."""
    return buffer_diff(base.buffer_attribution, mine.buffer_attribution, primary_metric(services, mine.challenge))


def stored_attribution(session: Session, run: Run, metric: str | None) -> Attribution | None:
    """The attribution that explains ``run``'s value of ``metric``: the one re-scoring stored for that metric version
    (``run_attributions``) when there is one, else the one measured when the run was recorded."""
    if metric is not None and run.id is not None:
        body = attribution_body(session, run_id=run.id, metric=metric)
        if body is not None:
            return Attribution.from_dict(body)
    return result_of(run).buffer_attribution


def compare_stored(services: Services, a_id: int, b_id: int) -> RunPair:
    """Runs ``a_id`` and ``b_id`` compared (see the module docstring); UnknownRun for an id that is not stored,
    UsageError for runs of different challenges."""
    with services.sessions()() as session:
        a, b = get_run(session, run_id=a_id), get_run(session, run_id=b_id)
    if a.challenge != b.challenge:
        raise UsageError(
            f"#{a_id} is a {a.challenge} run and #{b_id} a {b.challenge} run: they cannot be compared",
            hint="pick two runs of one challenge (see ids and challenges with: runs)",
        )
    metric = primary_metric(services, a.challenge)  # reads the configuration in a session of its own
    with services.sessions()() as session:
        explained = [stored_attribution(session, run, metric) for run in (a, b)]
    buffers = buffer_diff(explained[0], explained[1], metric)
    return RunPair(a=a, b=b, comparison=compare_runs(a, b), buffers=buffers)
