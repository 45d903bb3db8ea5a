"""The static check numbers a program's distinct addresses densely (the int8 simulator keeps one row per slot).

Oracle: ``np.unique(..., return_inverse=True)`` over all the references, the sort the presence table replaced
(engine/ir/static_check.py ``_numbered``), on small address ranges (the table) and wide ones (the sort).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ir.static_check import _numbered

_parts = st.lists(st.lists(st.integers(0, 3_000), max_size=40), min_size=1, max_size=4).map(
    lambda lists: tuple(np.asarray(values, dtype=np.int64) for values in lists)
)
_wide = st.lists(st.lists(st.integers(0, 2**40), max_size=20), min_size=1, max_size=4).map(
    lambda lists: tuple(np.asarray(values, dtype=np.int64) for values in lists)
)


def _by_sort(parts: tuple[np.ndarray, ...]) -> tuple[int, list[list[int]]]:
    universe = np.concatenate(parts)
    uniq, inverse = np.unique(universe, return_inverse=True)
    cuts = np.cumsum([p.size for p in parts])[:-1]
    return int(uniq.size), [part.tolist() for part in np.split(inverse, cuts)]


@settings(max_examples=150, deadline=None)
@given(st.one_of(_parts, _wide))
def test_slots_are_the_sorted_distinct_addresses(parts: tuple[np.ndarray, ...]) -> None:
    n_slots, mapped = _numbered(parts, exact=False)
    assert (n_slots, [m.tolist() for m in mapped]) == _by_sort(parts)
    assert all(m.dtype == np.int64 for m in mapped)


def test_a_hand_worked_layout() -> None:
    # addresses {1, 7, 600}: numbered 0, 1, 2 in increasing order, wherever they appear
    n_slots, mapped = _numbered((np.array([600, 1]), np.array([7, 7, 600])), exact=False)
    assert n_slots == 3 and [m.tolist() for m in mapped] == [[2, 0], [1, 1, 2]]
