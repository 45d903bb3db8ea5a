"""Start a new judge epoch and re-judge every entry of the submission boards on its suite (admins only).

Every entry a submission board shows — one per member and label, as the leaderboard ranks them (and so every entry
a comparison can name as the record) — is judged again, as its member's, on the new epoch's suite
(:mod:`bot.core.epochs`); its entry of the earlier epoch is retired (kept, off the board), so a board never ranks
the same code twice and never ranks an entry of one epoch against another's.

The work is planned when the epoch starts (``epoch_rejudges``: each entry with its figure and rank before) and each
entry is marked as it is done, so a rotation is **resumable**: one that stopped (the process died, a sandbox
failure) or that used up its **budget** (the admins' ``epoch.rejudge_budget``: the most entries one call judges)
continues with :func:`resume_rotation` where it left off. An entry interrupted between its judging and its mark is
judged again on resume and finds its stored answer (identical code, one figure per epoch): nothing runs twice.
Progress is reported per entry (``re-judging entry 4/9 …``). The report says, per entry done so far, the figure
and rank before and after — what moved — and how many entries still wait.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.epochs import Epoch, new_key
from bot.core.judging import SOLVE_CHALLENGE, Submission, judge
from bot.core.services import Services
from bot.invocation import UsageError
from engine.progress import Progress, no_progress
from storage.rejudges import PlannedEntry, mark_done, mark_skipped, rejudges_of, start_epoch_with_plan
from storage.runs import get_run, retire_run
from storage.scores import scored_runs
from storage.tables import REJUDGE_DONE, REJUDGE_PENDING, REJUDGE_SKIPPED, JudgeEpoch
from storage.verdicts import current_epoch, epoch_before
from tools.board import split_by_board
from tools.leaderboard import rank_best

BUDGET_SETTING = "epoch.rejudge_budget"
"""The admins' setting: the most board entries one rotate or resume call judges again."""
DEFAULT_METRIC = "dmc@1"


@dataclass(frozen=True)
class Rejudged:
    """One entry judged again: its board, run before and after, value (None: it failed on the new suite), rank."""

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
    """A new epoch (``previous``: the epoch it replaced, None when it is the first) and what its re-judging moved.

    rejudged: every entry judged again so far (this call and earlier ones of the same rotation); this_call: how
    many of them this call judged; pending: entries still waiting for ``epoch resume``; budget: the most one call
    judges."""

    epoch: Epoch
    previous: int | None
    metric: str
    rejudged: tuple[Rejudged, ...]
    skipped: tuple[int, ...] = ()
    """Entries that could not be judged again (no stored code): their run ids."""
    pending: int = 0
    this_call: int = 0
    budget: int = 0
    resumed: bool = False

    @property
    def total(self) -> int:
        """Every entry the rotation planned."""
        return len(self.rejudged) + len(self.skipped) + self.pending


def _metric(services: Services) -> str:
    return str(services.tool_config().primary_metrics().get(SOLVE_CHALLENGE) or DEFAULT_METRIC)


def _board_entries(services: Services, metric: str) -> list[PlannedEntry]:
    """Every entry of every submission board on ``metric``, board by board, best first."""
    with services.sessions()() as session:
        scores = [s for s in scored_runs(session, challenge=SOLVE_CHALLENGE, metric=metric) if s.kind == "solve"]
    return [
        PlannedEntry(board.name, metric, row.best.member, row.best.subject, row.best.run_id, row.best.value, row.rank)
        for board, entries in split_by_board(SOLVE_CHALLENGE, scores).items()
        for row in rank_best(entries)
    ]


def _epoch(row: JudgeEpoch) -> Epoch:
    assert row.id is not None
    return Epoch(row.id, row.key, row.started_at, row.started_by)


def rotate_epoch(services: Services, *, by: str, progress: Progress = no_progress) -> Rotation:
    """Start a new epoch (started by admin ``by``; the caller has checked the role), plan the re-judging of every
    board entry and do as much of it as the budget allows."""
    metric = _metric(services)
    plan = _board_entries(services, metric)
    with services.sessions()() as session:
        before = current_epoch(session)
        row = start_epoch_with_plan(session, key=new_key(), started_by=by, plan=plan)
        epoch = _epoch(row)
    return _work(services, epoch, None if before is None else before.id, metric, progress, resumed=False)


