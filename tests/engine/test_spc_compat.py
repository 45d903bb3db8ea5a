"""The sparse-parity-challenge compatibility evaluator gives the public evaluator's numbers.

Oracle: the group's own ``bin/evaluate`` (cybertronai/sparse-parity-challenge), run side by side outside this
repository on the same two solve() files; its result.md printed the per-seed DMC values asserted below.
"""

from __future__ import annotations

from engine.compat import spc

GF2_SOLVE = """
def solve(x, y, n_bits, k_sparse):
    A = ((1 - x[: n_bits + 8]) / 2).astype(np.uint8)
    b = ((1 - y[: n_bits + 8]) / 2).astype(np.uint8)
    aug = np.zeros((A.shape[0], n_bits + 1), dtype=np.uint8)
    aug[:, :n_bits] = A
    aug[:, n_bits] = b
    row = 0
    piv = []
    for col in range(n_bits):
        hits = np.flatnonzero(aug[row:, col])
        if hits.size == 0:
            continue
        p = row + int(hits[0])
        aug[[row, p]] = aug[[p, row]]
        for r in range(aug.shape[0]):
            if r != row and aug[r, col] == 1:
                aug[r] = aug[r] ^ aug[row]
        piv.append(col)
        row += 1
    sol = [c for i, c in enumerate(piv) if aug[i, n_bits] == 1]
    m = x.mean(axis=0)
    s = np.sum(x * 2.0)
    return sorted(sol)
"""

FOURIER_SOLVE = """
from itertools import combinations
def solve(x, y, n_bits, k_sparse):
    best, best_s = -1.0, []
    for s in combinations(range(n_bits), k_sparse):
        c = abs(float(np.mean(y[:100] * np.prod(x[:100, list(s)], axis=1))))
        if c > best:
            best, best_s = c, list(s)
    return best_s
"""


def test_gf2_style_solver_matches_public_evaluator():
    results, summary = spc.evaluate(spc.load_solve(GF2_SOLVE))
    assert [r.dmc for r in results] == [7_314_569.1, 7_401_641.0, 7_367_101.6]
    assert round(summary["dmc"], 1) == 7_361_103.9
    assert summary["passed"] and summary["accuracy"] == 1.0


def test_fourier_solver_matches_public_evaluator():
    results, summary = spc.evaluate(spc.load_solve(FOURIER_SOLVE))
    assert [r.dmc for r in results] == [425_388_002.9] * 3
    assert [r.found == r.secret for r in results] == [True] * 3


def test_load_errors_are_one_line():
    import pytest

    from engine.errors import EngineError

    with pytest.raises(EngineError) as err:
        spc.load_solve("def solve(:\n")
    assert "failed to load" in err.value.one_line() and "\n" not in err.value.one_line()
    with pytest.raises(EngineError) as err:
        spc.load_solve("x = 1\n")
    assert "no solve() function" in err.value.one_line()


def test_each_seed_says_where_its_cost_went_by_the_files_own_names():
    results, _ = spc.evaluate(spc.load_solve(GF2_SOLVE, "gf2_solve.py"), attribute=True)
    assert spc.evaluate_seed(spc.load_solve(GF2_SOLVE), 42).attribution is None  # only when asked
    for r in results:
        table = r.attribution
        assert table is not None
        assert sum(row.distance_sum for row in table.rows) == table.distance_sum
        assert abs(sum(row.dmc for row in table.rows) - r.dmc) <= 0.05 + 1e-9 * r.dmc  # r.dmc is rounded to 0.1
        names = {row.name for row in table.rows}
        assert {"x_train", "y_train", "aug", "A", "b"} <= names, names
