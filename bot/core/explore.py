"""The /explore loop: search one board for a cheaper program, judged and journalled like a member's work
(docs/explore.md).

One loop: the start program (:mod:`bot.core.explore_start`) is judged on the board; then, step by step, the search
proposes a candidate with a one-line hypothesis (:class:`engine.explore.IRSearch`: built-in rewrites, no key), the
board's own scorer judges it (:func:`engine.explore.judge_candidate`), and the step is journalled — kept when it
passes and costs less than the loop's best, else discarded or refused with its reason (``storage.explore``). The
loop stops on its budget (steps, CPU seconds), on the circuit breaker (too many steps in a row not kept, or refused),
when every operator has been tried on the best without a gain, or when its owner cancels it; whatever stops it,
the journal and the best so far stay.

At the end the best, when it beats the start, is judged once more through the normal path
(:func:`bot.core.judging.judge`: the trusted scorer in a limited process, band adjudication, stored once) and
becomes the member's result — its verdict against the board's record is the one every card and log shows.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from bot.core.baselines import builtin_baseline_metrics
from bot.core.explore_budget import Budget
from bot.core.explore_start import StartPoint
from bot.core.explore_view import LoopView, StepView, read_loop
from bot.core.judging import Submission, judge
from bot.core.recording import RecordedRun
from bot.core.services import Services
from engine.errors import BadParameter
from engine.explore import IRSearch, Proposal, judge_candidate
from engine.metrics import DALLY
from engine.progress import Progress, no_progress
from engine.scoring import ir_challenge
from storage.explore import (
    DISCARDED,
    INVALID,
    KEPT,
    StepRecord,
    add_step,
    close_loop,
    open_loop,
    running_loops,
)
from storage.scores import scored_runs
from storage.tables import EXPLORE_CANCELLED, EXPLORE_FINISHED
from tools.board import BAND_KEY
from tools.errors import ToolError
from tools.published.records import published_scores
from tools.run_request import code_hash

FOUND_BY = "found by /explore"

STOP_STEPS = "its step budget is spent"
STOP_SECONDS = "its CPU-time budget is spent"
STOP_STALE = "circuit breaker: {n} candidates in a row were not kept"
STOP_INVALID = "circuit breaker: {n} candidates in a row broke the board's rules"
STOP_CONVERGED = "every operator was tried on the best without a gain"
STOP_SPEND = "its spending budget for Claude's proposals is spent"
STOP_WALL = "the job's time limit was near (limits.job_wall_s)"
WALL_SHARE = 0.8
"""A loop stops by itself at this share of the job's wall-clock limit, leaving time to judge and store its best (a
loop on a busy machine can reach the wall limit before its CPU budget)."""


@dataclass(frozen=True)
class Idea:
    """A candidate from outside the built-in search (Claude's): its hypothesis, the IR it produced (None when it
    produced none — then ``reason`` says why, e.g. the sandbox stopped its code), and what asking for it cost."""

    operator: str
    hypothesis: str
    text: str | None
    reason: str = ""
    spend_usd: float = 0.0


@dataclass(frozen=True)
class SearchState:
    """What a proposer is shown: the board, the loop's best and its text, the record, the steps so far, the goal."""

    board: str
    params: Mapping[str, int]
    summary: str
    best_cost: int
    best_text: str
    record_cost: float | None
    steps: tuple[StepView, ...]
    goal: str
    spend_left_usd: float
    metric: str = "dally@1"
    """What the board's costs are in (a method board's primary metric, e.g. ``dmc@1``)."""


class Proposer(Protocol):
    """A source of candidates beyond the built-in operators (the command layer's Claude proposer).

    ``propose`` returns None when it has nothing more to offer (its budget is used up, it failed): ``why_not`` then
    says why in one line, and the loop ends with that reason."""

    def propose(self, state: SearchState) -> Idea | None: ...

    @property
    def why_not(self) -> str: ...


@dataclass(frozen=True)
class ExploreRequest:
    """A checked request: the board (an IR challenge), its instance (``{"band": 40}``; {} for matmul), the start,
    the budget and the member's goal in words (kept in the journal)."""

    board: str
    params: Mapping[str, int]
    start: StartPoint
    budget: Budget
    goal: str = ""

    @property
    def board_label(self) -> str:
        return " ".join([self.board, *(f"{k}={v}" for k, v in self.params.items())])


