"""The plan of a judge epoch's rotation (``epoch_rejudges``): which board entries it judges again, and how far it
got. Keyword-only, like the other queries; each write is committed at once, so a rotation that stops (a crash, a
budget) leaves every finished entry marked and the rest pending (bot/core/epoch_rotation.py resumes them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlmodel import Session, col, select

from storage.tables import (
    REJUDGE_DONE,
    REJUDGE_DROPPED,
    REJUDGE_PENDING,
    REJUDGE_SKIPPED,
    EpochRejudge,
    JudgeEpoch,
)
from storage.timestamps import utcnow


@dataclass(frozen=True)
class PlannedEntry:
    """A board entry to judge again: its board's title, the metric ranking it, whose it is, its run, figure and
    rank before the rotation."""

    board: str
    metric: str
    member: str
    label: str
    run_id: int
    value: float
    rank: int


def start_epoch_with_plan(session: Session, *, key: str, started_by: str, plan: Sequence[PlannedEntry]) -> JudgeEpoch:
    """Start a new epoch with secret ``key`` and write its rotation's plan, in one transaction; entries an earlier
    rotation left pending are dropped (this plan covers every board entry again). The epoch, committed."""
    for row in session.exec(select(EpochRejudge).where(EpochRejudge.state == REJUDGE_PENDING)).all():
        row.state = REJUDGE_DROPPED
        session.add(row)
    epoch = JudgeEpoch(key=key, started_by=started_by)
    session.add(epoch)
    session.flush()
    assert epoch.id is not None
    for position, entry in enumerate(plan):
        session.add(
            EpochRejudge(
                epoch_id=epoch.id,
                position=position,
                board=entry.board,
                metric=entry.metric,
                member=entry.member,
                label=entry.label,
                old_run=entry.run_id,
                old_value=entry.value,
                old_rank=entry.rank,
            )
        )
    session.commit()
    session.refresh(epoch)
    return epoch


def rejudges_of(session: Session, *, epoch_id: int) -> list[EpochRejudge]:
    """Every planned entry of epoch ``epoch_id``'s rotation, in the order of the work."""
    query = select(EpochRejudge).where(EpochRejudge.epoch_id == epoch_id).order_by(col(EpochRejudge.position))
    return list(session.exec(query).all())


def mark_done(session: Session, *, rejudge_id: int, new_run: int, new_value: float | None, failure: str | None) -> None:
    """Entry ``rejudge_id`` was judged again: its new run and figure (None: it failed, ``failure`` says why)."""
    row = session.get(EpochRejudge, rejudge_id)
    assert row is not None
    row.state, row.new_run, row.new_value, row.failure, row.done_at = (
        REJUDGE_DONE,
        new_run,
        new_value,
        failure,
        utcnow(),
    )
    session.add(row)
    session.commit()


def mark_skipped(session: Session, *, rejudge_id: int) -> None:
    """Entry ``rejudge_id`` cannot be judged again (its run keeps no code)."""
    row = session.get(EpochRejudge, rejudge_id)
    assert row is not None
    row.state, row.done_at = REJUDGE_SKIPPED, utcnow()
    session.add(row)
    session.commit()
