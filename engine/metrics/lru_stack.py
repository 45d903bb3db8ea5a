"""LRU stack depths in O(N log N): a Fenwick tree over access times, never a list scan.

Every live element occupies one *slot*: the time (access index, 1-based) of its latest touch. The depth of an
element = the number of occupied slots at or after its own slot (depth 1 = most recently used), which a Fenwick tree
answers in O(log N); moving an element to the top clears its old slot and occupies the current time's slot.

Two disciplines are offered:

- :func:`bytedmd_depths` — ByteDMD's stack (docs/metrics.md#bytedmd; cybertronai/ByteDMD ``bytedmd.py``): accesses come
  in *operations* (a store of a new value, or a batch of reads by one arithmetic op); all reads of a batch are priced
  against the stack as it was before the batch (a repeated operand pays the same depth twice), then the distinct
  operands move to the top in read order; a value leaves the stack right after its last use (its last read, or its
  store if never read) unless it is kept alive (reachable from the return value).
- :func:`observe_depths` — the group's element LRU tracker (cybertronai/sparse-parity-challenge
  ``lru_tracker.py``): a write moves the element to the top; a read observes its depth without moving it; a read of
  an element never written has depth (live elements + 1). No liveness.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]


def _add(tree: list[int], i: int, delta: int) -> None:
    n = len(tree)
    while i < n:
        tree[i] += delta
        i += i & -i


def _prefix(tree: list[int], i: int) -> int:
    total = 0
    while i > 0:
        total += tree[i]
        i -= i & -i
    return total


def last_use(is_store: npt.ArrayLike, key: npt.ArrayLike, op: npt.ArrayLike, keep: npt.ArrayLike = ()) -> IntArray:
    """Per key: the op of its last read, else the op of its store; keys in ``keep`` get ``op.max() + 1``."""
    s = np.asarray(is_store, dtype=bool)
    k = np.asarray(key, dtype=np.int64)
    o = np.asarray(op, dtype=np.int64)
    n_keys = int(k.max()) + 1 if k.size else 0
    last = np.full(n_keys, -1, dtype=np.int64)
    np.maximum.at(last, k[s], o[s])
    reads = ~s
    if reads.any():
        read_last = np.full(n_keys, -1, dtype=np.int64)
        np.maximum.at(read_last, k[reads], o[reads])
        last = np.where(read_last >= 0, read_last, last)
    kept = np.asarray(keep, dtype=np.int64)
    if kept.size:
        last[kept] = (int(o.max()) + 1) if o.size else 0
    return last


def bytedmd_depths(
    is_store: npt.ArrayLike, key: npt.ArrayLike, op: npt.ArrayLike, keep: npt.ArrayLike = ()
) -> IntArray:
    """Depth of every read under ByteDMD's discipline (module docstring), in access order.

    is_store[i]: access i stores a new value (its own op); otherwise it is a read in the batch ``op[i]``.
    key[i]: the value's id (0 ≤ key). op[i]: non-decreasing operation number. keep: ids alive to the end.
    """
    s = np.asarray(is_store, dtype=bool)
    k = np.asarray(key, dtype=np.int64)
    o = np.asarray(op, dtype=np.int64)
    n = int(s.size)
    death = last_use(s, k, o, keep).tolist()
    depths = np.zeros(int((~s).sum()), dtype=np.int64)
    if n == 0:
        return depths
    starts = np.flatnonzero(np.r_[True, o[1:] != o[:-1]]).tolist() + [n]
    store_l, key_l, op_l = s.tolist(), k.tolist(), o.tolist()
    tree = [0] * (n + 1)
    slot = [0] * len(death)
    live = 0
    out: list[int] = []
    size = n + 1
    for b in range(len(starts) - 1):
        i, j = starts[b], starts[b + 1]
        now = op_l[i]
        if store_l[i]:
            kk = key_l[i]
            if death[kk] > now:
                slot[kk] = t = i + 1
                while t < size:
                    tree[t] += 1
                    t += t & -t
                live += 1
            continue
        batch = key_l[i:j]
        for kk in batch:  # price every operand against the stack before the op: live - #slots below its own
            t, below = slot[kk] - 1, 0
            while t > 0:
                below += tree[t]
                t -= t & -t
            out.append(live - below)
        for p, kk in enumerate(batch, start=i + 1):
            t = slot[kk]
            if t > i:  # already moved in this batch (a repeated operand)
                continue
            while t < size:
                tree[t] -= 1
                t += t & -t
            if death[kk] > now:
                slot[kk] = t = p
                while t < size:
                    tree[t] += 1
                    t += t & -t
            else:  # dead after this batch; the sentinel marks it as handled for a repeated operand
                slot[kk] = n + 1
                live -= 1
    depths[:] = out
    return depths


def observe_depths(is_write: npt.ArrayLike, key: npt.ArrayLike) -> IntArray:
    """Depth of every read under the group's element LRU tracker (writes move, reads observe), in order."""
    w = np.asarray(is_write, dtype=bool).tolist()
    k = np.asarray(key, dtype=np.int64).tolist()
    n = len(w)
    tree = [0] * (n + 1)
    slot: dict[int, int] = {}
    live = 0
    out: list[int] = []
    for t in range(n):
        kk = k[t]
        old = slot.get(kk, 0)
        if w[t]:
            if old:
                _add(tree, old, -1)
            else:
                live += 1
            slot[kk] = t + 1
            _add(tree, t + 1, 1)
        else:
            out.append(live - _prefix(tree, old - 1) if old else live + 1)
    return np.asarray(out, dtype=np.int64)


DMD = "dmd@1"


def dmd(is_write: npt.ArrayLike, key: npt.ArrayLike) -> float:
    """``dmd@1``: Σ √depth over element reads, under :func:`observe_depths` (the group's element LRU tracker)."""
    return float(np.sqrt(observe_depths(is_write, key).astype(np.float64)).sum())
