"""Matmul, IR track (docs/challenges.md#matmul-ir-track): C = A·B for n×n matrices under the v0 instruction set,
unbounded integers.

Source: cybertronai/sutro-problems ``matmul/``. Inputs are A then B, row-major (2n² values); outputs C row-major.
The single test instance is fixed: A[i][j] = i·n + j + 1, B[i][j] = i + 2j + 3 (not symmetric, so index mix-ups
fail; the 1×1 case is A = 1, B = 3). Correctness is exact equality. :func:`matmul_challenge` builds any n×n.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, partial

import numpy as np

from engine.challenges.ir_track import IRChallenge, TestSet
from engine.challenges.matmul_generators import baseline, tiled_16x16
from engine.ir.instruction_set import MATMUL_V0


def test_matrices(n: int) -> tuple[list[list[int]], list[list[int]]]:
    """The fixed test matrices A and B of the n×n challenge."""
    a = [[i * n + j + 1 for j in range(n)] for i in range(n)]
    b = [[i + 2 * j + 3 for j in range(n)] for i in range(n)]
    return a, b


def _test_set(n: int, seeds: Sequence[int] | None = None) -> TestSet:
    return _fixed_test_set(n)


@cache
def _fixed_test_set(n: int) -> TestSet:
    """The one deterministic instance (computed once per n; arrays are not modified by scoring)."""
    a, b = test_matrices(n)
    c = [[sum(a[i][k] * b[k][j] for k in range(n)) for j in range(n)] for i in range(n)]
    inputs = [v for row in a for v in row] + [v for row in b for v in row]
    expected = [v for row in c for v in row]
    return TestSet(inputs=np.array([inputs], dtype=object), expected=np.array([expected], dtype=object))


def matmul_challenge(n: int) -> IRChallenge:
    """The n×n matmul challenge (any n ≥ 1), with the baseline generator and, for n = 16, the tiled one."""
    generators: dict[str, Callable[[], str]] = {"baseline": partial(baseline, n)}
    if n == 16:
        generators["tiled"] = tiled_16x16
    return IRChallenge(
        name=f"matmul_{n}x{n}",
        summary=f"C = A·B for {n}×{n} integer matrices in v0 IR (add/sub/mul/copy), Dally cost",
        dialect=MATMUL_V0,
        n_inputs=2 * n * n,
        n_outputs=n * n,
        inputs_what=f"inputs: A then B, row-major ({2 * n * n} addresses)",
        outputs_what=f"outputs: C row-major ({n * n} addresses)",
        test_set=partial(_test_set, n),
        generators=generators,
    )


MATMUL_1X1 = matmul_challenge(1)
MATMUL_4X4 = matmul_challenge(4)
MATMUL_16X16 = matmul_challenge(16)
