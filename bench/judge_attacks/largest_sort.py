import numpy as np


def solve(x, y, n_bits, k_sparse):
    # the largest arrays the budget allows, sorted again and again (the parent's numpy work)
    big = np.tile(x, (400, 1)).astype(np.float64)
    while True:
        np.sort(big + np.random.normal(size=big.shape), axis=None)
