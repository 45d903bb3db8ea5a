"""Keyword-only queries for the group's published records as synced (``published_syncs``): store a sync, read the
newest one and the one before it.

A sync is stored whole in one commit, so a reader sees either the previous picture or the new one; the caller
checks the sync before storing it (a failed sync stores nothing). The document itself is typed in
:mod:`tools.published.snapshot`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlmodel import Session, col, select

from storage.tables import ROLE_MEMBER, ROLE_PUBLISHED, PublishedSync, Run

KEEP_SYNCS = 50
"""Syncs kept (newest first): enough to say what fell between any two recent syncs; older rows are deleted."""


def store_sync(
    session: Session,
    *,
    source: str,
    commit: str,
    snapshot: dict[str, Any],
    published_programs: Iterable[tuple[str, str]] = (),
) -> tuple[PublishedSync, int]:
    """Commit one sync (and drop syncs beyond the newest :data:`KEEP_SYNCS`) together with the credit it moves:
    members' runs of a published program (``published_programs``: challenge and content hash) take the role
    ``published`` (off the boards, out of the member's records and activity). Returns the stored row and how many
    runs moved."""
    row = PublishedSync(source=source, commit=commit, snapshot=snapshot)
    session.add(row)
    moved = 0
    for challenge, content_hash in sorted(set(published_programs)):
        query = select(Run).where(
            col(Run.challenge) == challenge, col(Run.code_hash) == content_hash, col(Run.role) == ROLE_MEMBER
        )
        for run in session.exec(query).all():
            run.role = ROLE_PUBLISHED
            session.add(run)
            moved += 1
    session.flush()
    stale = session.exec(select(PublishedSync).order_by(col(PublishedSync.id).desc()).offset(KEEP_SYNCS)).all()
    for old in stale:
        session.delete(old)
    session.commit()
    session.refresh(row)
    return row, moved


def latest_syncs(session: Session, *, count: int = 1) -> list[PublishedSync]:
    """The newest ``count`` syncs, newest first (empty before the first sync)."""
    query = select(PublishedSync).order_by(col(PublishedSync.id).desc()).limit(count)
    return list(session.exec(query).all())
