"""When the bot may try the Dask scheduler again: exponential back-off between failed connection attempts.

A scheduler that is down would otherwise cost every job a full connection timeout; with the back-off the first
job after a failure waits for one attempt, and the ones after it are answered at once until the next attempt is
due (1 s after the first failure, then 2, 4 … up to :data:`MAX_WAIT_S`). A success resets it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

FIRST_WAIT_S = 1.0
"""Seconds before the attempt after the first failure."""

MAX_WAIT_S = 30.0
"""The longest wait between two attempts (seconds)."""


@dataclass
class ConnectBackoff:
    """Tracks failed attempts to reach one scheduler; thread-safe."""

    clock: Callable[[], float] = time.monotonic
    failures: int = 0
    last_error: str = ""
    _next_at: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def wait_left(self) -> float:
        """Seconds until the next attempt is due (0: try now)."""
        with self._lock:
            return max(0.0, self._next_at - self.clock())

    def failed(self, reason: str) -> None:
        """An attempt failed with ``reason``: the next one waits twice as long as the last (capped)."""
        with self._lock:
            self.failures += 1
            self.last_error = reason
            self._next_at = self.clock() + min(MAX_WAIT_S, FIRST_WAIT_S * 2 ** (self.failures - 1))

    def succeeded(self) -> None:
        """An attempt succeeded: the next failure starts from the first wait again."""
        with self._lock:
            self.failures, self.last_error, self._next_at = 0, "", 0.0
