def solve(x, y, n_bits, k_sparse):
    x[0:1, 0:4] ** 2 << 2**31
    return [0, 1, 2]
