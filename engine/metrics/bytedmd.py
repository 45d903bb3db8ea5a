"""ByteDMD (``bytedmd@2``): data-movement cost of Python-level code on an LRU stack of live values.

Definition (docs/metrics.md#bytedmd; the group's reference is cybertronai/ByteDMD ``bytedmd.py``): the arguments are
placed on the stack in reverse argument order, each argument's elements in iteration order; each arithmetic or
comparison op prices all its tracked operands against the stack as it was before the op, then moves the distinct
operands to the top in read order and pushes its result; a value leaves the stack right after its last use unless it is
reachable from the return value. A read at element depth d costs ``ceil(sqrt(d))``; with b bytes per element it
costs Σ ceil(sqrt(j)) for j = (d-1)·b+1 … d·b.

For numpy code (arrays passed as arguments) the cost is that of the equivalent element loop in C order: arrays
become object arrays of tracked elements and numpy evaluates them element by element. A tracked scalar on the left
of an array (``c * A``) is read once, after the elements, exactly as the reference tracer does (``A * c`` reads it
with every element); the differential test (``tests/engine/test_reference_differential.py``) pins this.

Versions: ``bytedmd@1`` read that left-hand scalar with every element (``c * [a, b, d]`` cost 12 where the reference
charges 8); ``bytedmd@2`` follows the reference. Nothing else differs; sgd's one step at n=20 is 0.77 % lower under
``@2``. Runs stored under ``@1`` keep that name (docs/metrics.md#bytedmd-versions).

Escapes: branching on a tracked value (``if x > 0``), ``int()``, ``float()``, ``bool()`` and indexing with a tracked
value read it once but yield an untracked value; later work on that value is free. See
:mod:`engine.tracing.tracked_scalar`.

Computed from one element trace by :func:`engine.metrics.lru_stack.bytedmd_depths` in O(N log N).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.errors import BadParameter
from engine.metrics.lru_stack import bytedmd_depths
from engine.tracing.tracked_scalar import ElementTrace, call_traced

BYTEDMD = "bytedmd@2"


def _sum_ceil_sqrt(n: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Σ_{j=1..n} ceil(sqrt(j)), elementwise, exactly (closed form with M = ceil(sqrt(n)))."""
    n = np.asarray(n, dtype=np.int64)
    m = np.where(n > 0, _isqrt(np.maximum(n - 1, 0)) + 1, 0)
    return np.where(n > 0, m * (6 * n - 2 * m * m + 3 * m - 1) // 6, 0)


def _isqrt(n: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Exact integer square root, elementwise (float estimate corrected by one step each way)."""
    r = np.floor(np.sqrt(n.astype(np.float64))).astype(np.int64)
    r = np.where(r * r > n, r - 1, r)
    return np.where((r + 1) * (r + 1) <= n, r + 1, r)


_FLOAT_EXACT_DEPTH = 2**50
"""Below this depth ``ceil(sqrt(d))`` in float64 is exact: the int64 converts exactly, IEEE ``sqrt`` is correctly
rounded, and when k² < d ≤ (k+1)² the distance from √d to k (more than 1/(2k+1)) is more than half a unit in the
last place of k (at most k·2⁻⁵³) for k ≤ 2²⁵, so the rounded root is k exactly for d = k² and above k otherwise."""


def read_costs(depths: npt.ArrayLike, bytes_per_element: int = 1) -> npt.NDArray[np.int64]:
    """Cost of each read at the given element depths (see module docstring)."""
    d = np.asarray(depths, dtype=np.int64)
    if bytes_per_element == 1:
        if d.size and int(d.max()) < _FLOAT_EXACT_DEPTH:  # one float pass, not the corrected isqrt's seven
            root = np.sqrt(np.maximum(d, 1), dtype=np.float64)
            return np.ceil(root, out=root).astype(np.int64)
        return _isqrt(np.maximum(d - 1, 0)) + 1
    b = bytes_per_element
    return _sum_ceil_sqrt(d * b) - _sum_ceil_sqrt((d - 1) * b)


@dataclass(frozen=True)
class ByteDMDTrace:
    """One traced call: the per-read depths (in read order), the read keys, the result and the access count."""

    depths: npt.NDArray[np.int64]
    keys: npt.NDArray[np.int64]
    result: Any
    accesses: int

    def cost(self, bytes_per_element: int = 1) -> int:
        return int(read_costs(self.depths, bytes_per_element).sum())

    def lines(self, bytes_per_element: int = 1) -> list[str]:
        """Human-readable per-read trace: ``read v<key> @ depth d  cost c``."""
        costs = read_costs(self.depths, bytes_per_element)
        return [f"read v{k} @ depth {d}  cost {c}" for k, d, c in zip(self.keys, self.depths, costs, strict=True)]


def depths_of(trace: ElementTrace, keep: Sequence[int]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Per-read depths and keys of an element trace, ``keep`` = keys alive to the end."""
    kind, key, op = trace.columns()
    depths = bytedmd_depths(kind, key, op, np.asarray(keep, dtype=np.int64))
    return depths, key[~kind]


def _check_bytes(bytes_per_element: int) -> None:
    if isinstance(bytes_per_element, bool) or not isinstance(bytes_per_element, int) or bytes_per_element < 1:
        raise BadParameter(f"bytes_per_element={bytes_per_element!r} is not allowed", hint="use an integer ≥ 1")


def bytedmd_trace(func: Callable[..., Any], args: Sequence[Any]) -> ByteDMDTrace:
    """Trace ``func(*args)`` once and return its per-read depths (and its plain result)."""
    trace, result, kept = call_traced(func, tuple(args))
    depths, keys = depths_of(trace, kept)
    return ByteDMDTrace(depths=depths, keys=keys, result=result, accesses=len(trace))


def bytedmd(func: Callable[..., Any], args: Sequence[Any], bytes_per_element: int = 1) -> int:
    """ByteDMD cost of ``func(*args)`` (integer). ``args``: scalars, nested lists/tuples and numpy arrays."""
    _check_bytes(bytes_per_element)
    return bytedmd_trace(func, args).cost(bytes_per_element)


def ceil_sqrt(d: int) -> int:
    """``ceil(sqrt(d))`` for d ≥ 1 (the cost of one read at depth d, 1 byte per element)."""
    return math.isqrt(d - 1) + 1
