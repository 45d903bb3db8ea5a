"""Start a new judge epoch and re-judge each submission board's leaders on its suite (admins only).

The leaders are the best :data:`LEADERS` stored ``solve()`` entries of each board (one per member and label, as
the leaderboard ranks them) on the board's primary metric. Each is judged again, as its member's, on the new
epoch's suite (:mod:`bot.core.epochs`); its entry of the earlier epoch is retired (kept, off the board), so a board
never ranks the same code twice. The report says, per leader, the figure before and after and its rank before and
after: what moved.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.epochs import Epoch, new_key
from bot.core.judging import SOLVE_CHALLENGE, Submission, judge
from bot.core.services import Services
from engine.progress import Progress, no_progress
from storage.runs import get_run, retire_run
from storage.scores import ScoredRun, scored_runs
from storage.verdicts import current_epoch, start_epoch
from tools.board import split_by_board
from tools.leaderboard import rank_best

LEADERS = 3
"""How many leaders of each submission board a new epoch re-judges."""


@dataclass(frozen=True)
class Rejudged:
    """One leader judged again: its board, run before and after, value (None: it failed on the new suite), rank."""

    board: str
    member: str
    label: str
    old_run: int
    old_value: float
    old_rank: int
    new_run: int
    new_value: float | None
    new_rank: int | None
    failure: str | None = None


@dataclass(frozen=True)
class Rotation:
    """A new epoch (``previous``: the epoch it replaced, None when it is the first) and what its re-judging moved."""

    epoch: Epoch
    previous: int | None
    metric: str
    rejudged: tuple[Rejudged, ...]
    skipped: tuple[int, ...] = ()
    """Leaders that could not be judged again (no stored code): their run ids."""


def _solve_leaders(services: Services, metric: str) -> list[tuple[str, int, ScoredRun]]:
    """(board name, rank, entry) of the leaders of every submission board."""
    with services.sessions()() as session:
        scores = [s for s in scored_runs(session, challenge=SOLVE_CHALLENGE, metric=metric) if s.kind == "solve"]
    leaders = []
    for board, entries in split_by_board(SOLVE_CHALLENGE, scores).items():
        leaders += [(board.name, row.rank, row.best) for row in rank_best(entries)[:LEADERS]]
    return leaders


def rotate_epoch(services: Services, *, by: str, progress: Progress = no_progress) -> Rotation:
    """Start a new epoch (started by admin ``by``; the caller has checked the role) and re-judge the leaders."""
    metric = str(services.tool_config().primary_metrics().get(SOLVE_CHALLENGE) or "dmc@1")
    leaders = _solve_leaders(services, metric)
    with services.sessions()() as session:
        before = current_epoch(session)
        row = start_epoch(session, key=new_key(), started_by=by)
        assert row.id is not None
        epoch = Epoch(row.id, row.key, row.started_at, row.started_by)
    done: list[tuple[str, ScoredRun, int, int, float | None, str | None]] = []
    skipped: list[int] = []
    for i, (board, rank, entry) in enumerate(leaders, 1):
        progress(f"re-judging leader {i}/{len(leaders)} on epoch {epoch.number}: {entry.subject}, {entry.member}", None)
        with services.sessions()() as session:
            code = get_run(session, run_id=entry.run_id).code
        if code is None:
            skipped.append(entry.run_id)
            continue
        recorded = judge(services, Submission(code=code, label=entry.subject), member=entry.member)
        with services.sessions()() as session:
            retire_run(session, run_id=entry.run_id)
        value = recorded.result.metrics.get(metric) if recorded.result.ok else None
        done.append((board, entry, rank, recorded.stored.id, value, recorded.result.failure))
    ranks = _new_ranks(services, metric)
    rejudged = tuple(
        Rejudged(board, e.member, e.subject, e.run_id, e.value, rank, new_run, value, ranks.get(new_run), failure)
        for board, e, rank, new_run, value, failure in done
    )
    return Rotation(epoch, None if before is None else before.id, metric, rejudged, tuple(skipped))


def _new_ranks(services: Services, metric: str) -> dict[int, int]:
    """Run id -> rank on its submission board now."""
    with services.sessions()() as session:
        scores = [s for s in scored_runs(session, challenge=SOLVE_CHALLENGE, metric=metric) if s.kind == "solve"]
    boards = split_by_board(SOLVE_CHALLENGE, scores).values()
    return {row.best.run_id: row.rank for entries in boards for row in rank_best(entries)}
