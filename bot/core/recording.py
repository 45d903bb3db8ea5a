"""Answer a request once: the stored result when the same request was answered before, otherwise compute, store,
compare and log.

The rules that make stored results trustworthy live here:

- The same normalised request (code + parameters + metric versions, :class:`tools.run_request.NormalisedRequest`;
  a submission's label is not part of it) is answered once; ``force`` (``--force``) computes it again and supersedes
  the stored answer.
- Credit goes to the first submitter: every request gets its own submission record, the stored result is shared,
  and the run stays credited to the first submission of identical code (a forced re-run too). A member whose
  request was answered by someone else's run is told so (:attr:`RecordedRun.credited_elsewhere`), never shown that
  run as theirs.
- A stored answer that failed on a resource limit (:attr:`FailureKind.LIMIT`) is not reused: that verdict belongs
  to the limits of its day, which the admins may have raised since; it is computed again and supersedes it.
- A baseline the system runs by itself (``request.role`` ``baseline``) is stored under the system member and gets
  no sprint-log entry of its own: the entry of the run it serves names it.
- Each value is stored once: the run's columns hold what they can, the ``detail`` JSON the rest
  (:func:`detail_of`); :func:`result_of` puts a RunResult back together (rows of either shape).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.core.attribution_diff import results_diff
from bot.core.baselines import BaselineRun
from bot.core.comparison import Comparison, compare, settled
from bot.core.log_entry import log_run
from bot.core.services import Services
from bot.core.stored_result import detail_of, result_of
from bot.core.verdict import configured_rule
from engine.attribution import AttributionDiff
from engine.result import FailureKind, RunResult
from storage.runs import Credit, NewRun, credit_of, find_by_request_key, get_run, record_submission, submit_run
from storage.tables import ROLE_MEMBER, Run
from tools.run_request import NormalisedRequest


@dataclass(frozen=True)
class StoredRun:
    """A stored run: its id, the stored row, and whether it was reused rather than computed now."""

    id: int
    run: Run
    reused: bool = False


@dataclass(frozen=True)
class PublishedCredit:
    """A published record a submitted program is identical to: its authors, date, published cost and link."""

    authors: str
    date: str
    cost: int
    link: str

    def line(self) -> str:
        """The result card's line: ``this is @X's published record (2026-09-18, 63,290): LINK``."""
        return f"this is {self.authors}'s published record ({self.date}, {self.cost:,}): {self.link}"


@dataclass(frozen=True)
class RecordedRun:
    """The answer to a request: the stored run, its result, how it compares, and the sprint-log delivery note.

    member: who asked. submission_id: this request's own submission record. credit: who is credited for the stored
    result (the first submission of identical code); None only for answers built outside :func:`record_once`.
    movers: the per-buffer diff from the baseline the caller passed to :func:`record_once` to this result (None
    without a baseline or per-buffer tables), the one the sprint-log entry shows too.
    published_as: the group's published record this program is identical to (same content hash), which holds the
    credit: the run is stored with the role ``published`` and never announced as the member's record.
    """

    stored: StoredRun
    result: RunResult
    comparison: Comparison
    log_note: str = ""
    member: str = ""
    submission_id: int | None = None
    credit: Credit | None = None
    movers: AttributionDiff | None = None
    published_as: PublishedCredit | None = None

    @property
    def credited_elsewhere(self) -> bool:
        """Whether the stored result is credited to another member's submission (one's own earlier submission of
        the same code is a plain stored answer)."""
        return self.credit is not None and self.credit.member != self.member


def lookup(services: Services, request: NormalisedRequest) -> StoredRun | None:
    """The stored answer for the same normalised request (code hash + params + metric versions), if any."""
    with services.sessions()() as session:
        for key in (request.key, *request.former_keys):
            run = find_by_request_key(session, request_key=key)
            if run is not None and run.id is not None:
                return StoredRun(id=run.id, run=run, reused=True)
    return None


def store_result(
    services: Services, result: RunResult, *, request: NormalisedRequest, member: str, force: bool = False
) -> StoredRun:
    """Store ``result`` under ``request``'s key; ``force`` supersedes an earlier answer."""
    return _store(services, result, request=request, member=member, force=force)[0]


