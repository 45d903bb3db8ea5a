"""Symmetry, IR track (docs/challenges.md#symmetry-ir-track): output 1 iff n input bits read the same backwards
(Rumelhart et al. 1986).

Source: cybertronai/sutro-problems ``symmetry``. v3 on signed 8-bit values; the program is run on all 2ⁿ bit
patterns (pattern ``code`` puts bit i of ``code`` in input i). Baseline: compare mirror pairs with ``cmp eq`` in
place, then AND the results into address 1 — dally@1 20 for n = 6 and 29 for n = 8.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, partial

import numpy as np

from engine.challenges.ir_track import IRChallenge, TestSet
from engine.ir.instruction_set import INT8_V3


def baseline(n: int) -> str:
    """Mirror-pair compare into the first half of the inputs, then an AND chain into address 1."""
    pairs = n // 2
    body = [f"cmp {i + 1}, {i + 1}, {n - i}, eq" for i in range(pairs)]
    body += [f"and 1, {k}" for k in range(2, pairs + 1)]
    return "\n".join([",".join(str(i) for i in range(1, n + 1)), *body, "1"])


def _test_set(n: int, seeds: Sequence[int] | None = None) -> TestSet:
    return _all_patterns(n)


@cache
def _all_patterns(n: int) -> TestSet:
    """Every n-bit pattern and its answer: fixed data, built once per n (read-only arrays)."""
    codes = np.arange(2**n)
    patterns = ((codes[:, None] >> np.arange(n)) & 1).astype(np.int8)
    palindrome = (patterns == patterns[:, ::-1]).all(axis=1).astype(np.int8)[:, None]
    patterns.setflags(write=False)
    palindrome.setflags(write=False)
    return TestSet(inputs=patterns, expected=palindrome)


def symmetry_challenge(n: int, name: str) -> IRChallenge:
    return IRChallenge(
        name=name,
        summary=f"{n}-bit palindrome detector in v3 IR (8-bit), checked on all {2**n} patterns",
        dialect=INT8_V3,
        n_inputs=n,
        n_outputs=1,
        inputs_what=f"inputs: the {n} bits",
        outputs_what="output: 1 if the pattern is a palindrome, else 0",
        test_set=partial(_test_set, n),
        generators={"baseline": partial(baseline, n)},
    )


SYMMETRY_SIX = symmetry_challenge(6, "symmetry_six")
SYMMETRY_EIGHT = symmetry_challenge(8, "symmetry_eight")
