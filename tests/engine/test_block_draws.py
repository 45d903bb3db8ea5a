"""BlockDraws gives the values a RandomState of the same seed gives, call for call.

Oracle: ``np.random.RandomState(seed)`` itself, on random sequences of ``rand()``, ``randint(n)`` and
``randint(low, high)`` calls (spans of 1, powers of two, just above them, and up to 2**32), so the masked
rejection, the zero-width span that draws nothing and the block boundary are all crossed.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.methods.block_draws import BLOCK, BlockDraws

_call = st.one_of(
    st.just(("rand",)),
    st.tuples(st.just("randint"), st.sampled_from([1, 2, 3, 4, 5, 7, 8, 9, 1000, 1024, 1025, 2**31 - 1, 2**32])),
    st.tuples(st.just("range"), st.integers(-50, 50), st.integers(1, 70)),
)


def _same(seed: int, calls: list[tuple[object, ...]]) -> None:
    ours, theirs = BlockDraws(seed), np.random.RandomState(seed)
    for call in calls:
        if call[0] == "rand":
            assert ours.rand() == theirs.rand()
        elif call[0] == "randint":
            n = int(call[1])  # type: ignore[call-overload]
            assert ours.randint(n) == theirs.randint(n)
        else:
            low, width = int(call[1]), int(call[2])  # type: ignore[call-overload]
            assert ours.randint(low, low + width) == theirs.randint(low, low + width)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31 - 2), st.lists(_call, max_size=60))
def test_the_same_values_as_random_state(seed: int, calls: list[tuple[object, ...]]) -> None:
    _same(seed, calls)


def test_across_block_boundaries() -> None:
    # rand() takes two words: 3 × BLOCK calls cross two boundaries, one of them between a double's two words
    calls: list[tuple[object, ...]] = [("randint", 1000), ("rand",)] * (BLOCK + 7)
    _same(42, calls)


def test_an_empty_range_is_refused_like_numpy() -> None:
    with pytest.raises(ValueError):
        BlockDraws(0).randint(0)
    with pytest.raises(ValueError):
        np.random.RandomState(0).randint(0)


def test_under_tracing_a_block_records_what_one_call_a_number_records() -> None:
    """Oracle: the events a RandomState records for the same scalar calls (its seeding only: scalar draws are
    untracked), so a traced method's metrics do not change with the way its numbers are drawn."""
    from engine.tracing import EventLog
    from engine.tracing.tracked_array import tracing

    def events(make: type) -> tuple[list[list[int]], list[float]]:
        log = EventLog()
        with tracing(log):
            rng = make(7)
            values = [float(rng.randint(1000)) for _ in range(BLOCK + 10)] + [rng.rand() for _ in range(50)]
        return [a.tolist() for a in log.arrays()], values

    assert events(BlockDraws) == events(np.random.RandomState)
