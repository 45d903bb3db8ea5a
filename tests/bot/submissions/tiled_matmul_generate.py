"""A member's generate(): the 16x16 matmul in 4x4 tiles staged in the cheapest addresses
(docs/challenges.md#matmul-ir-track).

Layout: A tile at 1..16, B tile at 17..32, C accumulator at 33..48, one temp at 49, then the matrices
A (50..305), B (306..561) and C (562..817), row-major. Expected dally@1: 133,783 (reference/expected.tsv,
tiled_16x16).
"""

N, T = 16, 4


def generate():
    temp = 3 * T * T + 1
    a_base = temp + 1
    b_base = a_base + N * N
    c_base = b_base + N * N
    a_tile = lambda i, k: 1 + i * T + k  # noqa: E731
    b_tile = lambda k, j: 1 + T * T + k * T + j  # noqa: E731
    c_tile = lambda i, j: 1 + 2 * T * T + i * T + j  # noqa: E731
    lines = [",".join(str(a) for a in range(a_base, c_base))]
    tiles = range(N // T)
    cells = [(r, c) for r in range(T) for c in range(T)]
    for bi in tiles:
        for bj in tiles:
            for bk in tiles:
                for i, k in cells:
                    lines.append(f"copy {a_tile(i, k)},{a_base + (bi * T + i) * N + bk * T + k}")
                for k, j in cells:
                    lines.append(f"copy {b_tile(k, j)},{b_base + (bk * T + k) * N + bj * T + j}")
                for i, j in cells:
                    for k in range(T):
                        lines.append(f"mul {temp},{a_tile(i, k)},{b_tile(k, j)}")
                        op = "copy" if bk == 0 and k == 0 else "add"
                        lines.append(f"{op} {c_tile(i, j)},{temp}")
            for i, j in cells:
                lines.append(f"copy {c_base + (bi * T + i) * N + bj * T + j},{c_tile(i, j)}")
    lines.append(",".join(str(c) for c in range(c_base, c_base + N * N)))
    return "\n".join(lines)
