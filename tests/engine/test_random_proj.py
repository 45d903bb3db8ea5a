"""random_proj: finds the secret at n=20, k=3 after at most C(20,3) = 1,140 distinct draws (the group: 565 tries
on average, 62-1,029 over 5 seeds; cybertronai/SutroYaro:docs/findings/exp_random_proj.md)."""

from __future__ import annotations

import re

from engine.methods import run_method
from tests.engine.method_checks import check_docstring


def test_finds_the_secret_within_the_subset_count():
    tries = []
    for seed in range(4):
        result = run_method("random_proj", {"seed": str(seed)})
        assert result.accuracy == 1.0 and result.found == result.secret, seed
        found = re.match(r"accepted after ([\d,]+) of 1,140 subsets", result.note)
        assert found is not None
        tries.append(int(found.group(1).replace(",", "")))
    assert all(1 <= t <= 1140 for t in tries) and len(set(tries)) > 1  # a random stopping time
    check_docstring("random_proj")
