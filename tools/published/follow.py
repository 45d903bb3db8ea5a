"""One sync of the group's records, end to end: open the source, read every board, re-score, compare with the
picture the product had, store — or store nothing when any step fails.

The shipped snapshot is written by the same function (``write_to``), so a fresh install's records and a synced
one's come from one reader.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sqlmodel import Session

from storage.published import KEEP_SYNCS, latest_syncs, store_sync
from tools.published.records import current_snapshot, shipped_snapshot
from tools.published.rescore import rescore_program
from tools.published.snapshot import STATUSES, Snapshot, dumps, from_json, to_json
from tools.published.source import DEFAULT_SOURCE, open_tree
from tools.published.sync import Fall, Rescorer, fallen, read_snapshot


@dataclass(frozen=True)
class SyncOutcome:
    """What a sync found and changed: the new snapshot, the boards whose record fell since the picture before it
    (the previous sync, or the shipped snapshot before the first), and that picture's commit."""

    snapshot: Snapshot
    falls: tuple[Fall, ...]
    previous_commit: str
    credited_back: int = 0
    """Members' stored runs of a published program, now credited to its published authors."""

    def status_counts(self) -> dict[str, int]:
        """Records per status, every status listed (zero included), in :data:`STATUSES` order."""
        counts = dict.fromkeys(STATUSES, 0)
        for record in self.snapshot.records:
            counts[record.status] = counts.get(record.status, 0) + 1
        return counts


def sync_published(
    session: Session | None,
    source: str = DEFAULT_SOURCE,
    *,
    rescore: Rescorer = rescore_program,
    link_base: str = "",
    write_to: Path | None = None,
) -> SyncOutcome:
    """Read ``source`` and store the result as the newest sync (``session`` None: store nothing); ``write_to``
    also writes the snapshot file. Raises :class:`tools.published.source.SyncSourceError` before anything is
    stored."""
    with tempfile.TemporaryDirectory(prefix="sutro-sync-") as scratch:
        tree = open_tree(source, Path(scratch))
        snapshot = read_snapshot(tree, source=source, rescore=rescore, link_base=link_base)
    before = current_snapshot(session)
    falls = tuple(fallen(before, snapshot))
    moved = 0
    if session is not None:
        programs = [(r.challenge, r.content_hash) for r in snapshot.records if r.content_hash]
        _, moved = store_sync(
            session, source=source, commit=snapshot.commit, snapshot=to_json(snapshot), published_programs=programs
        )
    if write_to is not None:
        write_to.write_text(dumps(snapshot), encoding="utf-8")
    return SyncOutcome(snapshot=snapshot, falls=falls, previous_commit=before.commit, credited_back=moved)


def falls_since(session: Session, since: datetime) -> list[Fall]:
    """What fell between the picture the product had at ``since`` (the newest sync by then, else the shipped
    snapshot) and the newest sync; none when nothing was synced after ``since``."""
    syncs = latest_syncs(session, count=KEEP_SYNCS)
    if not syncs or syncs[0].synced_at <= since:
        return []
    older = next((s for s in syncs if s.synced_at <= since), None)
    before = shipped_snapshot() if older is None else from_json(older.snapshot)
    return fallen(before, from_json(syncs[0].snapshot))
