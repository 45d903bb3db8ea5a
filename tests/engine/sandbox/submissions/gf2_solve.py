"""Honest GF(2) solve(): Gaussian elimination over GF(2) on the bit matrix (docs/challenges.md#built-in-methods,
`gf2`)."""

import numpy as np


def solve(x, y, n_bits, k_sparse):
    a = ((1 - x) // 2).astype(np.int64)
    b = ((1 - y) // 2).astype(np.int64)
    m = np.concatenate([a, b.reshape(-1, 1)], axis=1)
    rows = m.shape[0]
    pivots = []
    r = 0
    for c in range(n_bits):
        nz = np.flatnonzero(m[r:, c])
        if len(nz) == 0:
            continue
        p = r + int(nz[0])
        if p != r:
            m[[r, p]] = m[[p, r]]
        mask = m[:, c].copy()
        mask[r] = 0
        m ^= np.outer(mask, m[r])
        pivots.append(c)
        r += 1
        if r == rows:
            break
    return sorted(c for i, c in enumerate(pivots) if int(m[i, n_bits]))
