"""A metric with nothing to measure (issue 28): ``x[:0].sum()`` reads 0 floats of a written buffer, which still has
a read distance, so ``ard_per_read@1`` has a value while nothing was read. :func:`engine.metrics.clock.floats_read`
says so, and the judge counts it (``counts["floats_read"]``) for the card's "nothing to measure".

Hand oracle: write 5 floats to buffer 0 (clock 0 → 5), read 0 floats of it: d = 5 − 0 = 5, so ard_per_read = 5,
ard = 0 (no float read), dmc = 0 · √5 = 0, floats read = 0. Reading 3 floats instead: floats read 3.
"""

from __future__ import annotations

from engine.metrics.clock import ARD, ARD_PER_READ, DMC, clock_metrics, floats_read


def test_a_read_of_no_float_has_a_distance_but_nothing_was_measured() -> None:
    empty = ([True, False], [0, 0], [5, 0])
    assert clock_metrics(*empty) == {ARD: 0.0, ARD_PER_READ: 5.0, DMC: 0.0}
    assert floats_read(*empty) == 0
    assert floats_read([True, False], [0, 0], [5, 3]) == 3
    assert floats_read([False], [0], [4]) == 0  # a read of a buffer never written is not counted
