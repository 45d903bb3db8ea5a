"""Reading and closing /explore loops outside a running loop: lists, resumption, a stopped job, a restart
(docs/explore.md#journal).

A loop's process can end without finishing the loop — ``/cancel``, the job's time limit, a dead worker, a bot
restart. The journal then still holds every judged step and the loop's best; these functions close such a loop
with the reason and say what it found, and ``explore resume ID`` starts a new loop from its best.
"""

from __future__ import annotations

from datetime import datetime

from bot.core.explore_start import StartPoint
from bot.core.explore_view import LoopView, loop_view
from bot.core.services import Services
from storage.explore import close_loop, close_orphans, get_loop, loop_steps, recent_loops, running_loops
from storage.tables import EXPLORE_CANCELLED
from storage.timestamps import utcnow

STOPPED = "stopped before its end (cancelled, over the job's time limit, or its worker ended)"
RESTARTED = "the bot restarted while it ran"


def loop_list(services: Services, *, limit: int = 20) -> list[LoopView]:
    """The newest loops (without their steps)."""
    with services.sessions()() as session:
        return [loop_view(loop, []) for loop in recent_loops(session, limit=limit)]


def resume_point(services: Services, loop_id: int) -> tuple[str, dict[str, int], StartPoint]:
    """Board, instance and start (the loop's best) of a new loop that carries on from loop ``loop_id``."""
    with services.sessions()() as session:
        loop = get_loop(session, loop_id)
        params = {str(k): int(v) for k, v in loop.params.items()}
        start = StartPoint(label=f"explore #{loop_id}'s best ({loop.best_cost:,})", text=loop.best_code)
        return loop.board, params, start


def cancel_loops_since(services: Services, *, member: str, since: datetime) -> list[LoopView]:
    """Close ``member``'s loops still running that started at or after ``since`` (their job was stopped)."""
    closed = []
    with services.sessions()() as session:
        for loop in running_loops(session, member=member):
            if loop.started_at >= since and loop.id is not None:
                ended = close_loop(session, loop.id, status=EXPLORE_CANCELLED, reason=STOPPED)
                closed.append(loop_view(ended, loop_steps(session, loop.id)))
    return closed


def close_interrupted(services: Services, *, started_before: datetime | None = None) -> list[int]:
    """At start-up: every loop left running by an earlier process (started before now) is closed as interrupted,
    its journal and best kept; their ids."""
    with services.sessions()() as session:
        return close_orphans(session, started_before=started_before or utcnow(), reason=RESTARTED)
