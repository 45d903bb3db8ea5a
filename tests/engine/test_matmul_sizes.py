"""matmul_NxN by name for any N in [1, 64] (engine/challenges/matmul.py ``sized`` through the registry's families):
the listed sizes resolve to the listed entries (published baselines 1,316 and 340,704), a 2×2 baseline costs the
hand-computed 84, a 32×32 program is checked against numpy's product, and nonsense sizes get one line."""

from __future__ import annotations

import numpy as np
import pytest

from engine.challenges import CHALLENGES, matmul
from engine.challenges.matmul import MATMUL_4X4
from engine.errors import BadParameter, UnknownName
from engine.scoring.ir import ir_challenge, score_ir


def test_listed_sizes_are_the_listed_entries_with_published_baselines():
    assert CHALLENGES.get("matmul_4x4") is MATMUL_4X4
    assert score_ir("matmul_4x4", MATMUL_4X4.generators["baseline"]()).metrics["dally@1"] == 1316
    assert "matmul_32x32" in CHALLENGES and "matmul_32x32" not in CHALLENGES.names()  # resolvable, not listed


def test_two_by_two_baseline_by_hand():
    # A at 1..4, B at 5..8, C at 9..12, temp 13; cost(a) = ceil(sqrt(a)). Per C cell: mul c,a,b; mul t,a,b;
    # add c,c,t. (0,0): 4+5+7, (0,1): 4+5+8, (1,0): 5+5+8, (1,1): 5+5+8 = 69; output reads 3+4+4+4 = 15.
    spec = ir_challenge("matmul_2x2")
    assert score_ir("matmul_2x2", spec.generators["baseline"]()).metrics["dally@1"] == 84


def test_any_size_checks_against_numpy():
    n = 32
    a, b = matmul.test_matrices(n)
    c = (np.array(a, dtype=object) @ np.array(b, dtype=object)).ravel().tolist()
    spec = ir_challenge(f"matmul_{n}x{n}")
    assert spec.n_inputs == 2 * n * n and spec.n_outputs == n * n
    text = spec.generators["baseline"]()
    assert score_ir(spec.name, text).ok
    # The same program with its first output pointing at an input cell: wrong, reported as a failure.
    lines = text.splitlines()
    outputs = lines[-1].split(",")
    wrong = "\n".join([*lines[:-1], ",".join(["1", *outputs[1:]])])
    result = score_ir(spec.name, wrong)
    assert not result.ok and result.failure
    assert c[0] != a[0][0]  # so the wrong output really differs


@pytest.mark.parametrize(
    ("name", "error", "fragment"),
    [
        (
            "matmul_4x5",
            BadParameter,
            "'matmul_4x5' is not square — did you mean 'matmul_4x4'? matmul challenges are n×n",
        ),
        ("matmul_100x100", BadParameter, "'matmul_100x100' is out of range — matmul_NxN takes N in [1, 64]"),
        ("matmul_0x0", BadParameter, "out of range"),
        ("matmul_32", UnknownName, "did you mean"),
    ],
)
def test_nonsense_sizes_are_refused_in_one_line(name, error, fragment):
    with pytest.raises(error) as err:
        CHALLENGES.get(name)
    assert fragment in err.value.one_line() and "\n" not in err.value.one_line()
    assert name not in CHALLENGES


def test_unlisted_sizes_know_their_listed_relatives():
    assert CHALLENGES.relatives("matmul_32x32") == ["matmul_1x1", "matmul_4x4", "matmul_16x16"]
    assert CHALLENGES.relatives("matmul_4x4") == [] and CHALLENGES.relatives("sparse_sum") == []
    assert CHALLENGES.relatives("matmul_4x5") == []
