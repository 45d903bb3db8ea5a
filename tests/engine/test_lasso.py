"""lasso: at α = 0.1 exactly one non-zero coefficient, 0.900 (= 1 − α, the L1 shrinkage), on the secret's feature,
as the group reports with scikit-learn (cybertronai/SutroYaro:docs/findings/exp_lasso.md: 9/9 runs, coef 0.9000)."""

from __future__ import annotations

import pytest

from engine.errors import BadParameter
from engine.methods import run_method
from tests.engine.method_checks import check_docstring


@pytest.mark.slow
def test_one_coefficient_of_one_minus_alpha_on_the_secret():
    result = run_method("lasso", {"seed": "0"})
    assert result.accuracy == 1.0 and result.found == result.secret
    assert result.note == "1 non-zero coefficient(s); largest 0.900 (α = 0.1)"


def test_small_instance_and_feature_limit():
    result = run_method("lasso", {"n": "10", "k": "2", "m": "200", "wd": "0.2", "seed": "4"})
    assert result.accuracy == 1.0 and "largest 0.800 (α = 0.2)" in result.note
    with pytest.raises(BadParameter) as err:
        run_method("lasso", {"n": "60", "k": "3"})
    assert "C(60,3) = 34,220 interaction features" in err.value.one_line()
    check_docstring("lasso")