def check_board(services: Services, board: str) -> str:
    """The board's registered name, refused in one line when /explore may not search it."""
    spec = ir_challenge(board)  # unknown name: did-you-mean; not an IR board: the IR boards listed
    if spec.retired is not None:
        raise BadParameter(
            f"{spec.name} is retired: its board is frozen, so /explore does not search it",
            hint="explore a current board: " + ", ".join(_allowed(services)),
        )
    allowed = _allowed(services)
    if spec.name not in allowed:
        raise ToolError(
            f"/explore is not allowed on {spec.name} here",
            hint="allowed: " + (", ".join(allowed) or "none") + " (an admin sets explore.boards)",
        )
    services.run_policy().check_challenge(spec.name)
    return spec.name


def _allowed(services: Services) -> list[str]:
    return [str(b) for b in services.tool_config().get("explore.boards")]


@dataclass(frozen=True)
class ExploreOutcome:
    """A finished loop: the stored loop with its steps, the naive baseline's cost (None when the board has no
    built-in baseline), and the run the best became (None when nothing beat the start)."""

    loop: LoopView
    baseline_cost: int | None
    recorded: RecordedRun | None


def board_record(services: Services, board: str, params: Mapping[str, int]) -> float | None:
    """The lowest dally@1 on the board (published rows and members' valid runs at the same instance), or None."""
    with services.sessions()() as session:
        entries = [*published_scores(board, DALLY, session), *scored_runs(session, challenge=board, metric=DALLY)]
    band = params.get(BAND_KEY)
    costs = [s.value for s in entries if band is None or s.params.get(BAND_KEY) == band]
    return min(costs) if costs else None


def baseline_cost(board: str) -> int | None:
    """dally@1 of the board's built-in naive program (the figure the run's card compares with, computed once per
    process), or None when it has none."""
    value = builtin_baseline_metrics(board).get(DALLY)
    return None if value is None else int(value)


def prepare(board: str, params: Mapping[str, int], start: StartPoint) -> tuple[dict[str, int], int]:
    """Judge the start on the board: the board's instance (the start's band when none was named) and the start's
    cost. One line when the start does not pass."""
    verdict = judge_candidate(board, dict(params), start.text)
    if not verdict.ok or verdict.cost is None:
        raise BadParameter(
            f"the start ({start.label}) does not pass {board}: {verdict.reason}",
            hint="start from a program that passes the board (from=published NAME, from=RUN or a file)",
        )
    chosen = dict(params)
    if verdict.band is not None and BAND_KEY not in chosen:
        chosen[BAND_KEY] = verdict.band
    return chosen, verdict.cost


Clock = Callable[[], float]


def cpu_seconds() -> float:
    """CPU seconds of this process and of its finished children (a method's seed runs work in child processes)."""
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


@dataclass(frozen=True)
class Judged:
    """One candidate as its board judged it: passed the rules (``ok``), its cost (None when not priced), the reason
    when refused, whether it beats the loop's best (``better``: cheaper for IR, a WIN beyond the seed noise for a
    method), and the stored run it became, if any."""

    ok: bool
    cost: int | None
    reason: str = ""
    better: bool = False
    run_id: int | None = None


class CandidateSource(Protocol):
    """The built-in search of a board: the next candidate from the current best, and a new best to start from."""

    def propose(self) -> Proposal | None: ...

    def accept(self, text: str) -> None: ...


class LoopBoard(Protocol):
    """What one kind of board gives the loop: its name and instance, how a start and a candidate are judged, the
    built-in search, and what becomes of the best at the end."""

    name: str
    params: dict[str, int]
    summary: str
    metric: str

    def start(self, start: StartPoint) -> int: ...

    def search(self, text: str) -> CandidateSource: ...

    def judge(self, text: str, best_text: str, best_cost: int) -> Judged: ...

    def record_cost(self, services: Services) -> float | None: ...

    def baseline_cost(self) -> int | None: ...

    def finish(
        self, services: Services, *, best_text: str, loop_id: int, start_label: str, member: str, origin: str
    ) -> RecordedRun | None: ...


