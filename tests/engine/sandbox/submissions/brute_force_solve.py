"""Honest brute-force solve(): try every k-subset until its parity explains every training label."""

from itertools import combinations

import numpy as np


def solve(x, y, n_bits, k_sparse):
    for combo in combinations(range(n_bits), k_sparse):
        if (np.prod(x[:, list(combo)], axis=1) == y).all():
            return list(combo)
    return []
