"""Leases: at most one holder of a named destination at a time, across processes, through the database.

``take_lease`` succeeds when the lease is free, expired, or already the caller's (then it is renewed); the
compare-and-set ``UPDATE`` makes two processes that read the same expired row race safely (one row changes, the
other sees 0 rows). Expiry lets a holder that died be replaced. Used by the sprint-log delivery so that one
process at a time writes to the document (tools/sprint_log/delivery.py).
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import delete, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col

from storage.tables import DeliveryLease
from storage.timestamps import utcnow


def take_lease(session: Session, *, name: str, holder: str, ttl: timedelta) -> bool:
    """Hold lease ``name`` for ``ttl`` from now (commit); False when another holder has it and it has not expired."""
    now = utcnow()
    row = session.get(DeliveryLease, name)
    if row is None:
        session.add(DeliveryLease(name=name, holder=holder[:200], expires_at=now + ttl))
        try:
            session.commit()
        except IntegrityError:  # another process created it first
            session.rollback()
            return False
        return True
    if row.holder != holder and row.expires_at > now:
        session.rollback()
        return False
    changed = session.execute(
        update(DeliveryLease)
        .where(col(DeliveryLease.name) == name)
        .where(col(DeliveryLease.holder) == row.holder)
        .where(col(DeliveryLease.expires_at) == row.expires_at)
        .values(holder=holder[:200], expires_at=now + ttl)
    )
    session.commit()
    session.expire_all()
    return bool(changed.rowcount == 1)  # type: ignore[attr-defined]


def release_lease(session: Session, *, name: str, holder: str) -> None:
    """Give lease ``name`` up if ``holder`` has it (commit); another holder's lease is left alone."""
    session.execute(
        delete(DeliveryLease).where(col(DeliveryLease.name) == name).where(col(DeliveryLease.holder) == holder)
    )
    session.commit()
