import numpy as np


def solve(x, y, n_bits, k_sparse):
    # the largest tracked arrays: every element of x copied many times on the element shadow
    parts = [x * i for i in range(1, 200)]
    while True:
        parts.append(np.concatenate(parts[-50:]) + 1)