class IRLoop:
    """An IR board: the built-in rewrites search, the board's scorer judges in process, cheaper is better, and the
    best is judged once more through the normal path at the end."""

    def __init__(self, board: str, params: Mapping[str, int]) -> None:
        self.name = board
        self.params = dict(params)
        self.summary = ir_challenge(board).summary
        self.metric = DALLY

    def start(self, start: StartPoint) -> int:
        self.params, cost = prepare(self.name, self.params, start)
        return cost

    def search(self, text: str) -> CandidateSource:
        return IRSearch(text, ir_challenge(self.name).dialect)

    def judge(self, text: str, best_text: str, best_cost: int) -> Judged:
        verdict = judge_candidate(self.name, self.params, text)
        better = verdict.ok and verdict.cost is not None and verdict.cost < best_cost
        reason = verdict.reason if not verdict.ok else "" if better else "not cheaper than the loop's best"
        return Judged(ok=verdict.ok, cost=verdict.cost, reason=reason, better=better)

    def record_cost(self, services: Services) -> float | None:
        return board_record(services, self.name, self.params)

    def baseline_cost(self) -> int | None:
        return baseline_cost(self.name)

    def finish(
        self, services: Services, *, best_text: str, loop_id: int, start_label: str, member: str, origin: str
    ) -> RecordedRun | None:
        submission = Submission(
            code=best_text,
            label=f"{FOUND_BY} #{loop_id} from {start_label}"[:200],
            challenge=self.name,
            kinds=("ir",),
            origin=origin,
            logged=False,
        )
        return judge(services, submission, member=member)


def run_loop(
    services: Services,
    request: ExploreRequest,
    *,
    member: str,
    progress: Progress = no_progress,
    clock: Clock = cpu_seconds,
    origin: str = "",
    proposer: Proposer | None = None,
    board: LoopBoard | None = None,
) -> ExploreOutcome:
    """Run one loop to its end (see the module docstring) and return it as stored. The caller has checked the board
    (:func:`check_board`) and the budget (:func:`parse_budget`); ``board`` is an IR board by default
    (:class:`IRLoop`; a method's parameters: :class:`bot.core.explore_methods.MethodLoop`)."""
    with services.sessions()() as session:
        if running_loops(session, member=member):
            raise ToolError(
                "you already have an /explore loop running", hint="wait for it, or cancel it first (/cancel)"
            )
    kind = board if board is not None else IRLoop(request.board, request.params)
    start_cost = kind.start(request.start)  # sets the board's instance (a mask program's band)
    record = kind.record_cost(services)
    with services.sessions()() as session:
        loop = open_loop(
            session,
            member=member,
            board=kind.name,
            params=kind.params,
            goal=request.goal,
            start_label=request.start.label,
            start_cost=start_cost,
            start_code=request.start.text,
            record_cost=record,
            budget=request.budget.as_dict(),
            metric=kind.metric,
        )
    assert loop.id is not None
    loop_id = loop.id
    try:
        reason, best_text, best_run = _steps(
            services, request, kind, loop_id, start_cost, progress, clock, proposer, record
        )
    except BaseException:  # Ctrl-C in the terminal, a stopped job: the journal and the best stay
        with services.sessions()() as session:
            close_loop(session, loop_id, status=EXPLORE_CANCELLED, reason="stopped while running")
        raise
    recorded = None
    with services.sessions()() as session:
        from storage.explore import get_loop

        improved = get_loop(session, loop_id).best_cost < start_cost
    if improved:
        progress(f"explore #{loop_id}: judging the best through the normal path", None)
        recorded = kind.finish(
            services,
            best_text=best_text,
            loop_id=loop_id,
            start_label=request.start.label,
            member=member,
            origin=origin,
        )
    run_id = recorded.stored.id if recorded is not None else best_run if improved else None
    with services.sessions()() as session:
        close_loop(session, loop_id, status=EXPLORE_FINISHED, reason=reason, run_id=run_id)
    view = read_loop(services, loop_id)
    return ExploreOutcome(loop=view, baseline_cost=kind.baseline_cost(), recorded=recorded)


