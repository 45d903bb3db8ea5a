"""The element shadow's memory bound: the trace never grows past ``max_events`` accesses by more than one step.

Oracle: access counts by hand (a binary op on two tracked elements records two reads and a store; wrapping an
array one store per element) and the bound's rule in engine/sandbox/remote/element_shadow.py.
"""

from __future__ import annotations

import numpy as np

from engine.sandbox.remote.element_shadow import EVENTS_PER_ELEMENT, STOPPED_EVENTS, ElementShadow


def shadow_of(x: np.ndarray, max_events: int) -> ElementShadow:
    return ElementShadow([x], [1], 100.0, [0.0], [0.0], max_events=max_events)


def test_a_step_that_could_pass_the_bound_is_not_run() -> None:
    x = np.arange(200.0)
    shadow = shadow_of(x, max_events=1000)
    xs = shadow.shadow(1, x)
    assert len(shadow.trace) == 200  # one store per input element
    # estimated: (200 + 200 + 200 result) elements × 6 accesses, far past 1000 - 200: refused before running
    assert 200 + EVENTS_PER_ELEMENT * 600 > 1000
    assert shadow.run(lambda: xs + xs, (xs, xs), x + x, "add") is None
    assert shadow.stopped == STOPPED_EVENTS.format(1000)
    assert len(shadow.trace) == 200  # nothing of the step was recorded
    assert shadow.cost() is None


def test_the_trace_stops_after_the_step_that_passes_the_bound() -> None:
    x = np.arange(10.0)
    shadow = shadow_of(x, max_events=400)
    xs = shadow.shadow(1, x)
    steps = 0
    while shadow.active:
        before = len(shadow.trace)
        # estimated 6 × 30 = 180 accesses; records 30 (two reads and a store per element)
        result = shadow.run(lambda: xs * xs, (xs, xs), x * x, "multiply")
        steps += 1
        if shadow.active:
            assert result is not None and len(shadow.trace) == before + 30
    # runs while 180 more fit: 10 + 30·k + 180 ≤ 400 for k = 0..7 (8 steps, 250 accesses), the 9th is refused
    assert steps == 8 + 1 and len(shadow.trace) == 10 + 30 * 7 + 30
    assert shadow.stopped == STOPPED_EVENTS.format(400)


def test_a_step_recording_more_than_its_estimate_stops_the_trace_after_it() -> None:
    x = np.arange(10.0)
    shadow = shadow_of(x, max_events=100)
    xs = shadow.shadow(1, x)
    # priced as a reduction of xs (10 + 1 elements: 66 accesses at most by the estimate, which fits); it runs three
    # multiplies (two reads and a store per element: 90 accesses) and a sum (9 adds: 27), 127 accesses in all
    assert 10 + EVENTS_PER_ELEMENT * (10 + 1) <= 100
    assert shadow.run(lambda: (xs * xs * xs * xs).sum(), (xs,), float((x**4).sum()), "sum") is not None
    assert len(shadow.trace) == 127
    assert shadow.stopped == STOPPED_EVENTS.format(100)
