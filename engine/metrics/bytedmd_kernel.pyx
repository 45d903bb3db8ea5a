# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""ByteDMD read depths by one compiled pass over the accesses: the optional fast path of
:func:`engine.metrics.lru_stack.bytedmd_depths` (built at install when a C compiler is present; the array-operation
version in ``lru_stack.py`` is the oracle and is used when this module is absent).

The stack is simulated directly: every live value holds a *slot*, the 1-based index of its latest touch, counted in
a Fenwick tree over access indices, so a read's depth is the number of live slots at or after its own. Each read
batch is priced against the stack as it was before the batch; then its distinct operands move to the top in read
order, and a value whose last access falls in the batch leaves the stack unless it is kept. O(N log N) in C, no Python
object per access.
"""

import numpy as np

from libc.stdint cimport int32_t, int64_t
from libc.stdlib cimport calloc, free, malloc


cdef inline void _add(int32_t* tree, Py_ssize_t size, Py_ssize_t i, int32_t delta) noexcept nogil:
    while i < size:
        tree[i] += delta
        i += i & -i


cdef inline int64_t _prefix(const int32_t* tree, Py_ssize_t i) noexcept nogil:
    cdef int64_t total = 0
    while i > 0:
        total += tree[i]
        i -= i & -i
    return total


def bytedmd_depths(
    const unsigned char[::1] is_store,
    const int64_t[::1] key,
    const int64_t[::1] op,
    const int64_t[::1] keep,
    Py_ssize_t n_keys,
):
    """Depth of every read, in access order; arguments as in ``lru_stack.bytedmd_depths`` (``is_store`` as uint8,
    every key and every kept key in ``[0, n_keys)``). Raises ValueError when a key is read before it is stored."""
    cdef Py_ssize_t n = key.shape[0]
    cdef Py_ssize_t i, j, r, w = 0, n_reads = 0
    cdef int64_t k, live = 0
    cdef int bad = 0
    for i in range(n):
        if not is_store[i]:
            n_reads += 1
    out = np.empty(n_reads, dtype=np.int64)
    cdef int64_t[::1] depth = out
    cdef int32_t* tree = <int32_t*> calloc(n + 1, sizeof(int32_t))
    cdef int64_t* last = <int64_t*> malloc(max(n_keys, 1) * sizeof(int64_t))
    cdef int64_t* slot = <int64_t*> calloc(max(n_keys, 1), sizeof(int64_t))
    cdef int64_t* seen = <int64_t*> malloc(max(n_keys, 1) * sizeof(int64_t))
    if tree == NULL or last == NULL or slot == NULL or seen == NULL:
        free(tree); free(last); free(slot); free(seen)
        raise MemoryError()
    with nogil:
        for k in range(n_keys):
            last[k] = -1
            seen[k] = -1
        for i in range(n):
            last[key[i]] = i
        for i in range(keep.shape[0]):
            last[keep[i]] = n  # alive to the end
        i = 0
        while i < n:
            if is_store[i]:
                k = key[i]
                if last[k] > i:
                    slot[k] = i + 1
                    _add(tree, n + 1, i + 1, 1)
                    live += 1
                i += 1
                continue
            j = i
            while j < n and op[j] == op[i] and not is_store[j]:
                j += 1
            for r in range(i, j):  # price the batch against the stack before it
                k = key[r]
                if slot[k] == 0:
                    bad = 1
                    break
                depth[w] = live - _prefix(tree, slot[k] - 1)
                w += 1
            if bad:
                break
            for r in range(i, j):  # distinct operands to the top in read order; the dead leave
                k = key[r]
                if seen[k] == op[r]:
                    continue
                seen[k] = op[r]
                _add(tree, n + 1, slot[k], -1)
                live -= 1
                if last[k] >= j:
                    slot[k] = r + 1
                    _add(tree, n + 1, r + 1, 1)
                    live += 1
                else:
                    slot[k] = 0
            i = j
    free(tree); free(last); free(slot); free(seen)
    if bad:
        raise ValueError("a key is read before it is stored")
    return out
