"""The sparse-parity IR baseline (docs/challenges.md#sparse-parity-ir-track): try every candidate subset, predict with
the one that fits.

Reproduces the published baselines of cybertronai/sutro-problems (small 6,918, medium 816,251 dally@1) and the
same program text. Layout, low addresses first: predictions, X_train, y_train, X_test, the constant 1, two temps,
the per-candidate per-row match flags, one indicator per candidate, a parity temp and one term per candidate.
For each candidate T and train row i: matched = NOT(parity of T's bits XOR y_i) (via ``xor ·,1``); the indicator
is the AND of its matches. Each prediction is the OR over candidates of (indicator AND parity of T's test bits).
"""

from __future__ import annotations

from itertools import combinations

from engine.challenges.sparse_parity_instances import MEDIUM, SMALL, Spec


def baseline(spec: Spec) -> str:
    """The try-each-candidate program for ``spec`` (v3, 8-bit)."""
    n, m, t = spec.n_bits, spec.m_train, spec.m_test
    candidates = list(combinations(range(n), spec.k_secret))
    pred0 = 1
    xtr0 = pred0 + t
    ytr0 = xtr0 + n * m
    xte0 = ytr0 + m
    one = xte0 + n * t
    tmp, parity = one + 1, one + 2
    matched0 = one + 3
    indicator0 = matched0 + len(candidates) * m
    pred_tmp = indicator0 + len(candidates)
    term0 = pred_tmp + 1

    def xtr(i: int, c: int) -> int:
        return xtr0 + i * n + c

    def xte(j: int, c: int) -> int:
        return xte0 + j * n + c

    def matched(c: int, i: int) -> int:
        return matched0 + c * m + i

    body = [f"set {one},1"]
    for c, subset in enumerate(candidates):
        for i in range(m):
            body.append(f"xor {tmp},{ytr0 + i},{xtr(i, subset[0])}")
            body += [f"xor {tmp},{xtr(i, bit)}" for bit in subset[1:-1]]
            body.append(f"xor {parity},{tmp},{xtr(i, subset[-1])}")
            body.append(f"xor {matched(c, i)},{parity},{one}")
        body.append(f"and {indicator0 + c},{matched(c, 0)},{matched(c, 1)}")
        body += [f"and {indicator0 + c},{matched(c, i)}" for i in range(2, m)]
    for j in range(t):
        for c, subset in enumerate(candidates):
            body.append(f"xor {pred_tmp},{xte(j, subset[0])},{xte(j, subset[1])}")
            body += [f"xor {pred_tmp},{xte(j, bit)}" for bit in subset[2:]]
            body.append(f"and {term0 + c},{indicator0 + c},{pred_tmp}")
        body.append(f"or {pred0 + j},{term0},{term0 + 1}")
        body += [f"or {pred0 + j},{term0 + c}" for c in range(2, len(candidates))]
    inputs = [xtr(i, c) for i in range(m) for c in range(n)] + [ytr0 + i for i in range(m)]
    inputs += [xte(j, c) for j in range(t) for c in range(n)]
    lines = [",".join(map(str, inputs)), *body, ",".join(str(pred0 + j) for j in range(t))]
    return "\n".join(lines)


def baseline_small() -> str:
    return baseline(SMALL)


def baseline_medium() -> str:
    return baseline(MEDIUM)
