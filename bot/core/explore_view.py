"""A stored /explore loop as the card, ``explore show``, the sprint log and the exports read it (typed, read-only)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.core.services import Services
from storage.explore import KEPT, get_loop, loop_steps
from storage.tables import ExploreLoop, ExploreStep


@dataclass(frozen=True)
class StepView:
    """One journalled step as the card, log and exports show it."""

    number: int
    operator: str
    hypothesis: str
    outcome: str
    cost: int | None
    delta_pct: float | None
    reason: str
    wall_s: float
    created_at: str = ""
    """When it was judged (ISO 8601, UTC)."""

    @classmethod
    def of(cls, row: ExploreStep) -> StepView:
        return cls(
            number=row.number,
            operator=row.operator,
            hypothesis=row.hypothesis,
            outcome=row.outcome,
            cost=row.cost,
            delta_pct=row.delta_pct,
            reason=row.reason,
            wall_s=row.wall_s,
            created_at=row.created_at.isoformat(timespec="seconds"),
        )


@dataclass(frozen=True)
class LoopView:
    """A loop as stored, with its steps: what the card, ``explore show``, the log and the exports render."""

    loop_id: int
    member: str
    board: str
    params: Mapping[str, Any]
    metric: str
    goal: str
    start_label: str
    start_cost: int
    record_cost: float | None
    budget: Mapping[str, Any]
    status: str
    stop_reason: str
    steps_done: int
    cpu_s: float
    spend_usd: float
    best_cost: int
    best_step: int | None
    run_id: int | None
    started_at: str
    ended_at: str | None
    steps: tuple[StepView, ...] = field(default=())

    @property
    def board_label(self) -> str:
        return " ".join([self.board, *(f"{k}={v}" for k, v in self.params.items())])

    @property
    def gain_pct(self) -> float:
        """The best against the start, in percent (negative: cheaper)."""
        return 100.0 * (self.best_cost - self.start_cost) / self.start_cost if self.start_cost else 0.0

    @property
    def kept(self) -> int:
        return sum(s.outcome == KEPT for s in self.steps)

    @property
    def beats_record(self) -> bool:
        return self.record_cost is not None and self.best_cost < self.record_cost


def loop_view(loop: ExploreLoop, steps: list[ExploreStep]) -> LoopView:
    assert loop.id is not None
    return LoopView(
        loop_id=loop.id,
        member=loop.member.name,
        board=loop.board,
        params=dict(loop.params),
        metric=loop.metric,
        goal=loop.goal,
        start_label=loop.start_label,
        start_cost=loop.start_cost,
        record_cost=loop.record_cost,
        budget=dict(loop.budget),
        status=loop.status,
        stop_reason=loop.stop_reason,
        steps_done=loop.steps_done,
        cpu_s=loop.cpu_s,
        spend_usd=loop.spend_usd,
        best_cost=loop.best_cost,
        best_step=loop.best_step,
        run_id=loop.run_id,
        started_at=loop.started_at.isoformat(timespec="seconds"),
        ended_at=None if loop.ended_at is None else loop.ended_at.isoformat(timespec="seconds"),
        steps=tuple(StepView.of(s) for s in steps),
    )


def read_loop(services: Services, loop_id: int) -> LoopView:
    """Loop ``loop_id`` with its steps (UnknownLoop, one line, when there is none)."""
    with services.sessions()() as session:
        return loop_view(get_loop(session, loop_id), loop_steps(session, loop_id))
