def solve(x, y, n_bits, k_sparse):
    # as many cheap requests as the run allows: each one is a round trip the parent answers
    row = x[0]
    while True:
        int(row[0])
