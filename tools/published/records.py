"""The group's published records as the product shows them: the newest sync's snapshot (``published_syncs``), or
before any sync the snapshot shipped with the product (``snapshot.json`` beside this module, written by the same
``sutro records sync``).

Published entries take part in record histories and in "vs record" next to stored runs: each row becomes a
:class:`storage.scores.ScoredRun` with ``run_id`` 0, its authors as the member (marked "(published)"), the link to
its program as ``source``, on the board of its challenge (the engine's Dally metric: the published costs are Dally
IR costs). They come in the group's own row order — the order the group accepted them — and a row's time is the
latest date of it and every row above it, so a row dated earlier than one above it (66,707 dated 2026-05-08, merged
after 67,821 of 05-14) keeps its place in every history; its own date is then said in its description.
"""

from __future__ import annotations

import functools
import json
from datetime import UTC, date, datetime
from importlib import resources
from typing import Any

from sqlmodel import Session

from engine.metrics import DALLY
from storage.published import KEEP_SYNCS, latest_syncs
from storage.scores import ScoredRun
from tools.published.snapshot import MISMATCH, Snapshot, SyncedRecord, from_json
from tools.published.spc import KIND as SPC_KIND
from tools.published.spc import SpcBoard, shipped_spc_board
from tools.published.spc import from_json as spc_from_json

PUBLISHED_MEMBER_SUFFIX = " (published)"
SNAPSHOT_FILE = "snapshot.json"


@functools.cache
def shipped_snapshot() -> Snapshot:
    """The snapshot shipped with the product (read once per process)."""
    text = resources.files(__package__).joinpath(SNAPSHOT_FILE).read_text(encoding="utf-8")
    return from_json(json.loads(text))


def current_snapshot(session: Session | None) -> Snapshot:
    """The newest sync's snapshot; the shipped one before the first sync (or without a database)."""
    if session is not None:
        document = _newest(session, records=True)
        if document is not None:
            return from_json(document)
    return shipped_snapshot()


def _newest(session: Session, *, records: bool) -> dict[str, Any] | None:
    """The newest stored sync of one kind (the challenge repository's records, or the sparse-parity-challenge
    board): the two newest rows first (the usual case: a scheduled records sync is the newest), all kept ones
    only when neither is of that kind."""
    for count in (2, KEEP_SYNCS):
        for row in latest_syncs(session, count=count):
            if is_records(row.snapshot) == records:
                return row.snapshot
    return None


def is_records(document: dict[str, object]) -> bool:
    """Whether a stored sync is of the challenge repository (not the sparse-parity-challenge board)."""
    return document.get("kind") != SPC_KIND


def current_spc_board(session: Session | None) -> SpcBoard:
    """The newest synced sparse-parity-challenge board; the shipped one before its first sync."""
    if session is not None:
        document = _newest(session, records=False)
        if document is not None:
            return spc_from_json(document)
    return shipped_spc_board()


def published_challenges(session: Session | None) -> list[str]:
    """The boards with published records, in the repository's order."""
    snapshot = current_snapshot(session)
    return [b for b in snapshot.boards if snapshot.of(b)]


def _subject(record: SyncedRecord, shown: date) -> str:
    text = record.description or "(no description)"
    if record.date != shown:
        text += f" (dated {record.date.isoformat()})"
    if record.status == MISMATCH and record.our_cost is not None:
        text += f" [our cost {record.our_cost:,}]"
    return text


def published_scores(challenge: str, metric: str, session: Session | None = None) -> list[ScoredRun]:
    """The published entries of ``challenge`` as scored entries in the group's order (their times never decrease);
    none unless ``metric`` is the engine's Dally metric."""
    if metric != DALLY:
        return []
    snapshot = current_snapshot(session)
    scores: list[ScoredRun] = []
    shown: date | None = None
    for record in snapshot.of(challenge):
        shown = record.date if shown is None else max(shown, record.date)
        scores.append(
            ScoredRun(
                run_id=0,
                member=record.author + PUBLISHED_MEMBER_SUFFIX,
                subject=_subject(record, shown),
                metric=metric,
                value=float(record.cost),
                created_at=datetime(shown.year, shown.month, shown.day, tzinfo=UTC),
                kind="published",
                source=snapshot.url(record),
            )
        )
    return scores


def published_copy(session: Session | None, challenge: str, content_hash: str | None) -> SyncedRecord | None:
    """The published record of ``challenge`` whose program is identical (same content hash after normalisation) to
    a member's; None when there is none."""
    if not content_hash:
        return None
    return current_snapshot(session).by_hash(challenge, content_hash)
