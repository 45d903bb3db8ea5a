"""Which queued job a free worker takes next, so that one member's jobs cannot hold every worker.

Three rules, applied each time a worker is free (the board's line stays in submission order; this only chooses):

1. **Turns.** Members take turns: the member whose last job started longest ago (or never) goes first; a member's
   own jobs start in the order they were sent.
2. **A cap while others wait.** A member may have at most ``cap`` jobs running while another member's job waits:
   ``limits.running_per_member``, or every worker but one when that is 0 (never below one). A member alone in the
   queue may use every worker; jobs already running are never stopped for fairness (``limits.job_wall_s`` bounds
   them). When every waiting member is at the cap, the worker still takes a job (by turn) rather than idle.
3. **Limit failures push back.** A job that ended on a resource limit (``FailureKind.limit``: CPU, memory, wall
   clock, output, operations, or the job time limit) counts against its member's budget. With
   ``limits.limit_failures_per_hour`` such jobs within the last hour, the member's queued jobs start only when no
   other member's job waits (the failures age out after an hour).

Pure: the board passes who is waiting and running; :class:`LimitFailures` keeps the only state, with an injected
clock.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass

from tools.config import defaults

PENALTY_WINDOW_S = 3600.0
"""How long a limit failure counts against its member (seconds)."""


@dataclass(frozen=True)
class FairShare:
    """The admins' fairness settings (``limits.running_per_member``, ``limits.limit_failures_per_hour``)."""

    running_per_member: int = defaults.RUNNING_PER_MEMBER
    limit_failures_per_hour: int = defaults.LIMIT_FAILURES_PER_HOUR

    def cap(self, workers: int) -> int:
        """Most jobs one member may have running while another member's job waits."""
        return self.running_per_member if self.running_per_member > 0 else max(1, workers - 1)


class LimitFailures:
    """When each member's jobs ended on a resource limit, over a sliding window of :data:`PENALTY_WINDOW_S`."""

    def __init__(self, clock: Callable[[], float], window_s: float = PENALTY_WINDOW_S) -> None:
        self._clock = clock
        self._window = window_s
        self._times: dict[Hashable, deque[float]] = {}

    def record(self, member: Hashable) -> None:
        """One more limit failure of ``member`` now (failures older than the window are dropped here)."""
        now = self._clock()
        times = self._times.setdefault(member, deque())
        while times and now - times[0] >= self._window:
            times.popleft()
        times.append(now)

    def count(self, member: Hashable) -> int:
        """Limit failures of ``member`` within the window. Read-only: ``/queue`` asks from a command thread."""
        now = self._clock()
        return sum(1 for t in tuple(self._times.get(member, ())) if now - t < self._window)

    def over_budget(self, member: Hashable, budget: int) -> bool:
        return self.count(member) >= budget


def pick(
    waiting: Sequence[Hashable],
    running: Counter[Hashable],
    *,
    cap: int,
    pushed_back: Callable[[Hashable], bool],
    last_start: Mapping[Hashable, int],
) -> int | None:
    """The index in ``waiting`` (the member of each queued job, in submission order) of the job to start next.

    ``running``: jobs running per member; ``pushed_back``: the member is over their limit-failure budget;
    ``last_start``: a counter value per member, larger = started a job more recently (absent = never). None only
    when nothing waits.
    """
    oldest: dict[Hashable, int] = {}
    for index, member in enumerate(waiting):
        oldest.setdefault(member, index)
    if not oldest:
        return None

    def under_cap(member: Hashable) -> bool:
        return len(oldest) == 1 or running[member] < cap  # the cap binds only while another member waits

    candidates = [m for m in oldest if under_cap(m)] or list(oldest)
    chosen = min(candidates, key=lambda m: (pushed_back(m), last_start.get(m, -1), oldest[m]))
    return oldest[chosen]


def line_order(
    waiting: Sequence[Hashable],
    *,
    pushed_back: Callable[[Hashable], bool],
    last_start: Mapping[Hashable, int],
) -> list[int]:
    """The order the queued jobs would start in if workers freed one at a time (indices into ``waiting``): turns and
    push-back, without the cap (which depends on when running jobs end). What ``/queue`` shows as positions."""
    remaining = list(range(len(waiting)))
    turns = dict(last_start)
    clock = max(turns.values(), default=0)
    order: list[int] = []
    while remaining:
        members = [waiting[i] for i in remaining]
        at = pick(members, Counter(), cap=1, pushed_back=pushed_back, last_start=turns)
        assert at is not None
        index = remaining.pop(at)
        clock += 1
        turns[waiting[index]] = clock
        order.append(index)
    return order
