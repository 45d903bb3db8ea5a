"""The entries of one challenge's boards for the leaderboard and records commands: the instance asked for
(``n=30 k=4``; default the group's standard), split by track, with the group's published records where they apply.

Boards are derived from the stored runs when read (tools/board.py); nothing is stored for them.
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlmodel import Session

from storage.scores import ScoredRun, scored_runs
from tools.board import TRACKS, Board, board_of_score, instance_of, requested_instance
from tools.errors import ToolError
from tools.published.records import published_scores


def board_entries(
    session: Session, challenge: str, metric: str, options: Mapping[str, str], *, published: bool
) -> dict[Board, list[ScoredRun]]:
    """Board -> its entries, oldest first, for the instance named in ``options`` (see
    :func:`tools.board.requested_instance` for the errors); ``published`` adds the group's published records."""
    stored = scored_runs(session, challenge=challenge, metric=metric)
    instance = requested_instance(challenge, options, (instance_of(challenge, s.params) for s in stored))
    entries = [*published_scores(challenge, metric), *stored] if published else stored
    boards: dict[Board, list[ScoredRun]] = {}
    for score in entries:
        board = board_of_score(challenge, score)
        if board.instance == instance:
            boards.setdefault(board, []).append(score)
    for board in boards:
        boards[board].sort(key=lambda s: (s.created_at, s.run_id))
    return dict(sorted(boards.items(), key=lambda kv: TRACKS.index(kv[0].track) if kv[0].track in TRACKS else 99))


def instance_options(args: list[str], options: Mapping[str, str]) -> dict[str, str]:
    """The instance options (``n=30 k=4``) of a leaderboard/records call; they need a named challenge."""
    named = {k: v for k, v in options.items() if k != "metric"}
    if named and not args:
        raise ToolError("name the challenge the instance belongs to", hint="e.g. leaderboard sparse_parity n=30 k=4")
    return named


def check_instance(challenge: str, options: Mapping[str, str]) -> None:
    """Refuse a bad or unknown instance in one line even when the challenge has no results yet."""
    requested_instance(challenge, options, ())
