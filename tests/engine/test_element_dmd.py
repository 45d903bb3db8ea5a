"""``dmd@1`` from buffer-level events equals the element tracker run element by element.

Oracles: hand-worked stack distances on tiny traces; the element-level tracker (``observe_depths``, itself checked
against a list-scan oracle in test_lru_stack.py) on the element expansion of random traces; direct sums of √j for
the prefix-sum series."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.metrics.element_dmd import TABLE, buffer_dmd, sqrt_prefix, sqrt_sum
from engine.metrics.lru_stack import dmd


def expanded(events: list[tuple[bool, int, int]]) -> tuple[list[bool], list[int]]:
    """The group's convention: an event of s floats touches elements (b, 0) … (b, s−1) in order."""
    kinds, keys = [], []
    scale = 1 + max((size for _, _, size in events), default=0)
    for write, buffer, size in events:
        for i in range(size):
            kinds.append(write)
            keys.append(buffer * scale + i)
    return kinds, keys


def test_hand_worked_traces() -> None:
    # write a[2], write b[1]: stack top→bottom b0, a1, a0; read a[2]: a0 at 3, a1 at 2
    assert buffer_dmd([True, True, False], [0, 1, 0], [2, 1, 2]) == pytest.approx(math.sqrt(3) + math.sqrt(2))
    # ... then rewrite a with 1 float: a0 on top (b0, a1 below); read a[2]: a0 at 1, a1 at 3 (a0 and b0 above it)
    assert buffer_dmd([True, True, True, False], [0, 1, 0, 0], [2, 1, 1, 2]) == pytest.approx(1 + math.sqrt(3))
    # a read of a buffer never written: every element at depth (elements written + 1) = 3
    assert buffer_dmd([True, False], [0, 5], [2, 3]) == pytest.approx(3 * math.sqrt(3))
    # reads do not move: reading a twice costs the same both times
    assert buffer_dmd([True, True, False, False], [0, 1, 0, 0], [1, 1, 1, 1]) == pytest.approx(2 * math.sqrt(2))
    assert buffer_dmd([True], [0], [4]) == 0.0 and buffer_dmd([], [], []) == 0.0


@pytest.mark.parametrize("seed", range(40))
def test_random_traces_match_the_element_tracker(seed: int) -> None:
    rng = np.random.RandomState(seed)
    events = [
        (bool(rng.rand() < 0.5), int(rng.randint(1 + seed % 7)), int(rng.randint(0, 1 + rng.choice([1, 3, 9]))))
        for _ in range(rng.randint(1, 60))
    ]
    w, b, s = (list(column) for column in zip(*events, strict=True))
    kinds, keys = expanded(events)
    assert buffer_dmd(w, b, s) == pytest.approx(dmd(kinds, keys), rel=1e-12, abs=1e-12)


def test_deep_stacks_use_the_series_and_match_direct_sums() -> None:
    for x in (0, 1, 2, 17, TABLE, TABLE + 1, 3 * TABLE + 5, 10**7):
        direct = math.fsum(math.sqrt(j) for j in range(1, x + 1)) if x <= 4 * TABLE else None
        value = float(sqrt_prefix([x])[0])
        if direct is not None:
            assert value == pytest.approx(direct, rel=1e-14, abs=1e-12)
    # a short range deep in the stack keeps full precision: Σ √j over (lo, hi] summed directly
    for lo, hi in ((10**7 - 1, 10**7), (10**9, 10**9 + 5), (TABLE - 3, TABLE + 4), (TABLE + 1, 2 * TABLE), (5, 9)):
        direct = math.fsum(math.sqrt(j) for j in range(lo + 1, hi + 1))
        assert float(sqrt_sum([lo], [hi])[0]) == pytest.approx(direct, rel=1e-13)


def test_a_long_trace_over_many_levels_matches() -> None:
    rng = np.random.RandomState(7)
    events = [(bool(rng.rand() < 0.4), int(rng.randint(40)), int(rng.choice([1, 2, 5, 8]))) for _ in range(3000)]
    w, b, s = (list(column) for column in zip(*events, strict=True))
    assert buffer_dmd(w, b, s) == pytest.approx(dmd(*expanded(events)), rel=1e-12)


def test_a_method_run_reports_the_element_trackers_dmd_of_its_whole_run() -> None:
    from engine.methods import METHODS, run_method
    from engine.methods.runner import run_traced

    result = run_method("km_min", {"n": "20", "k": "3", "seed": "3"})
    _, log, *_ = run_traced(METHODS.get("km_min"), {"n": 20, "k": 3, "seed": 3})
    w, b, s = log.arrays()
    events = list(zip(w.tolist(), b.tolist(), s.tolist(), strict=True))
    assert result.metric_scopes["dmd@1"] == "whole run"
    assert result.metrics["dmd@1"] == pytest.approx(dmd(*expanded(events)), rel=1e-12)
