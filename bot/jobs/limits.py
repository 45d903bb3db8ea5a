"""Per-member admission: at most N jobs queued or running, and at most M submissions per sliding minute."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable


class RateWindow:
    """Sliding-window counter per member: ``retry_in(key)`` > 0 once ``limit`` records fell within ``period_s``."""

    def __init__(self, limit: int, period_s: float, clock: Callable[[], float]) -> None:
        self._limit = limit
        self._period = period_s
        self._clock = clock
        self._times: dict[object, deque[float]] = {}

    def retry_in(self, key: object) -> float:
        """Seconds until ``key`` may submit again (0 = now)."""
        times = self._times.get(key)
        now = self._clock()
        while times and now - times[0] >= self._period:
            times.popleft()
        if not times:
            self._times.pop(key, None)
            return 0.0
        if len(times) < self._limit:
            return 0.0
        return self._period - (now - times[0])

    def record(self, key: object) -> None:
        self._times.setdefault(key, deque()).append(self._clock())
