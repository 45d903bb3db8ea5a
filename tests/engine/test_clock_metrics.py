"""Clock-based ard/dmc: the worked example of docs/metrics.md#reuse-distance-worked-examples and a slow per-event
oracle."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from engine.metrics.clock import ARD, ARD_PER_READ, DMC, clock_metrics, dmc_sum, read_distances


def test_worked_example() -> None:
    # write a(1), write b(2), read a(1), read b(2), read a(1) -> d = 3, 3, 6
    m = clock_metrics([True, True, False, False, False], [0, 1, 0, 1, 0], [1, 2, 1, 2, 1])
    assert m[ARD] == 3.75
    assert m[ARD_PER_READ] == 4.0
    assert math.isclose(m[DMC], 3 * math.sqrt(3) + math.sqrt(6))
    assert round(m[DMC], 4) == 7.6456


def test_unwritten_reads_advance_the_clock_but_are_not_counted() -> None:
    # read z(5) (never written), write a(1), read z(1), read a(1): only the last read counts, d = 2
    rd = read_distances([False, True, False, False], [9, 0, 9, 0], [5, 1, 1, 1])
    assert rd.event.tolist() == [3]
    assert rd.distance.tolist() == [2]


def test_empty_and_read_free_sequences() -> None:
    assert clock_metrics([], [], []) == {ARD: 0.0, ARD_PER_READ: 0.0, DMC: 0.0}
    assert clock_metrics([True], [0], [4])[DMC] == 0.0


def _oracle(events: list[tuple[bool, int, int]]) -> list[int]:
    clock, last_write, out = 0, {}, []
    for is_write, buf, size in events:
        if is_write:
            last_write[buf] = clock
        elif buf in last_write:
            out.append(clock - last_write[buf])
        clock += size
    return out


@given(st.lists(st.tuples(st.booleans(), st.integers(0, 4), st.integers(1, 50)), max_size=200))
def test_matches_a_per_event_oracle(events: list[tuple[bool, int, int]]) -> None:
    w = np.array([e[0] for e in events], dtype=bool)
    b = np.array([e[1] for e in events], dtype=np.int64)
    s = np.array([e[2] for e in events], dtype=np.int64)
    assert read_distances(w, b, s).distance.tolist() == _oracle(events)


@given(
    st.lists(
        st.tuples(st.integers(1, 10_000), st.integers(1, 10**9)),
        min_size=1,
        max_size=300,
    ),
    st.randoms(use_true_random=False),
)
def test_dmc_is_the_exactly_rounded_sum_whatever_the_order(reads: list[tuple[int, int]], rng: random.Random) -> None:
    # Oracle: the products s·√d as floats, summed exactly with Fraction and rounded once. The same value for any
    # order of the reads, so a seed's dmc does not depend on how a BLAS would split the sum among its threads.
    size = np.array([s for s, _ in reads], dtype=np.float64)
    distance = np.array([d for _, d in reads], dtype=np.float64)
    products = size * np.sqrt(distance)
    exact = float(sum((Fraction(float(p)) for p in products), Fraction(0)))
    assert dmc_sum(size, distance) == exact
    order = list(range(len(reads)))
    rng.shuffle(order)
    assert dmc_sum(size[order], distance[order]) == exact