def _store(
    services: Services, result: RunResult, *, request: NormalisedRequest, member: str, force: bool
) -> tuple[StoredRun, int]:
    """Store ``result`` and the member's submission; the stored run and the submission's id."""
    new = NewRun(
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
        detail=detail_of(result),
        accuracy=result.accuracy,
        failure=result.failure,
        wall_s=result.wall_s,
        code=request.code,
        code_hash=result.code_hash or request.code_hash,
        former_keys=request.former_keys,
        role=request.role,
    )
    with services.sessions()() as session:
        run, submission = submit_run(session, new, supersede=force)
    assert run.id is not None and submission.id is not None
    return StoredRun(id=run.id, run=run, reused=not submission.computed), submission.id


def superseded_on_sight(run: Run) -> bool:
    """Whether a stored answer must be computed again rather than reused: it failed on a resource limit."""
    return not run.ok and result_of(run).failure_kind is FailureKind.LIMIT


def record_once(
    services: Services,
    request: NormalisedRequest,
    compute: Callable[[], RunResult],
    *,
    member: str,
    force: bool = False,
    origin: str = "",
    baseline: BaselineRun | None = None,
    log: bool = True,
) -> RecordedRun:
    """Answer ``request`` once (see the module docstring): the stored answer, or ``compute()`` stored, compared
    and logged (the entry is saved before this returns and delivered when the sink is reachable).

    The caller has checked the admins' policy (once per request); this only records. ``origin``: a link to the
    Telegram message that asked (the sprint-log entry links to it), "" when there is none. ``baseline``: the
    stored baseline run the caller holds, whose per-buffer diff to the result (``RecordedRun.movers``) is computed
    here once, for the caller's card and the log entry. ``log``: False when the caller tells the result in an
    entry of its own (no entry is written here).
    """
    previous = None if force else lookup(services, request)
    if previous is not None and not superseded_on_sight(previous.run):
        with services.sessions()() as session:
            mine = record_submission(session, run=previous.run, member=member, label=request.subject)
        _, comparison, credit = _compare(services, previous)
        reused = result_of(previous.run)
        return RecordedRun(
            stored=previous,
            result=reused,
            comparison=comparison,
            member=member,
            submission_id=mine.id,
            credit=credit,
            movers=None if baseline is None else results_diff(services, baseline.result, reused),
        )
    result = compute()
    stored, submission_id = _store(
        services, result, request=request, member=member, force=force or previous is not None
    )
    run, comparison, credit = _compare(services, stored)
    final = result if not stored.reused else result_of(run)
    movers = None if baseline is None else results_diff(services, baseline.result, final)
    note = ""
    if (
        log and not stored.reused and request.role == ROLE_MEMBER
    ):  # a system baseline is named in its member run's entry
        note = log_run(services, run, comparison, origin=origin, baseline=baseline, movers=movers)
    return RecordedRun(
        stored=stored,
        result=final,
        comparison=comparison,
        log_note=note,
        member=member,
        submission_id=submission_id,
        credit=credit,
        movers=movers,
    )


def _compare(services: Services, stored: StoredRun) -> tuple[Run, Comparison, Credit]:
    """The stored row read back (with its member), its comparison and who is credited for it."""
    config = services.tool_config()
    primary = config.primary_metrics().get(stored.run.challenge)
    rule = configured_rule(config.get)
    reference = str(config.get("baseline.reference"))  # read before the session: SQLite allows one writer
    with services.sessions()() as session:
        run = get_run(session, run_id=stored.id)
        comparison = settled(session, run, compare(session, run, primary=primary, rule=rule, reference=reference))
        return run, comparison, credit_of(session, run=run)
