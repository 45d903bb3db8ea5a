"""The simplified Dally read cost: reading cell ``a`` costs ⌈√a⌉ = isqrt(a−1)+1 (docs/metrics.md#dally-ir-cost).

Source: cybertronai/simplified-dally-model — memory cells are positive integers laid on a spiral around the
processor, so cell ``a`` sits ⌈√a⌉ steps away. cost(1)=1, cost(2..4)=2, cost(5..9)=3, cost(10..16)=4.
Priced with array arithmetic: a float square root, corrected by one integer step either way so it is exact for every
int64 address; larger (object) addresses use :func:`math.isqrt`.
"""

from __future__ import annotations

import math

import numpy as np

_EXACT_FLOAT_LIMIT = 2**62
"""Below this, isqrt(a-1) < 2**31 so the correction products fit in int64."""


def read_cost(addresses: np.ndarray) -> np.ndarray:
    """⌈√a⌉ for each address (all ≥ 1), as int64 (object array of ints for addresses beyond int64)."""
    a = np.asarray(addresses)
    if a.dtype == object or (a.size and int(a.max()) >= _EXACT_FLOAT_LIMIT):
        return np.array([math.isqrt(int(x) - 1) + 1 for x in a.ravel()], dtype=object).reshape(a.shape)
    x = a.astype(np.int64) - 1
    r = np.sqrt(x.astype(np.float64)).astype(np.int64)
    r -= r * r > x
    r += (r + 1) * (r + 1) <= x
    return r + 1


def total_cost(addresses: np.ndarray) -> int:
    """Σ ⌈√a⌉ over ``addresses`` (one term per read), as an exact Python int."""
    costs = read_cost(addresses)
    return int(costs.sum()) if costs.size else 0