def resume_rotation(services: Services, *, progress: Progress = no_progress) -> Rotation:
    """Go on with the current epoch's rotation where it stopped (the caller has checked the role); a UsageError
    (one line) when there is no epoch or nothing is left to re-judge."""
    with services.sessions()() as session:
        row = current_epoch(session)
        if row is None or row.id is None:
            raise UsageError("no judge epoch was started yet", hint="an admin starts one with: epoch rotate")
        planned = rejudges_of(session, epoch_id=row.id)
        previous = epoch_before(session, epoch_id=row.id)
        epoch = _epoch(row)
    if not any(r.state == REJUDGE_PENDING for r in planned):
        done = f"all {len(planned)} board entries are re-judged" if planned else "it planned no re-judging"
        raise UsageError(
            f"nothing to resume: judge epoch {epoch.number}'s rotation is complete ({done})",
            hint="epoch shows the current one; epoch rotate starts a new one",
        )
    metric = planned[0].metric
    return _work(services, epoch, None if previous is None else previous.id, metric, progress, resumed=True)


def pending_entries(services: Services) -> tuple[int, int]:
    """(entries still waiting, entries planned) of the current epoch's rotation; (0, 0) when there is none."""
    with services.sessions()() as session:
        row = current_epoch(session)
        if row is None or row.id is None:
            return 0, 0
        planned = rejudges_of(session, epoch_id=row.id)
    return sum(r.state == REJUDGE_PENDING for r in planned), len(planned)


def _work(
    services: Services, epoch: Epoch, previous: int | None, metric: str, progress: Progress, *, resumed: bool
) -> Rotation:
    budget = int(services.tool_config().get(BUDGET_SETTING))
    with services.sessions()() as session:
        planned = rejudges_of(session, epoch_id=epoch.number)
    waiting = [r for r in planned if r.state == REJUDGE_PENDING]
    finished = len(planned) - len(waiting)
    done_now = 0
    for i, entry in enumerate(waiting[:budget]):
        assert entry.id is not None
        progress(
            f"re-judging entry {finished + i + 1}/{len(planned)} on epoch {epoch.number}: {entry.label}, "
            f"{entry.member} ({entry.board})",
            (finished + i) / len(planned),
        )
        with services.sessions()() as session:
            code = get_run(session, run_id=entry.old_run).code
        if code is None:
            with services.sessions()() as session:
                mark_skipped(session, rejudge_id=entry.id)
            continue
        recorded = judge(services, Submission(code=code, label=entry.label), member=entry.member)
        with services.sessions()() as session:
            retire_run(session, run_id=entry.old_run)
        value = recorded.result.metrics.get(metric) if recorded.result.ok else None
        with services.sessions()() as session:
            mark_done(
                session,
                rejudge_id=entry.id,
                new_run=recorded.stored.id,
                new_value=None if value is None else float(value),
                failure=recorded.result.failure,
            )
        done_now += 1
    with services.sessions()() as session:
        planned = rejudges_of(session, epoch_id=epoch.number)
    ranks = _new_ranks(services, metric)
    rejudged = tuple(
        Rejudged(
            r.board,
            r.member,
            r.label,
            r.old_run,
            r.old_value,
            r.old_rank,
            r.new_run,
            r.new_value,
            ranks.get(r.new_run),
            r.failure,
        )
        for r in planned
        if r.state == REJUDGE_DONE and r.new_run is not None
    )
    return Rotation(
        epoch,
        previous,
        metric,
        rejudged,
        skipped=tuple(r.old_run for r in planned if r.state == REJUDGE_SKIPPED),
        pending=sum(r.state == REJUDGE_PENDING for r in planned),
        this_call=done_now,
        budget=budget,
        resumed=resumed,
    )


def _new_ranks(services: Services, metric: str) -> dict[int, int]:
    """Run id -> rank on its submission board now."""
    with services.sessions()() as session:
        scores = [s for s in scored_runs(session, challenge=SOLVE_CHALLENGE, metric=metric) if s.kind == "solve"]
    boards = split_by_board(SOLVE_CHALLENGE, scores).values()
    return {row.best.run_id: row.rank for entries in boards for row in rank_best(entries)}
