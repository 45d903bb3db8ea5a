"""Buffer events of composite numpy calls, as the in-process tracer records them, for the judge to charge.

Most numpy calls read each array argument once under the TrackedArray convention
(docs/metrics.md#trackedarray-convention), which is what the judge charges. A few are *composite*: numpy implements
them with several steps on the array, and the in-process tracer (``engine.tracing.TrackedArray``) records each step
— ``a.std()`` and ``a.var()`` read ``a`` twice and write and read temporaries, ``a.mean(axis)`` divides in place;
``np.concatenate(a)`` and the other stacking functions given one 2-D array iterate it row by row (a read and a fresh
write per row). Charging them one read would price a submission below in-process tracing of the same code (issue
29), so the judge runs ``std``/``var``/``mean`` once more on a tracked copy and charges the events it records
(:func:`traced_events`), and charges the stacking functions the row-by-row events (:func:`row_events`), mapped onto
its own buffers.

Only for the calls in :data:`COMPOSITE_METHODS` / :data:`COMPOSITE_FUNCTIONS` (found by
tests/engine/sandbox/test_price_property.py, which compares every allow-listed operation with the tracer); the rest
keep the one-read rule, which the same test shows is never below the tracer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from engine.tracing.event_log import EventLog
from engine.tracing.tracked_array import track

COMPOSITE_METHODS = frozenset({"std", "var", "mean"})
COMPOSITE_FUNCTIONS = frozenset({"concatenate", "stack", "hstack", "vstack", "column_stack"})
"""Functions that iterate an array given as their sequence argument (charged by :func:`row_events` when it is one
array)."""
MAX_ROWS = 65_536
"""Rows an array given as a stacking function's sequence may have: each row is two events, so more would let one
request make the judge record millions (pass a list of arrays instead)."""


class Event(NamedTuple):
    """One buffer event of a replayed call: ``buffer`` is -1 for the operand, else the index of a temporary."""

    is_write: bool
    buffer: int
    size: int


def traced_events(call: Callable[[Any], Any], operand: np.ndarray) -> list[Event]:
    """The events ``call(operand)`` records under the in-process tracer, without the operand's own first write;
    the result is discarded (the judge computes and charges its own)."""
    log = EventLog()
    tracked = track(operand.copy(), log)
    own = tracked._buf
    with np.errstate(all="ignore"):
        call(tracked)
    is_write, buffers, sizes = log.arrays()
    temporaries: dict[int, int] = {}
    events = []
    for write, buffer, size in zip(is_write[1:].tolist(), buffers[1:].tolist(), sizes[1:].tolist(), strict=True):
        index = -1 if buffer == own else temporaries.setdefault(buffer, len(temporaries))
        events.append(Event(write, index, size))
    return events


def row_events(shape: tuple[int, ...]) -> list[Event]:
    """What the tracer records when a stacking function iterates an array of ``shape`` as its sequence: per row, a
    read of the row from the operand and a fresh write of it, then one read of the operand in full (measured with
    ``engine.tracing.TrackedArray``: tests/engine/sandbox/test_price_property.py). The result's own write is the
    judge's, as for every call."""
    rows = shape[0] if shape else 0
    row = 1
    for d in shape[1:]:
        row *= d
    events = []
    for i in range(rows):
        events += [Event(False, -1, row), Event(True, i, row)]
    return [*events, Event(False, -1, rows * row)]


def redraw(rng: np.random.Generator, args: list[Any], kwargs: dict[str, Any]) -> Callable[[Any], Any]:
    """``np.random.permutation(operand, *args, **kwargs)`` from ``rng``, a copy of the judge's generator as it was
    before its own draw: numpy skips a swap when a row is drawn to stay in place, so the steps it records depend on
    the draws, and only the same draws record the same steps."""
    return lambda operand: rng.permutation(operand, *args, **kwargs)
