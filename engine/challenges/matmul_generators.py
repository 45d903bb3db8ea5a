"""Built-in matmul IR generators (docs/challenges.md#matmul-ir-track): the naive triple loop for any n and the tiled
16×16 program.

They reproduce the published baselines of cybertronai/sutro-problems: 4×4 baseline 1,316; 16×16 baseline 340,704;
tiled 16×16 133,783 (dally@1), and the same program text as the published ``.ir`` files.
"""

from __future__ import annotations


def _program(inputs: list[int], body: list[str], outputs: list[int]) -> str:
    return "\n".join([",".join(map(str, inputs)), *body, ",".join(map(str, outputs))])


def baseline(n: int) -> str:
    """Naive i-j-k loop. A at 1..n², B at n²+1..2n², C at 2n²+1..3n² (row-major), one temp at 3n²+1.

    C[i][j] starts as A[i][0]·B[0][j]; each further product goes through the temp and is added in place.
    """
    nn = n * n
    a_at = [[1 + i * n + j for j in range(n)] for i in range(n)]
    b_at = [[1 + nn + i * n + j for j in range(n)] for i in range(n)]
    c_at = [[1 + 2 * nn + i * n + j for j in range(n)] for i in range(n)]
    temp = 3 * nn + 1
    body: list[str] = []
    for i in range(n):
        for j in range(n):
            body.append(f"mul {c_at[i][j]},{a_at[i][0]},{b_at[0][j]}")
            for k in range(1, n):
                body.append(f"mul {temp},{a_at[i][k]},{b_at[k][j]}")
                body.append(f"add {c_at[i][j]},{temp}")
    inputs = [x for row in a_at for x in row] + [x for row in b_at for x in row]
    return _program(inputs, body, [x for row in c_at for x in row])


def tiled_16x16() -> str:
    """4×4 tiles staged in the cheapest cells: A-tile at 1..16, B-tile at 17..32, C accumulator at 33..48, temp 49.

    The bulk matrices follow: A at 50.., B at 306.., C at 562.. (row-major). For each C tile and each k tile the A and
    B tiles are copied in, multiplied into the accumulator (the first product initialises it), and the finished
    accumulator is copied out to C.
    """
    n, t = 16, 4
    temp = 3 * t * t + 1
    a0, b0 = temp + 1, temp + 1 + n * n
    c0 = b0 + n * n

    def tile_a(i: int, k: int) -> int:
        return 1 + i * t + k

    def tile_b(k: int, j: int) -> int:
        return 1 + t * t + k * t + j

    def tile_c(i: int, j: int) -> int:
        return 1 + 2 * t * t + i * t + j

    body: list[str] = []
    blocks = n // t
    for bi in range(blocks):
        for bj in range(blocks):
            for bk in range(blocks):
                body += [
                    f"copy {tile_a(i, k)},{a0 + (bi * t + i) * n + bk * t + k}" for i in range(t) for k in range(t)
                ]
                body += [
                    f"copy {tile_b(k, j)},{b0 + (bk * t + k) * n + bj * t + j}" for k in range(t) for j in range(t)
                ]
                for i in range(t):
                    for j in range(t):
                        for k in range(t):
                            body.append(f"mul {temp},{tile_a(i, k)},{tile_b(k, j)}")
                            first = bk == 0 and k == 0
                            body.append(f"copy {tile_c(i, j)},{temp}" if first else f"add {tile_c(i, j)},{temp}")
            body += [f"copy {c0 + (bi * t + i) * n + bj * t + j},{tile_c(i, j)}" for i in range(t) for j in range(t)]
    inputs = list(range(a0, a0 + 2 * n * n))
    return _program(inputs, body, list(range(c0, c0 + n * n)))
