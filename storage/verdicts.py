"""Stored verdicts and judge epochs (``run_verdicts``, ``judge_epochs``). Keyword-only, like the other queries.

A run's verdict is written once, when it is first judged, and read back by every later rendering; the epochs hold
the secret each judging epoch derives its hidden instances from (bot/core/epochs.py).
"""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, col, select

from storage.tables import JudgeEpoch, RunVerdict


def put_verdict(session: Session, *, run_id: int, body: dict[str, Any]) -> dict[str, Any]:
    """Store run ``run_id``'s verdict unless one is stored already; the stored one (first writer wins). Committed."""
    row = session.get(RunVerdict, run_id)
    if row is not None:
        return dict(row.body)
    session.add(RunVerdict(run_id=run_id, body=body))
    session.commit()
    return body


def verdict_body(session: Session, *, run_id: int) -> dict[str, Any] | None:
    """The verdict stored for run ``run_id``, or None when it was never judged."""
    row = session.get(RunVerdict, run_id)
    return None if row is None else dict(row.body)


def current_epoch(session: Session) -> JudgeEpoch | None:
    """The newest judge epoch (None: no epoch was started yet)."""
    return session.exec(select(JudgeEpoch).order_by(col(JudgeEpoch.id).desc())).first()


def start_epoch(session: Session, *, key: str, started_by: str) -> JudgeEpoch:
    """Start a new epoch with secret ``key`` (hex); committed and returned."""
    epoch = JudgeEpoch(key=key, started_by=started_by)
    session.add(epoch)
    session.commit()
    session.refresh(epoch)
    return epoch


def epoch_numbered(session: Session, *, number: int) -> JudgeEpoch | None:
    """Epoch ``number`` (its id), or None."""
    return session.get(JudgeEpoch, number)


def epoch_before(session: Session, *, epoch_id: int) -> JudgeEpoch | None:
    """The epoch that epoch ``epoch_id`` replaced (None: it is the first)."""
    query = select(JudgeEpoch).where(col(JudgeEpoch.id) < epoch_id).order_by(col(JudgeEpoch.id).desc())
    return session.exec(query).first()
