"""Keyword-only queries for stored runs: record one (a :class:`NewRun`), record a submission answered by a stored
run, find by request key, find a baseline run, list recent ones, fetch one by id, say who is credited for one.

A run is recorded in one transaction together with its member row, its normalised metric values and the
submission that asked for it (:class:`storage.tables.Submission`). Recording with ``supersede=True`` (a forced
re-run) retires the previous active row for the same request key, so exactly one row answers each request
(``runs.active_key`` is unique); the new row keeps the credit of the row it replaces (member and label of the first
submission of that request), so re-running someone else's code never moves its credit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select

from storage.errors import UnknownRun
from storage.tables import ROLE_MEMBER, RUN_ACTIVE, RUN_SUPERSEDED, Member, MetricValue, Run, Submission
from storage.timestamps import utcnow


def member_named(session: Session, *, name: str, telegram_user_id: int | None = None) -> Member:
    """The member called ``name``, created (and flushed) when new."""
    member = session.exec(select(Member).where(Member.name == name)).first()
    if member is None:
        member = Member(name=name, telegram_user_id=telegram_user_id)
        session.add(member)
        session.flush()
    elif telegram_user_id is not None and member.telegram_user_id != telegram_user_id:
        member.telegram_user_id = telegram_user_id
    return member


@dataclass(frozen=True)
class NewRun:
    """One run to store: the columns, plus ``detail`` (JSON) for everything that has no column.

    Each value is stored once: what has a column (challenge, kind, subject, ok, params, seeds, metrics, accuracy,
    failure, wall_s, engine_version, code, code_hash) is not repeated in ``detail``. ``member`` and ``subject`` are
    the submitter's name and label. created_at: aware UTC; None for now.
    """

    challenge: str
    kind: str
    subject: str
    ok: bool
    metrics: dict[str, float]
    request_key: str
    member: str
    engine_version: str
    params: dict[str, Any] = field(default_factory=dict)
    seeds: list[int] = field(default_factory=list)
    detail: dict[str, Any] = field(default_factory=dict)
    accuracy: float | None = None
    failure: str | None = None
    wall_s: float = 0.0
    code: str | None = None
    code_hash: str | None = None
    created_at: datetime | None = None
    former_keys: tuple[str, ...] = ()
    """Keys under which an earlier version stored the same request: retired too when superseding."""
    role: str = ROLE_MEMBER


@dataclass(frozen=True)
class Credit:
    """Who is credited for a stored result: the first submission of its request (identical code).

    run_id: the run that answers the request now. submission_id: the credited submission (None for a run stored
    without submission records).
    """

    run_id: int
    member: str
    label: str
    submitted_at: datetime
    submission_id: int | None


def record_run(session: Session, new: NewRun, *, supersede: bool = False) -> Run:
    """Store ``new`` with its metric values and its submission and commit; returns the stored row (with its id).

    If another writer stored an active row for ``new.request_key`` first and ``supersede`` is False, that row is
    returned instead (the same request is never stored twice). ``supersede=True`` retires the active row.
    """
    return submit_run(session, new, supersede=supersede)[0]


def submit_run(session: Session, new: NewRun, *, supersede: bool = False) -> tuple[Run, Submission]:
    """:func:`record_run`, also returning the submitter's own :class:`Submission` row.

    When another writer stored the same request first, its row answers and the submission is recorded against it
    (``computed`` False, the credit staying with the first).
    """
    for attempt in range(3):
        try:
            run, submission = _insert_run(
                session,
                member=new.member,
                request_key=new.request_key,
                retire_keys=(new.request_key, *new.former_keys) if supersede else (),
                created_at=new.created_at or utcnow(),
                metrics=new.metrics,
                fields=dict(
                    challenge=new.challenge,
                    kind=new.kind,
                    subject=new.subject,
                    params=dict(new.params),
                    seeds=list(new.seeds),
                    metrics=dict(new.metrics),
                    result=dict(new.detail),
                    accuracy=new.accuracy,
                    ok=new.ok,
                    failure=new.failure,
                    wall_s=new.wall_s,
                    engine_version=new.engine_version,
                    code=new.code,
                    code_hash=new.code_hash,
                    role=new.role,
                ),
            )
        except IntegrityError:
            # Another writer won a race: it stored this request (answer with its row) or created this member
            # first (PostgreSQL; try again, the member now exists).
            session.rollback()
            existing = find_by_request_key(session, request_key=new.request_key)
            if existing is not None and not supersede:
                return existing, record_submission(session, run=existing, member=new.member, label=new.subject)
            if attempt == 2:
                raise
            continue
        session.refresh(run)
        return run, submission
    raise AssertionError("unreachable")


def _insert_run(
    session: Session,
    *,
    member: str,
    request_key: str,
    retire_keys: tuple[str, ...],
    created_at: datetime,
    metrics: dict[str, float],
    fields: dict[str, Any],
) -> tuple[Run, Submission]:
    submitter = member_named(session, name=member)
    assert submitter.id is not None  # flushed
    credit: Submission | None = None
    if retire_keys:
        for previous in session.exec(select(Run).where(col(Run.active_key).in_(retire_keys))).all():
            assert previous.id is not None
            credit = credit or _credited_submission(session, previous)
            previous.active_key = None
            previous.status = RUN_SUPERSEDED
        session.flush()
    label = str(fields["subject"])
    if credit is not None:  # the credit stays with the first submission of this request
        fields = {**fields, "subject": credit.label}
    run = Run(
        **fields,
        request_key=request_key,
        active_key=request_key,
        member_id=submitter.id if credit is None else credit.member_id,
        created_at=created_at,
        status=RUN_ACTIVE,
    )
    session.add(run)
    session.flush()
    assert run.id is not None  # flushed
    submission = Submission(
        run_id=run.id,
        member_id=submitter.id,
        label=label,
        computed=True,
        credit_id=None if credit is None else credit.id,
        created_at=created_at,
    )
    session.add(submission)
    session.flush()
    if submission.credit_id is None:
        submission.credit_id = submission.id
    for name, value in metrics.items():
        session.add(MetricValue(run_id=run.id, metric=name, value=float(value), created_at=created_at))
    session.commit()
    return run, submission


def _credited_submission(session: Session, run: Run) -> Submission:
    """The submission credited for ``run``'s result; a run stored without any submission gets one for its own
    member and label (the row it was stored for), flushed."""
    assert run.id is not None
    first = session.exec(select(Submission).where(Submission.run_id == run.id).order_by(col(Submission.id))).first()
    if first is None:
        first = Submission(
            run_id=run.id, member_id=run.member_id, label=run.subject, computed=True, created_at=run.created_at
        )
        session.add(first)
        session.flush()
        first.credit_id = first.id
        return first
    if first.credit_id is None or first.credit_id == first.id:
        return first
    credited = session.get(Submission, first.credit_id)
    return first if credited is None else credited


def record_submission(
    session: Session, *, run: Run, member: str, label: str, created_at: datetime | None = None
) -> Submission:
    """Record that ``member`` asked, under ``label``, for what the stored ``run`` answers; commit and return it.

    The credit stays with the first submission of the run's request.
    """
    assert run.id is not None
    credit = _credited_submission(session, run)
    submitter = member_named(session, name=member)
    assert submitter.id is not None
    submission = Submission(
        run_id=run.id,
        member_id=submitter.id,
        label=label,
        computed=False,
        credit_id=credit.id,
        created_at=created_at or utcnow(),
    )
    session.add(submission)
    session.commit()
    session.refresh(submission)
    return submission


def credit_of(session: Session, *, run: Run) -> Credit:
    """Who is credited for ``run``: the member, label and time of the first submission of its request (for a row
    stored without submissions, its own member, subject and time). Reads only."""
    assert run.id is not None
    first = session.exec(select(Submission).where(Submission.run_id == run.id).order_by(col(Submission.id))).first()
    credited = first
    if first is not None and first.credit_id is not None and first.credit_id != first.id:
        credited = session.get(Submission, first.credit_id) or first
    if credited is None:
        owner = session.get(Member, run.member_id)
        return Credit(run.id, owner.name if owner else "?", run.subject, run.created_at, None)
    member = session.get(Member, credited.member_id)
    return Credit(run.id, member.name if member else "?", credited.label, credited.created_at, credited.id)


def latest_passing_run(
    session: Session, *, challenge: str, kind: str, subject: str, params: dict[str, Any]
) -> Run | None:
    """The newest ``ok`` run of ``subject`` (of ``kind``, on ``challenge``) made with exactly ``params``, or None.

    Superseded rows count too: a baseline is a measured fact, whichever row holds it.
    """
    candidates = session.exec(
        select(Run)
        .where(
            col(Run.challenge) == challenge,
            col(Run.kind) == kind,
            col(Run.subject) == subject,
            col(Run.ok).is_(True),
        )
        .order_by(col(Run.id).desc())
    ).all()
    return next((r for r in candidates if r.params == params), None)


def find_by_request_key(session: Session, *, request_key: str) -> Run | None:
    """The active stored run answering ``request_key``, or None."""
    return session.exec(select(Run).where(Run.active_key == request_key)).first()


def get_run(session: Session, *, run_id: int) -> Run:
    """The run with id ``run_id``; :class:`UnknownRun` (one line with a hint) when there is none."""
    run = session.get(Run, run_id)
    if run is None:
        newest = session.exec(select(Run.id).order_by(col(Run.id).desc())).first()
        hint = f"run ids go from 1 to {newest}; see recent ones with: runs" if newest else "no runs are stored yet"
        raise UnknownRun(f"no run #{run_id}", hint=hint)
    return run


def recent_runs(
    session: Session, *, limit: int = 20, offset: int = 0, member: str | None = None, challenge: str | None = None
) -> list[Run]:
    """The newest runs first (superseded ones included), optionally only one member's or one challenge's; ``offset``
    skips that many of the newest (a later page)."""
    query = select(Run).order_by(col(Run.created_at).desc(), col(Run.id).desc()).offset(offset).limit(limit)
    if member is not None:
        query = query.join(Member).where(Member.name == member)
    if challenge is not None:
        query = query.where(Run.challenge == challenge)
    return list(session.exec(query).unique().all())


def stored_challenges(session: Session) -> list[str]:
    """Every challenge name that has at least one stored run, sorted."""
    return sorted(session.exec(select(Run.challenge).distinct()).all())


def stored_metrics(session: Session, *, challenge: str) -> list[str]:
    """Every ``name@version`` stored for runs of ``challenge``, sorted."""
    query = select(MetricValue.metric).join(Run).where(Run.challenge == challenge).distinct()
    return sorted(session.exec(query).all())


def count_runs(session: Session, *, member: str | None = None) -> int:
    """How many runs are stored (all statuses), optionally only one member's."""
    query = select(func.count()).select_from(Run)
    if member is not None:
        query = query.join(Member).where(Member.name == member)
    return int(session.exec(query).one())


def retire_run(session: Session, *, run_id: int) -> None:
    """Mark run ``run_id`` superseded (off the boards, kept as a record), e.g. a leader re-judged in a new judge
    epoch; committed."""
    run = session.get(Run, run_id)
    if run is not None and run.status != RUN_SUPERSEDED:
        run.status = RUN_SUPERSEDED
        session.add(run)
        session.commit()
