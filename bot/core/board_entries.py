"""The entries of one challenge's boards (leaderboard and records): the instance asked for (``n=30 k=4``; default
the group's standard), split by track, with the group's published records where they apply. Boards are derived from
the stored runs when read (tools/board.py); nothing is stored for them."""

from __future__ import annotations

from collections.abc import Mapping

from sqlmodel import Session

from storage.scores import ScoredRun, scored_runs
from tools.board import TRACKS, Board, board_of_score, instance_of, requested_instance
from tools.published.records import current_snapshot, published_scores


def board_entries(
    session: Session, challenge: str, metric: str, options: Mapping[str, str], *, published: bool
) -> dict[Board, list[ScoredRun]]:
    """Board -> its entries, oldest first, for the instance named in ``options`` (see
    :func:`tools.board.requested_instance` for the errors); ``published`` adds the group's published records. A
    tier the group retired has a frozen board: runs stored after the retirement date are not on it."""
    stored = scored_runs(session, challenge=challenge, metric=metric)
    retired = current_snapshot(session).retirement(challenge)
    if retired is not None:
        stored = [s for s in stored if s.created_at.date() <= retired.since]
    options = {k: v for k, v in options.items() if k != "page"}
    entries = [*published_scores(challenge, metric, session), *stored] if published else stored
    instance = requested_instance(challenge, options, (instance_of(challenge, s.params) for s in entries))
    boards: dict[Board, list[ScoredRun]] = {}
    for score in entries:
        board = board_of_score(challenge, score)
        if board.instance == instance:
            boards.setdefault(board, []).append(score)
    for board in boards:
        boards[board].sort(key=lambda s: (s.created_at, s.run_id))
    return dict(sorted(boards.items(), key=lambda kv: TRACKS.index(kv[0].track) if kv[0].track in TRACKS else 99))
