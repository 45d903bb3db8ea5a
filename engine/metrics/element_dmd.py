"""``dmd@1`` of a buffer-level trace: the group's element LRU stack distance, without expanding to elements.

Definition (docs/metrics.md#lru-stack-distance; the group's ``LRUStackTracker``, cybertronai/sparse-parity-challenge
``src/sparse_parity/lru_tracker.py``): a write of s floats to buffer b writes its elements (b, 0) … (b, s−1) in that
order, each moved to the top of one LRU stack; a read of s floats observes the depths of (b, 0) … (b, s−1) without
moving them, each costing √depth; an element never written is at depth (elements ever written + 1); nothing leaves
the stack. :func:`engine.metrics.lru_stack.dmd` computes this element by element; a whole training run touches
hundreds of millions of floats, so this module computes the same sum from the buffer-level events.

Method. Each buffer's index range is cut at every size it is written or read with, into *segments*; every event
covers whole segments, so a segment is always written as a block. An element (b, i) last written by the event p
(of s_p floats) and read at event t has depth E + s_p − i, where s_p − i − 1 elements of the same write lie above
it and E counts the elements whose latest write is an event strictly between p and t. E is the number of elements
written before t (each once) less the sizes of the segments whose latest write as of t is at or before p — a
weighted dominance count over (segment write, next write of that segment), answered offline by a merge-sort tree.
A read of the segment [lo, hi) then costs Σ_{j=E+s_p−hi+1}^{E+s_p−lo} √j = F(E+s_p−lo) − F(E+s_p−hi) with
F(x) = Σ_{j≤x} √j (a table up to 1,024, the Euler–Maclaurin series above). O(N log² N) array operations in the
number of segment events, no Python loop per event.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from engine.metrics.lru_stack import IntArray

TABLE = 1 << 10
"""F(x) is read from a table of prefix sums for x ≤ TABLE and from its asymptotic series above (whose first
omitted term is below 1e−22 there); a table much longer would gather rounding error in its running sum."""
ZETA_MINUS_HALF = -0.2078862249773545660173067253970493022262
"""ζ(−1/2), the constant of the Euler–Maclaurin expansion of Σ √j."""

_table: npt.NDArray[np.float64] | None = None


def _prefix_table() -> npt.NDArray[np.float64]:
    global _table
    if _table is None:
        _table = np.concatenate(([0.0], np.cumsum(np.sqrt(np.arange(1, TABLE + 1, dtype=np.float64)))))
    return _table


def _series(v: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """F(v) for v > TABLE: (2/3)v^1.5 + v^0.5/2 + ζ(−1/2) + v^−0.5/24 − v^−2.5/1920 + v^−4.5/9216 (the next term
    of the Euler–Maclaurin series is below 1e−22 there)."""
    r = np.sqrt(v)
    return (2.0 / 3.0) * v * r + r / 2 + ZETA_MINUS_HALF + 1 / (24 * r) - 1 / (1920 * v * v * r) + 1 / (9216 * v**4 * r)


def sqrt_prefix(x: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """F(x) = Σ_{j=1..x} √j elementwise (F(0) = 0): prefix sums up to :data:`TABLE`, the series above."""
    n = np.asarray(x, dtype=np.int64)
    big = n > TABLE
    out = _prefix_table()[np.where(big, 0, n)]
    out[big] = _series(n[big].astype(np.float64))
    return out


def sqrt_sum(lo: npt.ArrayLike, hi: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Σ_{j=lo+1..hi} √j = F(hi) − F(lo) elementwise (0 ≤ lo ≤ hi). Where both ends are past the table the leading
    terms are differenced without cancellation — h^1.5 − l^1.5 = (h − l)(h² + hl + l²)/(h^1.5 + l^1.5) — so a short
    range deep in the stack keeps full precision."""
    low, high = np.asarray(lo, dtype=np.int64), np.asarray(hi, dtype=np.int64)
    out = sqrt_prefix(high) - sqrt_prefix(low)
    deep = low > TABLE
    if deep.any():
        h, g = high[deep].astype(np.float64), low[deep].astype(np.float64)
        d = (high[deep] - low[deep]).astype(np.float64)
        rh, rg = np.sqrt(h), np.sqrt(g)
        out[deep] = (
            (2.0 / 3.0) * d * (h * h + h * g + g * g) / (h * rh + g * rg)
            + 0.5 * d / (rh + rg)
            - d / (24 * rh * rg * (rh + rg))
            - (1 / (h * h * rh) - 1 / (g * g * rg)) / 1920
            + (1 / (h**4 * rh) - 1 / (g**4 * rg)) / 9216
        )
    return out


