"""Keyword-only queries for stored runs: record one, find by request key, list recent ones, fetch one by id.

A run is recorded in one transaction together with its member row and its normalised metric values. Recording
with ``supersede=True`` (a forced re-run) retires the previous active row for the same request key, so exactly one
row answers each request (``runs.active_key`` is unique).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from storage.errors import UnknownRun
from storage.tables import RUN_ACTIVE, RUN_SUPERSEDED, Member, MetricValue, Run
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


def record_run(
    session: Session,
    *,
    challenge: str,
    kind: str,
    subject: str,
    ok: bool,
    metrics: dict[str, float],
    request_key: str,
    member: str,
    engine_version: str,
    params: dict[str, Any] | None = None,
    seeds: list[int] | None = None,
    result: dict[str, Any] | None = None,
    accuracy: float | None = None,
    failure: str | None = None,
    wall_s: float = 0.0,
    code: str | None = None,
    code_hash: str | None = None,
    created_at: datetime | None = None,
    supersede: bool = False,
) -> Run:
    """Store one run with its metric values and commit; returns the stored row (with its id).

    If another writer stored an active row for ``request_key`` first and ``supersede`` is False, that row is
    returned instead (the same request is never stored twice).
    """
    for attempt in range(3):
        try:
            run = _insert_run(
                session,
                member=member,
                request_key=request_key,
                supersede=supersede,
                created_at=created_at or utcnow(),
                metrics=metrics,
                fields=dict(
                    challenge=challenge,
                    kind=kind,
                    subject=subject,
                    params=dict(params or {}),
                    seeds=list(seeds or []),
                    metrics=dict(metrics),
                    result=dict(result or {}),
                    accuracy=accuracy,
                    ok=ok,
                    failure=failure,
                    wall_s=wall_s,
                    engine_version=engine_version,
                    code=code,
                    code_hash=code_hash,
                ),
            )
        except IntegrityError:
            # Another writer won a race: it stored this request (return its row) or created this member
            # first (PostgreSQL; try again, the member now exists).
            session.rollback()
            existing = find_by_request_key(session, request_key=request_key)
            if existing is not None and not supersede:
                return existing
            if attempt == 2:
                raise
            continue
        session.refresh(run)
        return run
    raise AssertionError("unreachable")


def _insert_run(
    session: Session,
    *,
    member: str,
    request_key: str,
    supersede: bool,
    created_at: datetime,
    metrics: dict[str, float],
    fields: dict[str, Any],
) -> Run:
    owner = member_named(session, name=member)
    assert owner.id is not None  # flushed
    if supersede:
        for previous in session.exec(select(Run).where(Run.active_key == request_key)).all():
            previous.active_key = None
            previous.status = RUN_SUPERSEDED
        session.flush()
    run = Run(
        **fields,
        request_key=request_key,
        active_key=request_key,
        member_id=owner.id,
        created_at=created_at,
        status=RUN_ACTIVE,
    )
    session.add(run)
    session.flush()
    assert run.id is not None  # flushed
    for name, value in metrics.items():
        session.add(MetricValue(run_id=run.id, metric=name, value=float(value), created_at=created_at))
    session.commit()
    return run


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
    session: Session, *, limit: int = 20, member: str | None = None, challenge: str | None = None
) -> list[Run]:
    """The newest runs first (superseded ones included), optionally only one member's or one challenge's."""
    query = select(Run).order_by(col(Run.created_at).desc(), col(Run.id).desc()).limit(limit)
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


def count_runs(session: Session) -> int:
    """How many runs are stored (all statuses)."""
    return len(session.exec(select(Run.id)).all())
