"""One sync of the group's records, end to end: open the source, read every board, re-score, compare with the
picture the product had, store — or store nothing when any step fails.

The shipped snapshot is written by the same function (``write_to``), so a fresh install's records and a synced
one's come from one reader.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path

from sqlmodel import Session

from storage.published import KEEP_SYNCS, latest_syncs, store_sync
from tools.published.joins import challenge_of
from tools.published.records import current_snapshot, is_records, shipped_snapshot
from tools.published.rescore import rescore_program
from tools.published.snapshot import STATUSES, Snapshot, dumps, from_json, to_json
from tools.published.source import DEFAULT_SOURCE, GitTree, RecordedAs, open_tree
from tools.published.spc import SpcBoard, read_spc_board
from tools.published.spc import to_json as spc_json
from tools.published.sync import PAGE, Fall, Rescorer, fallen, read_snapshot


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
    recorded: RecordedAs | None = None,
) -> SyncOutcome | SpcOutcome:
    """Read ``source`` and store the result as the newest sync (``session`` None: store nothing); ``write_to``
    also writes the snapshot file. The sparse-parity-challenge repository (a root README with the leaderboard
    markers and no problem folders) gives its board instead (:class:`SpcOutcome`). Raises
    :class:`tools.published.source.SyncSourceError` before anything is stored. ``recorded`` names the repository and
    commit the records are recorded as coming from, in place of ``source`` and its HEAD (a copy assembled from the
    group's files, as the shipped snapshot is); the commit date stays the copy's HEAD's."""
    with tempfile.TemporaryDirectory(prefix="sutro-sync-") as scratch:
        tree = open_tree(source, Path(scratch))
        board = _spc_board(tree, source)
        if board is not None:
            return _store_spc(session, board, write_to)
        snapshot = read_snapshot(tree, source=source, rescore=rescore, link_base=link_base)
    if recorded is not None:
        snapshot = replace(snapshot, source=recorded.source, commit=recorded.commit)
    before = current_snapshot(session)
    falls = tuple(fallen(before, snapshot))
    moved = 0
    if session is not None:
        # a joined board's programs (mask32's bands) are credited on the challenge its runs are stored under
        programs = [(challenge_of(r.challenge), r.content_hash) for r in snapshot.records if r.content_hash]
        _, moved = store_sync(
            session,
            source=snapshot.source,
            commit=snapshot.commit,
            snapshot=to_json(snapshot),
            published_programs=programs,
        )
    if write_to is not None:
        write_to.write_text(dumps(snapshot), encoding="utf-8")
    return SyncOutcome(snapshot=snapshot, falls=falls, previous_commit=before.commit, credited_back=moved)


@dataclass(frozen=True)
class SpcOutcome:
    """A sync of the sparse-parity-challenge board: the board as read."""

    board: SpcBoard


def _spc_board(tree: GitTree, source: str) -> SpcBoard | None:
    """The sparse-parity-challenge board when ``tree`` is that repository, else None."""
    if any(PAGE.fullmatch(p) for p in tree.files()):
        return None
    raw = tree.read("README.md")
    if raw is None or b"LEADERBOARD_START" not in raw:
        return None
    entries, bad = read_spc_board("README.md", raw.decode("utf-8", "replace"))
    return SpcBoard(source, tree.commit, tuple(entries), tuple(str(b) for b in bad))


def _store_spc(session: Session | None, board: SpcBoard, write_to: Path | None) -> SpcOutcome:
    if session is not None:
        store_sync(session, source=board.source, commit=board.commit, snapshot=spc_json(board))
    if write_to is not None:
        write_to.write_text(json.dumps(spc_json(board), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return SpcOutcome(board)


def falls_between(session: Session, start: datetime, end: datetime) -> list[Fall]:
    """What fell between the picture the product had at ``start`` (the newest sync by then, else the shipped
    snapshot) and the newest sync before ``end``; none when nothing was synced in between."""
    syncs = [s for s in latest_syncs(session, count=KEEP_SYNCS) if is_records(s.snapshot)]
    newest = next((s for s in syncs if s.synced_at < end), None)
    if newest is None or newest.synced_at <= start:
        return []
    older = next((s for s in syncs if s.synced_at <= start), None)
    before = shipped_snapshot() if older is None else from_json(older.snapshot)
    return fallen(before, from_json(newest.snapshot))


def fell_lines(falls: list[Fall] | tuple[Fall, ...]) -> str:
    """The lines a digest or a group message shows ("" when nothing fell)."""
    if not falls:
        return ""
    return "The group's published records moved:\n" + "\n".join(f"• {fall.line()}" for fall in falls)


def sync_due(session: Session, *, every_hours: int, now: datetime, records: bool = True) -> bool:
    """Whether a scheduled sync is due: on (``every_hours`` > 0) and the newest sync of its kind — the challenge
    repository's records, or (``records=False``) the sparse-parity-challenge board — is older than that (or none)."""
    if every_hours <= 0:
        return False
    newest = [s for s in latest_syncs(session, count=KEEP_SYNCS) if is_records(s.snapshot) == records][:1]
    return not newest or now - newest[0].synced_at >= timedelta(hours=every_hours)
