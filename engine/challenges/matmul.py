"""Matmul, IR track (docs/challenges.md#matmul-ir-track): C = A·B for n×n matrices under the v0 instruction set,
unbounded integers.

Source: cybertronai/sutro-problems ``matmul/``. Inputs are A then B, row-major (2n² values); outputs C row-major.
The single test instance is fixed: A[i][j] = i·n + j + 1, B[i][j] = i + 2j + 3 (not symmetric, so index mix-ups
fail; the 1×1 case is A = 1, B = 3). Correctness (rules version 2, the group's since 2026-09): exact equality on
that instance, then the symbolic identity of :mod:`engine.challenges.matmul_symbolic` (every output exactly
Σₖ A[i][k]·B[k][j]; no intermediate above degree two). :func:`matmul_challenge` builds any n×n; the
registry lists 1×1, 4×4 and 16×16 and resolves ``matmul_NxN`` for any N in [1, :data:`MAX_N`] by name
(:func:`sized`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache, partial

import numpy as np

from engine.challenges.ir_track import IRChallenge, TestSet
from engine.challenges.matmul_generators import baseline, tiled_16x16
from engine.challenges.matmul_symbolic import RULES, check_matmul
from engine.errors import BadParameter
from engine.ir.instruction_set import MATMUL_V0
from engine.ir.program import Program


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


MAX_N = 64
"""Largest n of a by-name matmul challenge: the naive baseline has 2n³ instructions (524,288 at n = 64)."""

NAME = re.compile(r"matmul_(\d+)x(\d+)")


def sized(name: str) -> IRChallenge | None:
    """The ``matmul_NxN`` challenge for a name of that form; None for other names; refused out of range."""
    match = NAME.fullmatch(name)
    if match is None:
        return None
    rows, cols = int(match.group(1)), int(match.group(2))
    if rows != cols:
        raise BadParameter(
            f"'{name}' is not square", hint=f"did you mean 'matmul_{rows}x{rows}'? matmul challenges are n×n"
        )
    if not 1 <= rows <= MAX_N:
        raise BadParameter(f"'{name}' is out of range", hint=f"matmul_NxN takes N in [1, {MAX_N}]")
    return matmul_challenge(rows)


def _identity(n: int, program: Program) -> str | None:
    """Rules version 2's check: the symbolic identity (:mod:`engine.challenges.matmul_symbolic`)."""
    failure = check_matmul(program, n)
    return None if failure is None else failure.message


@cache
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
        rules=RULES,
        identity_check=partial(_identity, n),
    )


MATMUL_1X1 = matmul_challenge(1)
MATMUL_4X4 = matmul_challenge(4)
MATMUL_16X16 = matmul_challenge(16)
