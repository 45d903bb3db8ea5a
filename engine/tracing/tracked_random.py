"""TrackedRandom: a ``numpy.random.RandomState`` whose array draws are written, tracked buffers.

Random draws are constructors, like ``np.zeros`` under the group's TrackedArray convention
(docs/metrics.md#trackedarray-convention): the drawn array is written once (its size in elements) and every later use is
tracked. Scalar draws are untracked.

Built inside :func:`engine.tracing.tracing`, a ``RandomState`` records about 1,250 events of its own: numpy seeds
it through ``np.zeros`` arrays filled element by element, and the traced metrics have always counted them. Those
events depend on numpy's code, not on the seed, so they are recorded once per process (:func:`_seeding_events`) and
appended in bulk to each new run's log — the same buffers, labels and events, at a few percent of the cost (a
solver's whole traced run is a few milliseconds, of which the seeding was one and a half).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.tracing.event_log import EventLog
from engine.tracing.tracked_array import active_log, fresh, paused, tracing


class TrackedRandom:
    """Delegates to ``RandomState(seed)``; array results become fresh buffers on ``log``."""

    def __init__(self, seed: int, log: EventLog) -> None:
        with paused():
            self._rng = np.random.RandomState(seed)
            template = _seeding_events()
        self._log = log
        traced = active_log()
        if traced is not None:
            _replay(template, traced)

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._rng, name)
        if not callable(method):
            return method

        def draw(*args: Any, **kwargs: Any) -> Any:
            result = method(*args, **kwargs)
            return fresh(result, self._log, name) if isinstance(result, np.ndarray) else result

        return draw


@functools.cache
def _seeding_events() -> tuple[tuple[str, ...], npt.NDArray[np.bool_], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """What building a ``RandomState`` inside :func:`tracing` records: the labels of the buffers it creates (ids 1,
    2, … in order) and its events (is_write, buffer id, size). numpy's lazy imports are done first, untraced, so the
    first build in a process records the same as every later one. Called with tracing paused."""
    np.random.RandomState(0)
    scratch = EventLog()
    with tracing(scratch):
        np.random.RandomState(0)
    labels = tuple(scratch.labels.get(i, "") for i in range(1, scratch.new_buffer()))
    return (labels, *scratch.arrays())


def _replay(
    template: tuple[tuple[str, ...], npt.NDArray[np.bool_], npt.NDArray[np.int64], npt.NDArray[np.int64]],
    log: EventLog,
) -> None:
    """Append the seeding events to ``log`` with fresh buffer ids (allocated in order, as the build would)."""
    labels, is_write, buffer, size = template
    ids = np.array([0, *(log.new_buffer(label) for label in labels)], dtype=np.int64)
    log.extend(is_write, ids[buffer], size)
