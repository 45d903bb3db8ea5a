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
from tools.published.joins import challenge_of, joined_boards
from tools.published.snapshot import MISMATCH, MISSING, REJECTED, STATUS_WORDS, Snapshot, SyncedRecord, from_json
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
    """The challenges with published records, in the repository's order (a board joined to an instance of a
    challenge, :mod:`tools.published.joins`, counts as that challenge)."""
    snapshot = current_snapshot(session)
    names = [challenge_of(b) for b in snapshot.boards if snapshot.of(b)]
    return list(dict.fromkeys(names))


def _subject(record: SyncedRecord, shown: date) -> str:
    text = record.description or "(no description)"
    if record.date != shown:
        text += f" (dated {record.date.isoformat()})"
    if record.status == MISMATCH and record.our_cost is not None:
        text += f" [our cost {record.our_cost:,}]"
    elif record.status == REJECTED:  # published, kept as published, but it fails this board's rules as we judge them
        text += f" [fails here: {record.note}]" if record.note else " [fails here]"
    elif record.status == MISSING:  # we could not read its program: the published figure, as published
        text += f" [{STATUS_WORDS[MISSING]}]"
    return text


def published_scores(challenge: str, metric: str, session: Session | None = None) -> list[ScoredRun]:
    """The published entries of ``challenge`` as scored entries, each board in the group's order (their times never
    decrease along a board); none unless ``metric`` is the engine's Dally metric. Boards joined to one instance of
    ``challenge`` (:mod:`tools.published.joins`, e.g. mask32's bands) come with that instance as their ``params``,
    so they stand on the instance's board beside members' runs."""
    if metric != DALLY:
        return []
    snapshot = current_snapshot(session)
    boards: list[tuple[str, dict[str, Any]]] = [(challenge, {})]
    boards += [(join.board, dict(join.instance)) for join in joined_boards(challenge)]
    scores: list[ScoredRun] = []
    for board, params in boards:
        shown: date | None = None
        for record in snapshot.of(board):
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
                    params=dict(params),
                    source=snapshot.url(record),
                )
            )
    return scores


def published_copy(session: Session | None, challenge: str, content_hash: str | None) -> SyncedRecord | None:
    """The published record of ``challenge`` (or of a board joined to one of its instances) whose program is
    identical (same content hash after normalisation) to a member's; None when there is none."""
    return None if not content_hash else find_copy(current_snapshot(session), challenge, content_hash)


def find_copy(snapshot: Snapshot, challenge: str, content_hash: str) -> SyncedRecord | None:
    """The first row of ``snapshot`` on ``challenge``'s boards (its own, then the joined ones) with this content
    hash."""
    for board in (challenge, *(join.board for join in joined_boards(challenge))):
        found = snapshot.by_hash(board, content_hash)
        if found is not None:
            return found
    return None