def _steps(
    services: Services,
    request: ExploreRequest,
    kind: LoopBoard,
    loop_id: int,
    start_cost: int,
    progress: Progress,
    clock: Clock,
    proposer: Proposer | None,
    record_cost: float | None,
) -> tuple[str, str, int | None]:
    """The loop's steps until one stop rule holds: (why it stopped, the best text, the best's stored run if the
    board stores its candidates). The built-in search goes first; when it has nothing more on the current best, the
    proposer (Claude, with a key) is asked for one."""
    config = services.tool_config()
    stale_cap = int(config.get("explore.stale_steps"))
    invalid_cap = int(config.get("explore.invalid_in_a_row"))
    wall_cap = WALL_SHARE * float(config.get("limits.job_wall_s"))
    began_wall = time.perf_counter()
    search = kind.search(request.start.text)
    best_text, best_cost, best_run = request.start.text, start_cost, None
    budget = request.budget
    used = spent_usd = 0.0
    stale = invalid = steps = 0
    journal: list[StepView] = []
    while True:
        if steps >= budget.steps:
            return STOP_STEPS, best_text, best_run
        if used >= budget.seconds:
            return STOP_SECONDS, best_text, best_run
        if stale >= stale_cap:
            return STOP_STALE.format(n=stale), best_text, best_run
        if invalid >= invalid_cap:
            return STOP_INVALID.format(n=invalid), best_text, best_run
        if time.perf_counter() - began_wall >= wall_cap:
            return STOP_WALL, best_text, best_run
        began, wall = clock(), time.perf_counter()
        proposal = search.propose()
        if proposal is None and proposer is None:
            return STOP_CONVERGED, best_text, best_run
        spend = 0.0
        if proposal is None:
            assert proposer is not None
            if spent_usd >= budget.spend_usd:
                return STOP_SPEND, best_text, best_run
            state = SearchState(
                board=kind.name,
                params=kind.params,
                summary=kind.summary,
                best_cost=best_cost,
                best_text=best_text,
                record_cost=record_cost,
                steps=tuple(journal),
                goal=request.goal,
                spend_left_usd=budget.spend_usd - spent_usd,
                metric=kind.metric,
            )
            idea = proposer.propose(state)
            if idea is None:
                return proposer.why_not, best_text, best_run
            spend = idea.spend_usd
            spent_usd += spend
            proposal = Proposal(operator=idea.operator, hypothesis=idea.hypothesis, text=idea.text or "")
            judged = (
                kind.judge(idea.text, best_text, best_cost)
                if idea.text is not None
                else Judged(ok=False, cost=None, reason=idea.reason)
            )
        else:
            judged = kind.judge(proposal.text, best_text, best_cost)
        spent = clock() - began
        used += spent
        steps += 1
        delta = None if judged.cost is None else 100.0 * (judged.cost - best_cost) / best_cost
        if not judged.ok:
            outcome, invalid, stale = INVALID, invalid + 1, stale + 1
        elif judged.better:
            outcome, invalid, stale = KEPT, 0, 0
        else:
            outcome, invalid, stale = DISCARDED, 0, stale + 1
        record = StepRecord(
            operator=proposal.operator,
            hypothesis=proposal.hypothesis,
            outcome=outcome,
            cost=judged.cost,
            delta_pct=delta,
            reason=judged.reason if outcome != KEPT else "",
            wall_s=time.perf_counter() - wall,
            code_hash=code_hash(proposal.text, python=False),
            code=proposal.text if outcome == KEPT else "",
            spend_usd=spend,
        )
        with services.sessions()() as session:
            journal.append(StepView.of(add_step(session, loop_id, record, cpu_s=spent)))
        if outcome == KEPT and judged.cost is not None:
            best_text, best_cost, best_run = proposal.text, judged.cost, judged.run_id
            search.accept(proposal.text)
        gain = 100.0 * (best_cost - start_cost) / start_cost
        progress(
            f"explore #{loop_id} on {_label(kind)}: step {steps}, best {best_cost:,} ({gain:+.1f} % from the "
            f"start), {used:.1f} s of {budget.seconds:g} s"
            + (f", ${spent_usd:.2f} of ${budget.spend_usd:.2f} on Claude" if proposer is not None else ""),
            min(1.0, max(steps / budget.steps, used / budget.seconds)),
        )


def _label(kind: LoopBoard) -> str:
    return " ".join([kind.name, *(f"{k}={v}" for k, v in kind.params.items())])
