"""TrackedRandom: a ``numpy.random.RandomState`` whose array draws are written, tracked buffers.

Random draws are constructors, like ``np.zeros`` under the group's TrackedArray convention
(docs/metrics.md#trackedarray-convention): the drawn array is written once (its size in elements) and every later use is
tracked. Scalar draws are untracked.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.tracing.event_log import EventLog
from engine.tracing.tracked_array import fresh


class TrackedRandom:
    """Delegates to ``RandomState(seed)``; array results become fresh buffers on ``log``."""

    def __init__(self, seed: int, log: EventLog) -> None:
        self._rng = np.random.RandomState(seed)
        self._log = log

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._rng, name)
        if not callable(method):
            return method

        def draw(*args: Any, **kwargs: Any) -> Any:
            result = method(*args, **kwargs)
            return fresh(result, self._log, name) if isinstance(result, np.ndarray) else result

        return draw