def _sum_at_least(values: IntArray, weights: IntArray, prefix: IntArray, threshold: IntArray) -> IntArray:
    """For each query q: Σ weights[i] over i < prefix[q] with values[i] ≥ threshold[q] (offline).

    A merge-sort tree: at level L the positions fall in blocks of 2^L, sorted by value within each block, with the
    weights' running sum in that order; a prefix splits into one full block per set bit of its length, each answered
    by one ``searchsorted`` and two running-sum reads."""
    out = np.zeros(prefix.size, dtype=np.int64)
    m = int(values.size)
    if m == 0 or prefix.size == 0:
        return out
    span = int(max(int(values.max()), int(threshold.max()))) + 2
    position = np.arange(m, dtype=np.int64)
    order = position  # level 0: blocks of one, sorted as they are
    for level in range(m.bit_length()):
        keys = (position >> level) * span + values
        if level:  # each block is two sorted runs of the level below: a stable sort merges them
            order = order[np.argsort(keys[order], kind="stable")]
        q = np.flatnonzero((prefix >> level) & 1)
        if q.size == 0:
            continue
        size = 1 << level
        running = np.concatenate(([0], np.cumsum(weights[order])))
        block = (prefix[q] >> (level + 1)) << 1  # the full block [block·size, block·size + size) in the prefix
        at = np.searchsorted(keys[order], block * span + threshold[q])
        out[q] += running[block * size + size] - running[at]
    return out


def buffer_dmd(is_write: npt.ArrayLike, buffer: npt.ArrayLike, size: npt.ArrayLike) -> float:
    """``dmd@1`` (Σ √depth over element reads, floats^1.5 like ``dmc@1``) of buffer-level events; see the module
    docstring. Equal, up to float rounding, to :func:`engine.metrics.lru_stack.dmd` on the element expansion."""
    w = np.asarray(is_write, dtype=bool)
    b = np.asarray(buffer, dtype=np.int64)
    s = np.asarray(size, dtype=np.int64)
    keep = s > 0
    event = np.flatnonzero(keep)
    w, b, s = w[keep], b[keep], s[keep]
    if not (~w).any():
        return 0.0

    # segments: each buffer's distinct sizes are its cut points; an event of size s covers the cuts ≤ s
    scale = int(s.max()) + 1
    pair_keys = np.unique(b * scale + s)  # (buffer, size) pairs, sorted by buffer, then size
    pair_buffer, pair_size = pair_keys // scale, pair_keys % scale
    first_of_buffer = np.r_[True, pair_buffer[1:] != pair_buffer[:-1]]
    lo_of = np.where(first_of_buffer, 0, np.r_[0, pair_size[:-1]])  # a segment's lower cut
    starts = np.flatnonzero(first_of_buffer)
    start_of = starts[np.cumsum(first_of_buffer) - 1]  # row of the buffer's first segment
    rank = np.searchsorted(pair_keys, b * scale + s)
    covered = rank - start_of[rank] + 1  # segments an event covers
    at_event = np.repeat(np.arange(w.size), covered)
    segment = start_of[rank][at_event] + (np.arange(at_event.size) - np.repeat(np.cumsum(covered) - covered, covered))
    seg_w, seg_t, seg_s = w[at_event], event[at_event], s[at_event]
    seg_lo, seg_hi = lo_of[segment], pair_size[segment]
    seg_len = seg_hi - seg_lo

    # segment writes in time order; for each, the next write of the same segment (never: past the end)
    writes = np.flatnonzero(seg_w)
    by_segment = writes[np.argsort(segment[writes], kind="stable")]
    same = segment[by_segment[1:]] == segment[by_segment[:-1]]
    next_write = np.full(seg_w.size, int(event[-1]) + 1, dtype=np.int64)
    next_write[by_segment[:-1][same]] = seg_t[by_segment[1:][same]]
    first_write = np.ones(seg_w.size, dtype=bool)
    first_write[by_segment[1:][same]] = False
    write_t = seg_t[writes]
    ever = np.concatenate(([0], np.cumsum(np.where(first_write[writes], seg_len[writes], 0))))

    # each read segment: the latest earlier write of its segment (by segment, then time; writes sort first)
    reads = np.flatnonzero(~seg_w)
    live = ever[np.searchsorted(write_t, seg_t[reads])]  # elements written before the read
    order = np.lexsort((~seg_w, seg_t, segment))
    last = np.maximum.accumulate(np.where(seg_w[order], np.arange(order.size), -1))
    latest = np.full(seg_w.size, -1, dtype=np.int64)
    found = (last >= 0) & (segment[order[np.maximum(last, 0)]] == segment[order])
    latest[order[found]] = order[last[found]]
    latest = latest[reads]
    warm = latest >= 0

    total = float(np.dot(seg_len[reads][~warm], np.sqrt(live[~warm] + 1.0)))
    r, p = reads[warm], latest[warm]
    prefix = np.searchsorted(write_t, seg_t[p], side="right")  # segment writes at or before event p
    below = _sum_at_least(next_write[writes], seg_len[writes], prefix, seg_t[r] + 1)
    above = live[warm] - below + seg_s[p]  # E + s_p
    total += float(sqrt_sum(above - seg_hi[r], above - seg_lo[r]).sum())
    return total
